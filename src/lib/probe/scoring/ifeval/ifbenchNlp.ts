/**
 * The 18 IFBench checkers that need NLTK's English data (Punkt sentences, `word_tokenize`, the
 * averaged-perceptron tagger, stop words) or syllapy's syllable counts. Each is written to the
 * behaviour of its reference in allenai/IFBench ifbench/instructions.py, quirks included, and
 * cross-checked on the reference's own decisions (tests/fixtures/ifbench-reference/).
 *
 * The data is not shipped: a run that scores IFBench loads it first (src/lib/nlp/load.ts) and
 * passes the resulting {@link EnglishNlp} in. Without it these instructions are unscored, never
 * guessed at.
 */
import type { EnglishNlp } from '../nlp.ts';
import { IfevalArgumentError, intArg, stringArg, type Kwargs } from './args.ts';
import { numberArg } from './ifbench.ts';
import {
	cpLength,
	firstCp,
	PUNCTUATION,
	pyLstrip,
	pySplit,
	pyStrip,
	removePunct,
	stripChars,
	STRIP_SET
} from '../python.ts';
import { escapeRegExp, isLowerPy, isUpperPy } from './text.ts';
import type { Check } from './types.ts';

/** Builds a check from kwargs and the English NLP it runs on. */
export type NlpBuilder = (kwargs: Kwargs, nlp: EnglishNlp) => Check;

/** Python's `\w+` tokens (nltk's `RegexpTokenizer(r"\w+")`). */
const WORDS = /[\p{L}\p{N}_]+/gu;

const lstripChars = (text: string, chars: Set<string>) => stripChars(text, chars, true, false);
const rstripChars = (text: string, chars: Set<string>) => stripChars(text, chars, false, true);

/** Python `str.isalpha()` for one character. */
const isAlpha = (c: string) => /^\p{L}$/u.test(c);
/** Python `str.isalnum()` for one character. */
const isAlnum = (c: string) => /^[\p{L}\p{N}]$/u.test(c);

/** Characters of Emoji 17.0 that the `emoji` package knows and older JavaScript engines do not. */
const EMOJI_17 = new Set(
	[0x1f6d9, 0x1fa8b, 0x1fa8c, 0x1fa8d, 0x1facc, 0x1fadd, 0x1faeb, 0x1faf9, 0x1fafa].map((cp) =>
		String.fromCodePoint(cp)
	)
);

/**
 * The `emoji` package's `is_emoji(c)` for one character: c is a key of its EMOJI_DATA. Its
 * one-character keys are Unicode's Emoji characters except the keycap bases (#, *, 0–9) and
 * the regional indicators, which are emoji only in sequences (checked over every code point).
 */
export function isEmojiChar(c: string): boolean {
	if (EMOJI_17.has(c)) return true;
	return /^\p{Emoji}$/u.test(c) && !/^[#*0-9\u{1F1E6}-\u{1F1FF}]$/u.test(c);
}

const PRONOUNS = new Set([
	...['i', 'me', 'we', 'us', 'you', 'he', 'him', 'she', 'her', 'it', 'they', 'them'],
	...['my', 'mine', 'our', 'ours', 'your', 'yours', 'his', 'hers', 'its', 'their', 'theirs'],
	...['myself', 'ourselves', 'yourself', 'yourselves', 'himself', 'herself', 'itself'],
	...['themselves', 'this', 'that', 'these', 'those', 'who', 'whom', 'whose', 'which', 'what'],
	...['whoever', 'whomever', 'whatever', 'whichever', 'anybody', 'anyone', 'anything'],
	...['everybody', 'everyone', 'everything', 'nobody', 'nothing', 'somebody', 'someone'],
	...['something', 'each', 'either', 'neither', 'both', 'all', 'some', 'any', 'none']
]);

/** count:pronouns — at least N pronouns among the word tokens ("/" read as a space). */
const pronouns: NlpBuilder = (kwargs, nlp) => {
	const n = intArg(kwargs, 'N');
	return (value) => {
		const words = nlp.wordTokenize(value.replaceAll('/', ' ').toLowerCase());
		return words.filter((word) => PRONOUNS.has(word)).length >= n;
	};
};

/** custom:sentence_alphabet — 26 sentences whose first words start a, b, c, … z. */
const sentenceAlphabet: NlpBuilder = (_kwargs, nlp) => (value) => {
	const sentences = nlp.sentTokenize(value);
	if (sentences.length !== 26) return false;
	return sentences.every((sentence, i) => {
		const first = pySplit(pyLstrip(sentence))[0];
		return first !== undefined && firstCp(first.toLowerCase()) === String.fromCharCode(97 + i);
	});
};

/**
 * custom:word_reverse — the response, lower-cased, without punctuation and read backwards word by
 * word, contains "bald eagle" and is one of its own Punkt sentences.
 */
const wordReverse: NlpBuilder = (_kwargs, nlp) => (value) => {
	const reversed = pySplit(removePunct(pyStrip(value.toLowerCase())))
		.reverse()
		.join(' ');
	if (!reversed.includes('bald eagle')) return false;
	return nlp.sentTokenize(reversed).includes(reversed);
};

/**
 * format:emoji — every sentence ends with an emoji (as one of its last two characters once
 * punctuation is removed), or the next sentence starts with one; the last sentence must end
 * with one itself.
 */
const emojiSentences: NlpBuilder = (_kwargs, nlp) => (value) => {
	const sentences = nlp.sentTokenize(value);
	const bare = (sentence: string) => Array.from(pyStrip(removePunct(sentence)));
	for (let i = 0; i < sentences.length; i++) {
		const chars = bare(sentences[i]);
		if (chars.length === 0) return false;
		const last = chars[chars.length - 1];
		const secondLast = chars.length > 1 ? chars[chars.length - 2] : last;
		if (isEmojiChar(last) || isEmojiChar(secondLast)) continue;
		if (i === sentences.length - 1) return false;
		const next = bare(sentences[i + 1]);
		if (next.length === 0 || !isEmojiChar(next[0])) return false;
	}
	return true;
};

/**
 * format:no_bullets_bullets — at least two sentences, then at least two lines starting with "*",
 * and nothing else after the first bullet. The reference reuses one variable for "still in the
 * sentences" and the latest line's sentence list, so a line with no sentences (a blank line)
 * also ends the sentence part: that quirk is kept.
 */
const sentencesThenBullets: NlpBuilder = (_kwargs, nlp) => (value) => {
	let inSentences = true;
	let sentenceCount = 0;
	let bulletCount = 0;
	for (const line of value.split('\n')) {
		const stripped = pyStrip(line);
		if (stripped.startsWith('*')) {
			inSentences = false;
			if (sentenceCount < 2) return false;
			bulletCount++;
		} else if (inSentences) {
			const sentences = nlp.sentTokenize(stripped);
			sentenceCount += sentences.length;
			inSentences = sentences.length > 0;
		} else {
			return false;
		}
	}
	return bulletCount >= 2;
};

/** format:title_case — no word token starts lower case (one-letter words must be upper case). */
const titleCase: NlpBuilder = (_kwargs, nlp) => (value) =>
	nlp.wordTokenize(value).every((word) => {
		const chars = Array.from(word);
		if (chars.length === 0 || !isAlpha(chars[0])) return true;
		if (chars.length === 1) return !isLowerPy(chars[0]);
		const rest = chars.slice(1).join('');
		if (isUpperPy(chars[0]) && isLowerPy(rest)) return true;
		return !(isLowerPy(chars[0]) && (isUpperPy(rest) || isLowerPy(rest)));
	});

function countEndings(sentences: string[], ending: string): number {
	return sentences.filter((sentence) => sentence.endsWith(ending)).length;
}

/** ratio:sentence_balance — as many sentences end in "." as in "?" and in "!". */
const sentenceBalance: NlpBuilder = (_kwargs, nlp) => (value) => {
	const sentences = nlp.sentTokenize(value);
	const declarative = countEndings(sentences, '.');
	return (
		declarative === countEndings(sentences, '?') && declarative === countEndings(sentences, '!')
	);
};

/** ratio:sentence_type — twice as many sentences end in "." as in "?". */
const sentenceTypeRatio: NlpBuilder = (_kwargs, nlp) => (value) => {
	const sentences = nlp.sentTokenize(value);
	return countEndings(sentences, '.') === 2 * countEndings(sentences, '?');
};

/** ratio:sentence_words — exactly three sentences of the same length (the words go unchecked). */
const sameLengthSentences: NlpBuilder = (_kwargs, nlp) => (value) => {
	const sentences = nlp.sentTokenize(value);
	if (sentences.length !== 3) return false;
	const length = cpLength(pyStrip(sentences[0]));
	return sentences.every((sentence) => cpLength(pyStrip(sentence)) === length);
};

/** ratio:stop_words — stop words are at most `percentage` % of the `\w+` tokens. */
const stopWordShare: NlpBuilder = (kwargs, nlp) => {
	const percentage = numberArg(kwargs, 'percentage');
	if (percentage < 0) throw new IfevalArgumentError(`percentage must be ≥ 0, got ${percentage}`);
	return (value) => {
		const tokens = value.match(WORDS) ?? [];
		if (tokens.length === 0) return false;
		const stop = tokens.filter((token) => nlp.stopwords.has(token.toLowerCase())).length;
		return (stop / tokens.length) * 100 <= percentage;
	};
};

/**
 * sentence:alliteration_increment — each sentence scores more than the one before, where a run
 * of k ≥ 2 neighbouring words with the same first character scores k.
 */
const alliterationIncrement: NlpBuilder = (_kwargs, nlp) => (value) => {
	let previous = -1;
	for (const sentence of nlp.sentTokenize(value)) {
		const words = pySplit(sentence.toLowerCase())
			.map((word) => lstripChars(word, STRIP_SET))
			.filter((word) => word !== '');
		let score = 0;
		let inRun = false;
		for (let i = 0; i < words.length - 1; i++) {
			if (firstCp(words[i]) === firstCp(words[i + 1])) {
				score += inRun ? 1 : 2;
				inRun = true;
			} else {
				inRun = false;
			}
		}
		if (score <= previous) return false;
		previous = score;
	}
	return true;
};

/** sentence:increment — each sentence has exactly `small_n` more words than the one before. */
const wordCountIncrement: NlpBuilder = (kwargs, nlp) => {
	const step = intArg(kwargs, 'small_n');
	const wordCount = (sentence: string) => pySplit(pyStrip(removePunct(sentence))).length;
	return (value) => {
		const sentences = nlp.sentTokenize(value);
		// The reference indexes sentences[0] and raises on none; counted as not followed.
		if (sentences.length === 0) return false;
		let previous = wordCount(sentences[0]);
		for (const sentence of sentences.slice(1)) {
			const count = wordCount(sentence);
			if (count !== previous + step) return false;
			previous = count;
		}
		return true;
	};
};

const isPyWordChar = (c: string | undefined) => c !== undefined && /^[\p{L}\p{N}_]$/u.test(c);

/**
 * Python `re.search(r'\b' + re.escape(keyword) + r'\b', text, re.IGNORECASE)`: Python's `\b`
 * knows Unicode letters, JavaScript's only ASCII, so the boundaries are checked by hand.
 */
export function containsWord(text: string, keyword: string): boolean {
	const chars = Array.from(text);
	if (keyword === '') return chars.some(isPyWordChar);
	const pattern = new RegExp(escapeRegExp(keyword), 'iuy');
	const boundary = (before: string | undefined, after: string | undefined) =>
		isPyWordChar(before) !== isPyWordChar(after);
	let offset = 0; // UTF-16 index of chars[i]
	for (let i = 0; i <= chars.length; offset += chars[i]?.length ?? 0, i++) {
		if (!boundary(chars[i - 1], chars[i])) continue;
		pattern.lastIndex = offset;
		const match = pattern.exec(text);
		if (match === null) continue;
		const end = i + Array.from(match[0]).length;
		if (boundary(chars[end - 1], chars[end])) return true;
	}
	return false;
}

/** sentence:keyword — the N-th sentence contains `word` as a whole word, any case. */
const keywordInSentence: NlpBuilder = (kwargs, nlp) => {
	const word = stringArg(kwargs, 'word');
	const n = intArg(kwargs, 'N');
	return (value) => {
		const sentences = nlp.sentTokenize(value);
		if (sentences.length < n) return false;
		const sentence = sentences.at(n - 1);
		return sentence !== undefined && containsWord(sentence, word);
	};
};

/**
 * words:keywords_specific_position — the m-th word token (punctuation tokens skipped) of the
 * n-th sentence is `keyword`, any case.
 */
const keywordAtPosition: NlpBuilder = (kwargs, nlp) => {
	const keyword = pyStrip(stringArg(kwargs, 'keyword')).toLowerCase();
	const n = intArg(kwargs, 'n');
	const m = intArg(kwargs, 'm');
	// The reference draws a random position for 0 ("if not n"); we will not score a random target.
	if (n === 0 || m === 0) throw new IfevalArgumentError('n and m must be at least 1');
	return (value) => {
		const sentences = nlp.sentTokenize(value);
		if (sentences.length < n) return false;
		const words = nlp
			.wordTokenize(sentences[n - 1])
			.filter((token) => Array.from(token).some(isAlnum));
		if (words.length < m) return false;
		return words[m - 1].toLowerCase() === keyword;
	};
};

/** words:last_first — each sentence's last word is the next sentence's first word, any case. */
const lastWordFirst: NlpBuilder = (_kwargs, nlp) => (value) => {
	const sentences = nlp.sentTokenize(value);
	for (let i = 0; i < sentences.length - 1; i++) {
		const lastWords = pySplit(rstripChars(sentences[i], STRIP_SET));
		const firstWords = pySplit(lstripChars(sentences[i + 1], STRIP_SET));
		if (lastWords.length === 0 || firstWords.length === 0) return false;
		if (lastWords[lastWords.length - 1].toLowerCase() !== firstWords[0].toLowerCase()) {
			return false;
		}
	}
	return true;
};

/** words:odd_even_syllables — neighbouring words alternate odd and even syllable counts. */
const alternatingSyllables: NlpBuilder = (_kwargs, nlp) => (value) => {
	const parities = pySplit(removePunct(value).toLowerCase()).map(
		(word) => nlp.countSyllables(word) % 2
	);
	return parities.every((parity, i) => i === 0 || parity !== parities[i - 1]);
};

/** words:start_verb — the first token's part-of-speech tag is a verb tag (VB, VBD, …). */
const startsWithVerb: NlpBuilder = (_kwargs, nlp) => (value) => {
	const tokens = nlp.wordTokenize(value);
	if (tokens.length === 0) return false;
	const first = nlp.posTag(tokens)[0];
	return first !== undefined && first[1].includes('VB');
};

/**
 * words:words_position — the second token and the second-to-last word are `keyword`, any case;
 * a final punctuation token is skipped (the reference's `token in string.punctuation` is a
 * substring test, so "()" counts as punctuation too).
 */
const secondAndSecondLast: NlpBuilder = (kwargs, nlp) => {
	const keyword = pyStrip(stringArg(kwargs, 'keyword')).toLowerCase();
	return (value) => {
		const words = nlp.wordTokenize(value).map((word) => word.toLowerCase());
		if (words.length < 2) return false;
		const second = words[1];
		if (PUNCTUATION.includes(words[words.length - 1])) {
			if (words.length < 3) return false;
			return second === keyword && words[words.length - 3] === keyword;
		}
		return second === keyword && words[words.length - 2] === keyword;
	};
};

/** The IFBench instructions that need {@link EnglishNlp}, by id. */
export const IFBENCH_NLP_INSTRUCTIONS: Readonly<Record<string, NlpBuilder>> = {
	'count:pronouns': pronouns,
	'custom:sentence_alphabet': sentenceAlphabet,
	'custom:word_reverse': wordReverse,
	'format:emoji': emojiSentences,
	'format:no_bullets_bullets': sentencesThenBullets,
	'format:title_case': titleCase,
	'ratio:sentence_balance': sentenceBalance,
	'ratio:sentence_type': sentenceTypeRatio,
	'ratio:sentence_words': sameLengthSentences,
	'ratio:stop_words': stopWordShare,
	'sentence:alliteration_increment': alliterationIncrement,
	'sentence:increment': wordCountIncrement,
	'sentence:keyword': keywordInSentence,
	'words:keywords_specific_position': keywordAtPosition,
	'words:last_first': lastWordFirst,
	'words:odd_even_syllables': alternatingSyllables,
	'words:start_verb': startsWithVerb,
	'words:words_position': secondAndSecondLast
};
