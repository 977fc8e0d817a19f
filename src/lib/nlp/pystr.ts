/**
 * Python's whitespace handling for `str.strip()` and `str.split()`, which the ported NLTK and
 * syllapy code and IFBench's checkers rely on. Python's whitespace (`str.isspace()`) is not JS's
 * `\s`: it has \x1c–\x1f and \x85, and lacks U+FEFF.
 *
 * Pure TypeScript: no DOM, no Node APIs.
 */

const PY_SPACE =
	'\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu');
const PY_SPACE_RUN = new RegExp(`[${PY_SPACE}]+`, 'u');

/** Python's `s.strip()`. */
export function pyStrip(s: string): string {
	return s.replace(PY_STRIP, '');
}

/** Python's `s.split()` (no separator): the runs of non-whitespace. */
export function pySplit(s: string): string[] {
	return s.split(PY_SPACE_RUN).filter((part) => part !== '');
}
