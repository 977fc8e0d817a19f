/**
 * Sentence counting for length_constraints:number_sentences.
 *
 * The reference uses nltk's Punkt model trained on English, which we cannot ship. This follows
 * the same decisions on the cases that matter for chat replies; it is an approximation:
 * - "?" and "!" always end a sentence; "." ends one when whitespace follows.
 * - A newline alone never ends a sentence (Punkt ignores layout), so an unpunctuated list is
 *   one sentence.
 * - Titles before names (Mr., Dr., St., …) never end a sentence.
 * - Other abbreviations (etc., e.g., U.S.), single-letter initials and ellipses end one only
 *   before a capitalised common word ("etc. The …" but not "J. R. R. Tolkien"). Punkt decides
 *   this from word statistics (its orthographic heuristic); our list of common words stands in.
 * - A number with a period ("1.") ends a sentence before any capitalised word, so a numbered
 *   list "1. Apples" counts "1." as a sentence, as Punkt does.
 * Where Punkt's learned statistics would decide differently we may be off by one.
 */

const TITLES = new Set(
	'mr mrs ms dr prof st jr sr messrs gen rep sen gov lt col capt sgt rev'.split(' ')
);
const ABBREVIATIONS = new Set(
	(
		'etc e.g i.e vs inc ltd co corp fig approx a.m p.m u.s u.k jan feb mar apr jun jul aug ' +
		'sep sept oct nov dec mt ft vol dept'
	).split(' ')
);

/** Words Punkt has seen lower-cased mid-sentence, so a capital means a new sentence. */
const COMMON_WORDS = new Set(
	(
		'the a an this that these those it its he she we they i you there then but and so or in on ' +
		'at for if when what why how where who which after before however also our my his her ' +
		'their your as all some many most one no not yes let now here finally first next today ' +
		'each every both with from by to of is are was were do does did please thanks while ' +
		'although because since once still such'
	).split(' ')
);

/** Closing quotes and brackets Punkt lets trail a sentence's final punctuation. */
const TRAILING_CLOSERS = /["'”’)\]}*]+$/;

type Ending = 'always' | 'before-capital' | 'before-common-capital' | 'never' | 'none';

function endingOf(token: string): Ending {
	const bare = token.replace(TRAILING_CLOSERS, '');
	if (/[?!]$/.test(bare)) return 'always';
	if (!bare.endsWith('.')) return 'none';
	if (bare.endsWith('..')) return 'before-common-capital';
	const word = bare
		.slice(0, -1)
		.replace(/^["'“‘([*]+/, '')
		.toLowerCase();
	const lastPart = word.split('-').pop() ?? word;
	if (TITLES.has(lastPart)) return 'never';
	if (ABBREVIATIONS.has(lastPart) || /^(?:\p{L}\.)*\p{L}$/u.test(word)) {
		return 'before-common-capital';
	}
	if (/^\d+$/.test(word)) return 'before-capital';
	return 'always';
}

function startsCapitalised(token: string): boolean {
	return /^["'“‘([*]*[\p{Lu}\d]/u.test(token);
}

function isCommonCapitalised(token: string): boolean {
	const word = token.replace(/^["'“‘([*]+/, '').replace(/[^\p{L}'’]+$/u, '');
	return /^\p{Lu}/u.test(word) && COMMON_WORDS.has(word.toLowerCase());
}

function endsSentence(token: string, next: string): boolean {
	const ending = token.endsWith('…') ? 'before-common-capital' : endingOf(token);
	if (ending === 'always') return true;
	if (ending === 'before-capital') return startsCapitalised(next);
	if (ending === 'before-common-capital') return isCommonCapitalised(next);
	return false;
}

/** Number of sentences in `text`; 0 for blank text. */
export function countSentences(text: string): number {
	const tokens = text.split(/\s+/).filter((token) => token !== '');
	let sentences = 0;
	let open = false;
	tokens.forEach((token, index) => {
		open = true;
		const next = tokens[index + 1];
		if (next === undefined) return;
		if (endsSentence(token, next)) {
			sentences++;
			open = false;
		}
	});
	return sentences + (open ? 1 : 0);
}
