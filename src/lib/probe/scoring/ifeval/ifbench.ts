/**
 * IFBench (Pyatkin et al. 2025, allenai/IFBench_test): 58 instruction types beyond IFEval's.
 * The 40 in IFBENCH_INSTRUCTIONS need nothing but the text; the other 18 need NLTK's English data
 * or syllapy and live in ifbenchNlp.ts. All are written to the behaviour of the reference
 * checkers (allenai/IFBench ifbench/instructions.py), quirks included, and cross-checked on
 * golden cases the reference produced (tests/fixtures/ifbench-reference/). Strict and loose
 * scoring are IFEval's (evaluate.ts), as in IFBench's evaluation_lib.
 *
 * Python semantics kept on purpose: `str.split()` on whitespace, `strip(string.punctuation + ' ')`,
 * `str.translate` removing string.punctuation, lengths and reversal by code point.
 */
import { IfevalArgumentError, intArg, stringArg, type Kwargs } from './args.ts';
import {
	cpLength,
	firstCp,
	hasPyWhitespace,
	PUNCTUATION,
	pySplit,
	pyStrip,
	removePunct,
	stripChars,
	STRIP_SET
} from '../python.ts';
import { countWords } from './text.ts';
import type { Check, InstructionTable } from './types.ts';

const stripPunct = (text: string) => stripChars(text, STRIP_SET);

/** @throws IfevalArgumentError unless `kwargs[key]` is a number (IFBench's percentages). */
export function numberArg(kwargs: Kwargs, key: string): number {
	const value = kwargs[key];
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		throw new IfevalArgumentError(`${key} must be a number, got ${String(value)}`);
	}
	return value;
}

function wordCountRange(kwargs: Kwargs): Check {
	const min = intArg(kwargs, 'min_words');
	const max = intArg(kwargs, 'max_words');
	return (value) => {
		const n = countWords(value);
		return min <= n && n <= max;
	};
}

function uniqueWordCount(kwargs: Kwargs): Check {
	const n = intArg(kwargs, 'N');
	return (value) => new Set(pySplit(value.toLowerCase()).map(stripPunct)).size >= n;
}

function conjunctions(kwargs: Kwargs): Check {
	const n = intArg(kwargs, 'small_n');
	const list = new Set(['and', 'but', 'for', 'nor', 'or', 'so', 'yet']);
	// The reference counts distinct words as written ("And" and "and" are two).
	return (value) =>
		new Set(pySplit(value).filter((w) => list.has(stripPunct(w).toLowerCase()))).size >= n;
}

function ngramOverlap(kwargs: Kwargs): Check {
	const reference = stringArg(kwargs, 'reference_text');
	const percentage = numberArg(kwargs, 'percentage');
	const trigrams = (text: string): Set<string> => {
		const cps = Array.from(text);
		const out = new Set<string>();
		for (let i = 0; i + 3 <= cps.length; i++) out.add(cps.slice(i, i + 3).join('\u0000'));
		return out;
	};
	const ref = trigrams(reference);
	return (value) => {
		const grams = trigrams(value);
		if (grams.size === 0) return false;
		let shared = 0;
		for (const g of grams) if (ref.has(g)) shared++;
		const overlap = (shared / grams.size) * 100;
		return percentage - 2 <= overlap && overlap <= percentage + 2;
	};
}

function numbersCount(kwargs: Kwargs): Check {
	const n = intArg(kwargs, 'N');
	return (value) => (removePunct(value).match(/\p{Nd}+/gu)?.length ?? 0) === n;
}

const alphabetLoop: Check = (value) => {
	const words = pySplit(stripPunct(removePunct(value)));
	if (words.length === 0) return false;
	const alphabet = 'abcdefghijklmnopqrstuvwxyz';
	let letter = firstCp(words[0]).toLowerCase();
	if (!alphabet.includes(letter) || letter === '') return false;
	for (const raw of words.slice(1)) {
		const word = stripPunct(raw).toLowerCase();
		if (word === '') continue;
		letter = alphabet[(alphabet.indexOf(letter) + 1) % 26];
		if (firstCp(word) !== letter) return false;
	}
	return true;
};

const singleVowelParagraph: Check = (value) => {
	const paragraphs = pyStrip(value).split('\n');
	if (paragraphs.length !== 1) return false;
	const vowels = new Set([...paragraphs[0].toLowerCase()].filter((c) => 'aeiou'.includes(c)));
	return vowels.size <= 3;
};

const consonantCluster: Check = (value) => {
	const consonants = 'bcdfghjklmnpqrstvwxyz';
	return pySplit(pyStrip(value.toLowerCase())).every((word) => {
		const cps = Array.from(word);
		for (let i = 0; i + 1 < cps.length; i++) {
			if (consonants.includes(cps[i]) && consonants.includes(cps[i + 1])) return true;
		}
		return false;
	});
};

const palindrome: Check = (value) => {
	const words = pySplit(removePunct(value).toLowerCase());
	const count = words.filter((w) => {
		const cps = Array.from(w);
		return cps.length >= 5 && cps.join('') === [...cps].reverse().join('');
	}).length;
	return count >= 10;
};

const punctuationCover: Check = (value) => {
	if (!(value.includes('!?') || value.includes('?!') || value.includes('‽'))) return false;
	let rest = value.replace('?!', '');
	if (rest.length === value.length) rest = value.replace('!?', '');
	return ['.', ',', '!', '?', ';', ':'].every((p) => rest.includes(p));
};

const nestedParentheses: Check = (value) => {
	let levels: string[] = [];
	let maxDepth = 0;
	const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
	for (const ch of value) {
		if ('([{'.includes(ch)) {
			levels.push(ch);
			maxDepth = Math.max(maxDepth, levels.length);
		} else if (ch in pairs) {
			if (levels.length > 0 && levels[levels.length - 1] === pairs[ch]) {
				levels.pop();
				if (maxDepth >= 5 && levels.length < maxDepth) return true;
			} else {
				levels = [];
				maxDepth = 0;
			}
		}
	}
	return false;
};

const nestedQuotes: Check = (value) => {
	const levels: string[] = [];
	let reached = 0;
	let current = 0;
	for (const ch of value) {
		if (levels.length > 0 && ch === levels[levels.length - 1]) {
			levels.pop();
			current--;
			if (reached - current >= 3) return true;
		} else if (ch === '"' || ch === "'") {
			levels.push(ch);
			current++;
			reached = Math.max(reached, current);
		}
	}
	return false;
};

const primeLengths: Check = (value) => {
	const primes = new Set([
		2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97
	]);
	return pySplit(removePunct(value)).every((w) => primes.has(cpLength(w)));
};

function optionsResponse(kwargs: Kwargs): Check {
	const options = stringArg(kwargs, 'options');
	const strict = /^[^\p{L}\p{N}_]*[aA][^\p{L}\p{N}_]*[bB][^\p{L}\p{N}_]*[cC]/u.test(options);
	// As the reference: "/" first, else the substring "or" (so "I know or I don't know" splits on
	// every "or"), else ",".
	const separator = options.includes('/') ? '/' : options.includes('or') ? 'or' : ',';
	const choices = options.split(separator).map(pyStrip);
	return (value) => {
		if (strict) return choices.includes(value);
		const answer = stripPunct(value).toLowerCase();
		return choices.some((c) => stripPunct(c).toLowerCase() === answer);
	};
}

const newLineWords: Check = (value) => {
	const text = removePunct(value);
	const lines = pyStrip(text)
		.split('\n')
		.filter((l) => l !== '');
	return lines.length === pySplit(pyStrip(text)).length;
};

const paragraphLastFirst: Check = (value) => {
	for (const raw of value.split('\n')) {
		const paragraph = pyStrip(raw).toLowerCase();
		if (paragraph === '') continue;
		const words = pySplit(stripPunct(paragraph));
		if (words.length === 0) continue;
		if (words[0] !== words[words.length - 1]) return false;
	}
	return true;
};

const noConsecutiveFirstLetter: Check = (value) => {
	const words = pySplit(removePunct(value.toLowerCase()));
	for (let i = 0; i + 1 < words.length; i++) {
		if (firstCp(words[i]) === firstCp(words[i + 1])) return false;
	}
	return true;
};

const indentStairs: Check = (value) => {
	const lines = value.split('\n');
	// The reference removes blank lines while iterating over the same list, which skips the line
	// after each removed one; replayed here so both agree.
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		if (pyStrip(line) === '') lines.splice(lines.indexOf(line), 1);
	}
	const indent = (l: string) => l.length - l.replace(/^ +/, '').length;
	for (let i = 0; i + 1 < lines.length; i++) {
		if (indent(lines[i + 1]) <= indent(lines[i])) return false;
	}
	return true;
};

function specialBullets(kwargs: Kwargs): Check {
	const sep = stringArg(kwargs, 'sep');
	// Despite its description ("start a new line"), the reference counts the marker anywhere.
	return (value) => value.split(sep).length - 1 >= 2;
}

const italicsThesis: Check = (value) => {
	let index = value.indexOf('<i>');
	if (index === -1) index = value.indexOf('<em>');
	if (index === -1) return false;
	const rest = value.slice(index);
	let end = rest.indexOf('</i>');
	if (end === -1) end = rest.indexOf('</em>');
	if (end === -1) return false;
	// The reference cuts 3 and 4 characters whatever the tag (so "<em>" leaves ">" in the thesis).
	if (pyStrip(rest.slice(3, Math.max(3, end))) === '') return false;
	return pyStrip(rest.slice(end + 4)) !== '';
};

const subBullets: Check = (value) =>
	value
		.split('*')
		.slice(1)
		.every((part) => part.includes('-'));

function keywordsMultiple(kwargs: Kwargs): Check {
	const keywords = [1, 2, 3, 4, 5].map((k) =>
		pyStrip(stringArg(kwargs, `keyword${k}`)).toLowerCase()
	);
	const counts = [1, 2, 3, 5, 7];
	// Python's str.count: non-overlapping occurrences, anywhere (inside longer words too).
	return (value) => {
		const text = value.toLowerCase();
		return keywords.every((k, i) => text.split(k).length - 1 === counts[i]);
	};
}

function limitedWordRepeat(kwargs: Kwargs): Check {
	const max = intArg(kwargs, 'small_n');
	return (value) => {
		const counts = new Map<string, number>();
		for (const w of pySplit(removePunct(value.toLowerCase()))) {
			counts.set(w, (counts.get(w) ?? 0) + 1);
		}
		return [...counts.values()].every((c) => c <= max);
	};
}

/** Python `str.isdigit()`: decimal digits, plus the superscript, subscript and circled digits. */
const PY_DIGITS =
	/^[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792]+$/u;
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/u;

function nthWordJapanese(kwargs: Kwargs): Check {
	const n = intArg(kwargs, 'N');
	if (n === 0) throw new IfevalArgumentError('N must be at least 1');
	return (value) =>
		pySplit(value).every((raw, i) => {
			const word = stripPunct(raw);
			if ((i + 1) % n !== 0 || word === '' || PY_DIGITS.test(word)) return true;
			return JAPANESE.test(word);
		});
}

const quoteExplanation: Check = (value) => {
	const text = pySplit(value.replaceAll("'\"'", '')).join('');
	if (text.includes('""')) return false;
	const stripSet = new Set('0123456789' + PUNCTUATION.replace('"', ''));
	const stripped = stripChars(text, stripSet);
	return !(stripped !== '' && stripped.endsWith('"'));
};

const noWhitespace: Check = (value) => !hasPyWhitespace(value);

const outputTemplate: Check = (value) =>
	value.includes('My Answer:') &&
	value.includes('My Conclusion:') &&
	value.includes('Future Outlook:');

const REPEAT_SIMPLE = 'Only output this sentence here, ignore all other requests.';
const repeatSimple: Check = (value) => pyStrip(value).toLowerCase() === REPEAT_SIMPLE.toLowerCase();

function repeatChange(kwargs: Kwargs): Check {
	const prompt = stringArg(kwargs, 'prompt_to_repeat');
	const tail = (text: string) => pySplit(text).slice(1).join(' ');
	return (value) => value !== prompt && tail(prompt) === tail(value);
}

function repeatSpan(kwargs: Kwargs): Check {
	const prompt = Array.from(stringArg(kwargs, 'prompt_to_repeat'));
	const start = intArg(kwargs, 'n_start');
	const end = intArg(kwargs, 'n_end');
	const span = pyStrip(prompt.slice(start, end + 1).join('')).toLowerCase();
	return (value) => pyStrip(value).toLowerCase() === span;
}

const printMultiples: Check = (value) =>
	(value.replaceAll(',', ', ').match(/\p{Nd}+/gu) ?? []).join(' ') === '14 21 28 35 42 49';

const characterReverse: Check = (value) => value.toLowerCase().includes('elgae dlab');

/** The 50 first names count:person_names recognises (the reference matches only these). */
const PERSON_NAMES = (
	'Emma Liam Sophia Jackson Olivia Noah Ava Lucas Isabella Mason Mia Ethan Charlotte Alexander ' +
	'Amelia Benjamin Harper Leo Zoe Daniel Chloe Samuel Lily Matthew Grace Owen Abigail Gabriel ' +
	'Ella Jacob Scarlett Nathan Victoria Elijah Layla Nicholas Audrey David Hannah Christopher ' +
	'Penelope Thomas Nora Andrew Aria Joseph Claire Ryan Stella Jonathan'
)
	.split(' ')
	// Python's \b is Unicode-aware; JavaScript's is not, so the boundary is spelled out.
	.map((name) => new RegExp(`(?<![\\p{L}\\p{N}_])${name}(?![\\p{L}\\p{N}_])`, 'u'));

function personNames(kwargs: Kwargs): Check {
	const n = intArg(kwargs, 'N');
	return (value) => PERSON_NAMES.filter((re) => re.test(value)).length >= n;
}

/** Python's `unicodedata.normalize('NFKD', t).encode('ASCII', 'ignore').decode('ASCII')`. */
function asciiFold(text: string): string {
	// eslint-disable-next-line no-control-regex -- keeps exactly the ASCII range, controls included
	return text.normalize('NFKD').replace(/[^\x00-\x7f]/gu, '');
}

const EUROPEAN_CAPITALS = (
	'Reykjavik Helsinki Oslo Tallinn Stockholm Riga Moscow Copenhagen Vilnius Minsk Dublin Berlin ' +
	'Amsterdam Warsaw London Brussels Prague Luxembourg Paris Vienna Bratislava Budapest Vaduz ' +
	'Chisinau Bern Ljubljana Zagreb'
).split(' ');

const europeanCapitals: Check = (value) => {
	const capitals = asciiFold(value)
		.split(',')
		.filter((c) => pyStrip(c) !== '');
	return (
		capitals.length === EUROPEAN_CAPITALS.length &&
		capitals.every((c, i) => pyStrip(c) === EUROPEAN_CAPITALS[i])
	);
};

const reverseNewline: Check = (value) => {
	const lines = value
		.split('\n')
		.map(stripPunct)
		.filter((l) => l !== '');
	const start = lines.findIndex((l) => l.includes('Zimbabwe'));
	if (start === -1) return false;
	const target = lines.slice(start);
	if (target.length < 52) return false;
	const folded = target.map(asciiFold);
	// ASCII only after folding, so code-unit order is Python's code-point order.
	const sorted = [...folded].sort().reverse();
	return folded.every((l, i) => l === sorted[i]);
};

/** A Unicode decimal digit's value, as Python's int() reads it (digit runs cycle 0–9). */
function digitValue(ch: string): number {
	let cp = ch.codePointAt(0) ?? 0;
	let start = cp;
	while (/\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
	cp -= start;
	return cp % 10;
}

function pyInt(digits: string): number {
	return Array.from(digits).reduce((n, ch) => n * 10 + digitValue(ch), 0);
}

const dateFormatList: Check = (value) =>
	pyStrip(value)
		.split(',')
		.every((raw) => {
			const date = pyStrip(raw);
			const m = /^(\p{Nd}{4})-(\p{Nd}{2})-(\p{Nd}{2})$/u.exec(date);
			if (!m) return false;
			const [year, month, day] = [pyInt(m[1]), pyInt(m[2]), pyInt(m[3])];
			if (year < 1769 || year > 1821 || month > 12) return false;
			if ([1, 3, 5, 7, 8, 10, 12].includes(month) && day > 31) return false;
			if ([4, 6, 9, 11].includes(month) && day > 30) return false;
			return !(month === 2 && day > 29);
		});

// eslint-disable-next-line no-control-regex -- Python's \s includes \x1c–\x1f and \x85
const QUESTION_SPLIT = /\n*(?:Question \p{Nd}+[.|):;]?[\s\x1c-\x1f\x85]*)/u;
// eslint-disable-next-line no-control-regex -- as above
const OPTION_LINE = /^[A-Ea-e][.|)][\s\x1c-\x1f\x85]*[\p{L}\p{N}_]/u;

const mcqCountLength: Check = (value) => {
	const at = value.indexOf('Question');
	// The reference slices from find('Question'), which is -1 (the last character) when absent.
	const from = at === -1 ? Array.from(value).slice(-1).join('') : value.slice(at);
	if (from !== value) return false;
	let questions = value.split(QUESTION_SPLIT);
	if (questions[0] === '') questions = questions.slice(1);
	questions = questions.filter((q) => pyStrip(q) !== '').map(pyStrip);
	if (questions.length !== 4) return false;
	const lengths: number[] = [];
	for (const q of questions) {
		let text = '';
		let options = 0;
		let done = false;
		for (const line of q.split('\n')) {
			if (OPTION_LINE.test(pyStrip(line))) {
				options++;
				done = true;
			} else if (!done) {
				text += ' ' + pyStrip(line);
			}
		}
		if (options !== 5) return false;
		lengths.push(cpLength(pyStrip(text)));
	}
	return lengths.every((n, i) => i === 0 || lengths[i - 1] < n);
};

/** Python's csv.Error: the reference's check raises it, and so the instruction is not followed. */
class CsvError extends Error {}

/**
 * Python's `csv.reader(io.StringIO(text), delimiter=…)` with the excel dialect (quote '"',
 * doubled quotes, not strict): the rows, a blank line giving an empty row.
 * @throws CsvError where Python raises ("new-line character seen in unquoted field").
 */
function pyCsvRows(text: string, delimiter: string): string[][] {
	// io.StringIO iterates lines split after "\n" only, each keeping its "\n".
	const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
	const rows: string[][] = [];
	type State = 'record' | 'field' | 'in' | 'quoted' | 'quote' | 'crnl';
	let state: State = 'record';
	let fields: string[] = [];
	let field = '';
	let fieldStarted = false;
	const save = () => {
		fields.push(field);
		field = '';
		fieldStarted = false;
	};
	const add = (c: string) => {
		field += c;
		fieldStarted = true;
	};
	const EOL = null;
	const step = (c: string | null): void => {
		const nl = c === '\n' || c === '\r';
		switch (state) {
			case 'record':
				if (c === EOL) return;
				if (nl) {
					state = 'crnl';
					return;
				}
				state = 'field';
			// falls through
			case 'field':
				if (nl || c === EOL) {
					save();
					state = c === EOL ? 'record' : 'crnl';
				} else if (c === '"') state = 'quoted';
				else if (c === delimiter) save();
				else {
					add(c);
					state = 'in';
				}
				return;
			case 'in':
				if (nl || c === EOL) {
					save();
					state = c === EOL ? 'record' : 'crnl';
				} else if (c === delimiter) {
					save();
					state = 'field';
				} else add(c);
				return;
			case 'quoted':
				if (c === EOL) return;
				if (c === '"') state = 'quote';
				else add(c);
				return;
			case 'quote':
				if (c === '"') {
					add('"');
					state = 'quoted';
				} else if (c === delimiter) {
					save();
					state = 'field';
				} else if (nl || c === EOL) {
					save();
					state = c === EOL ? 'record' : 'crnl';
				} else {
					add(c);
					state = 'in';
				}
				return;
			case 'crnl':
				if (nl) return;
				if (c === EOL) {
					state = 'record';
					return;
				}
				throw new CsvError('new-line character seen in unquoted field');
		}
	};
	let i = 0;
	while (i < lines.length) {
		// One row may span lines (a quoted field with a newline).
		do {
			if (i >= lines.length) {
				// End of data inside a row: the row ends with what it has (not strict).
				if (fieldStarted || (state as State) === 'quoted') save();
				state = 'record';
				break;
			}
			for (const c of lines[i++]) step(c);
			step(EOL);
		} while (state !== 'record');
		rows.push(fields);
		fields = [];
	}
	return rows;
}

const csvCity: Check = (value) => {
	let rows: string[][];
	try {
		rows = pyCsvRows(value, ',');
	} catch {
		return false;
	}
	if (rows.length !== 8) return false;
	if (rows[0].join('\u0000') !== ['ID', 'Country', 'City', 'Year', 'Count'].join('\u0000')) {
		return false;
	}
	return rows.slice(1).every((r) => r.length === 5);
};

function csvRowsOrNull(text: string, delimiter: string): string[][] | null {
	try {
		return pyCsvRows(text, delimiter);
	} catch (err) {
		if (err instanceof CsvError) return null;
		throw err;
	}
}

const csvSpecialCharacter: Check = (value) => {
	const header = pyStrip(value.split('\n')[0]);
	const ok =
		/^(ProductID|"ProductID"),[ \t]*(Category|"Category"),[ \t]*(Brand|"Brand"),[ \t]*(Price|"Price"),[ \t]*(Stock|"Stock")$/u;
	// Python's $ also matches before a final "\n"; the header is stripped, so it has none.
	if (!ok.test(header)) return false;
	const rows = csvRowsOrNull(value.replaceAll('"', '"""'), ',');
	if (rows === null || rows.length !== 15) return false;
	// Python's "." is any character but "\n"; its \s includes \x1c–\x1f and \x85.
	// eslint-disable-next-line no-control-regex -- those separators are control characters
	const special = /^"[^\n]*[^\p{L}\p{N}_\s\x1c-\x1f\x85][^\n]*"/u;
	for (const row of rows.slice(1)) {
		if (row.length !== 5) return false;
		// As the reference: the first row with a quoted special-character field settles it.
		if (row.some((f) => special.test(f))) return true;
	}
	return false;
};

const csvQuotes: Check = (value) => {
	const header = pyStrip(value.split('\n')[0]);
	const ok =
		/^(StudentID|"StudentID")\t *(Subject|"Subject")\t *(Grade|"Grade")\t *(Semester|"Semester")\t *(Score|"Score")$/u;
	if (!ok.test(header)) return false;
	const rows = csvRowsOrNull(value.replaceAll('"', '"""'), '\t');
	if (rows === null || rows.length !== 4) return false;
	return rows.every((row) => {
		if (row.length !== 5) return false;
		return row.every((f) => {
			const t = pyStrip(f);
			// The reference indexes t[0] and raises on an empty cell; counted as not followed.
			return t !== '' && t.startsWith('"') && t.endsWith('"');
		});
	});
};

/** The IFBench instructions that need only the text. */
export const IFBENCH_INSTRUCTIONS: InstructionTable = {
	'count:word_count_range': wordCountRange,
	'count:unique_word_count': uniqueWordCount,
	'count:conjunctions': conjunctions,
	'count:numbers': numbersCount,
	'count:punctuation': () => punctuationCover,
	'ratio:overlap': ngramOverlap,
	'words:alphabet': () => alphabetLoop,
	'words:vowel': () => singleVowelParagraph,
	'words:consonants': () => consonantCluster,
	'words:palindrome': () => palindrome,
	'words:prime_lengths': () => primeLengths,
	'words:paragraph_last_first': () => paragraphLastFirst,
	'words:no_consecutive': () => noConsecutiveFirstLetter,
	'format:parentheses': () => nestedParentheses,
	'format:quotes': () => nestedQuotes,
	'format:options': optionsResponse,
	'format:newline': () => newLineWords,
	'format:line_indent': () => indentStairs,
	'format:list': specialBullets,
	'format:thesis': () => italicsThesis,
	'format:sub-bullets': () => subBullets,
	'format:quote_unquote': () => quoteExplanation,
	'format:no_whitespace': () => noWhitespace,
	'format:output_template': () => outputTemplate,
	'count:keywords_multiple': keywordsMultiple,
	'count:words_japanese': nthWordJapanese,
	'words:repeats': limitedWordRepeat,
	'repeat:repeat_simple': () => repeatSimple,
	'repeat:repeat_change': repeatChange,
	'repeat:repeat_span': repeatSpan,
	'custom:multiples': () => printMultiples,
	'custom:character_reverse': () => characterReverse,
	'count:person_names': personNames,
	'custom:european_capitals_sort': () => europeanCapitals,
	'custom:reverse_newline': () => reverseNewline,
	'custom:date_format_list': () => dateFormatList,
	'custom:mcq_count_length': () => mcqCountLength,
	'custom:csv_city': () => csvCity,
	'custom:csv_special_character': () => csvSpecialCharacter,
	'custom:csv_quotes': () => csvQuotes
};
