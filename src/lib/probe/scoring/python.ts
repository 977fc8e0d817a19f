/**
 * Python's string semantics that the reference checkers (IFEval, IFBench) and the ported NLTK and
 * syllapy code rely on: whitespace as `str.isspace()` knows it (JavaScript's `\s` lacks \x1c–\x1f
 * and \x85, and has U+FEFF, which Python's lacks), `strip`/`split`, `string.punctuation`, and
 * lengths and first characters by code point.
 */

const PY_SPACE =
	'\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu');
const PY_LSTRIP = new RegExp(`^[${PY_SPACE}]+`, 'u');
const PY_SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, 'u');

/** Python's `string.punctuation`. */
export const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const PUNCTUATION_SET = new Set(PUNCTUATION);
/** `string.punctuation + ' '`, which IFBench strips words of. */
export const STRIP_SET = new Set(PUNCTUATION + ' ');

/** Python's `s.strip()`. */
export function pyStrip(s: string): string {
	return s.replace(PY_STRIP, '');
}

/** Python's `s.lstrip()`. */
export function pyLstrip(s: string): string {
	return s.replace(PY_LSTRIP, '');
}

/** Whether `s` has a character Python's `str.isspace()` calls whitespace. */
export function hasPyWhitespace(s: string): boolean {
	return PY_SPACE_RUN.test(s);
}

/** Python's `s.split()` (no separator): the runs of non-whitespace. */
export function pySplit(s: string): string[] {
	return s.split(PY_SPACE_RUN).filter((part) => part !== '');
}

/** Python's `s.strip(chars)`, `s.lstrip(chars)` (`end` false) or `s.rstrip(chars)` (`start` false). */
export function stripChars(text: string, chars: Set<string>, start = true, end = true): string {
	const cps = Array.from(text);
	let from = 0;
	let to = cps.length;
	while (start && from < to && chars.has(cps[from])) from++;
	while (end && to > from && chars.has(cps[to - 1])) to--;
	return cps.slice(from, to).join('');
}

/** Python's `s.translate(str.maketrans('', '', string.punctuation))`. */
export function removePunct(text: string): string {
	return Array.from(text)
		.filter((c) => !PUNCTUATION_SET.has(c))
		.join('');
}

/** Length in code points, as Python's `len`. */
export const cpLength = (s: string) => Array.from(s).length;
/** The first code point, as Python's `s[0]` ('' for an empty string). */
export const firstCp = (s: string) => Array.from(s)[0] ?? '';
