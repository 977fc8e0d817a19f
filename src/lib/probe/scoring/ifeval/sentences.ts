/**
 * Sentence counting for length_constraints:number_sentences.
 *
 * The reference uses nltk's Punkt model trained on English, which we cannot ship. This follows
 * the same decisions on the cases that matter for chat replies; it is an approximation:
 * - "?" and "!" always end a sentence; "." ends one when whitespace follows.
 * - A newline alone never ends a sentence (Punkt ignores layout), so an unpunctuated list is
 *   one sentence.
 * - Titles before names (Mr., Dr., St., …) never end a sentence; other known abbreviations
 *   (etc., e.g., vs., …) and ellipses end one only before a capitalised word, which is how Punkt's
 *   orthographic heuristic usually decides.
 * - A single-letter initial or a number ("J.", "1.") ends a sentence only before a capitalised
 *   word, so a numbered list "1. Apples" counts "1." as a sentence, as Punkt does.
 * Where Punkt's learned statistics would decide differently we may be off by one.
 */

const TITLES = new Set([
	'mr',
	'mrs',
	'ms',
	'dr',
	'prof',
	'st',
	'jr',
	'sr',
	'messrs',
	'gen',
	'rep',
	'sen',
	'gov',
	'lt',
	'col',
	'capt',
	'sgt',
	'rev'
]);
const ABBREVIATIONS = new Set([
	'etc',
	'e.g',
	'i.e',
	'vs',
	'inc',
	'ltd',
	'co',
	'corp',
	'no',
	'fig',
	'approx',
	'a.m',
	'p.m',
	'u.s',
	'u.k',
	'jan',
	'feb',
	'mar',
	'apr',
	'jun',
	'jul',
	'aug',
	'sep',
	'sept',
	'oct',
	'nov',
	'dec',
	'mt',
	'ft',
	'vol',
	'est',
	'dept'
]);

/** Closing quotes and brackets Punkt lets trail a sentence's final punctuation. */
const TRAILING_CLOSERS = /["'”’)\]}*]+$/;

type Ending = 'always' | 'before-capital' | 'never' | 'none';

function endingOf(token: string): Ending {
	const bare = token.replace(TRAILING_CLOSERS, '');
	if (/[?!]$/.test(bare)) return 'always';
	if (!bare.endsWith('.')) return 'none';
	if (bare.endsWith('..') || bare.endsWith('…')) return 'before-capital';
	const word = bare
		.slice(0, -1)
		.replace(/^["'“‘([*]+/, '')
		.toLowerCase();
	const lastPart = word.split('-').pop() ?? word;
	if (TITLES.has(lastPart)) return 'never';
	if (ABBREVIATIONS.has(lastPart) || /^(?:\p{L}\.)+\p{L}$/u.test(word)) return 'before-capital';
	if (/^\p{L}$/u.test(word) || /^\d+$/.test(word)) return 'before-capital';
	return 'always';
}

function startsCapitalised(token: string): boolean {
	return /^["'“‘([*]*[\p{Lu}\d]/u.test(token);
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
		const ending = token.endsWith('…') ? 'before-capital' : endingOf(token);
		if (ending === 'always' || (ending === 'before-capital' && startsCapitalised(next))) {
			sentences++;
			open = false;
		}
	});
	return sentences + (open ? 1 : 0);
}
