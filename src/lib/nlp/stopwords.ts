/**
 * NLTK's English stop words: `stopwords.words('english')` as WordListCorpusReader reads the file
 * (nltk/corpus/reader/wordlist.py with `line_tokenize`, blank lines discarded).
 *
 * Pure TypeScript: no DOM, no Node APIs.
 */
import { pyStrip } from '../probe/scoring/python.ts';

/** Python's `str.splitlines()` line boundaries. */
// eslint-disable-next-line no-control-regex -- splitlines() breaks at the FS, GS and RS controls too
const PY_LINE_BREAK = new RegExp('\\r\\n|[\\n\\r\\v\\f\\x1c\\x1d\\x1e\\x85\\u2028\\u2029]', 'u');

/**
 * The words of a stopwords file: Python's `splitlines()`, minus the lines that are blank (only
 * whitespace). Kept lines are not trimmed: NLTK does not trim them either.
 */
export function parseStopwords(text: string): Set<string> {
	const lines = text.split(PY_LINE_BREAK);
	// splitlines() has no empty last line for a text ending in a line break; blank lines go anyway.
	return new Set(lines.filter((line) => pyStrip(line) !== ''));
}
