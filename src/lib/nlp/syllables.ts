/**
 * syllapy 0.7.2's syllable count (syllapy/__init__.py `count`), with its word list read as
 * syllapy's data_loader reads data.csv (Python's csv.reader, excel dialect).
 *
 * Pure TypeScript: no DOM, no Node APIs.
 */
import { pyStrip } from '../probe/scoring/python.ts';

/** Python's `string.punctuation`. */
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

function stripPunctuation(s: string): string {
	let start = 0;
	let end = s.length;
	while (start < end && PUNCTUATION.has(s[start])) start++;
	while (end > start && PUNCTUATION.has(s[end - 1])) end--;
	return s.slice(start, end);
}

/**
 * The rows of a CSV text as Python's `csv.reader` (excel dialect: `,`, `"` doubled inside quotes,
 * lines ended by \r, \n or \r\n, newlines allowed inside quotes) returns them. A blank line is
 * an empty row, as in Python.
 */
export function csvRows(text: string): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let field = '';
	// start: at a field's start; plain: in an unquoted field; quoted: inside quotes;
	// quoteInQuoted: just read a quote inside quotes.
	let state: 'start' | 'plain' | 'quoted' | 'quoteInQuoted' = 'start';
	let rowStarted = false;
	const endRow = () => {
		if (rowStarted) {
			row.push(field);
			rows.push(row);
		} else {
			rows.push([]);
		}
		row = [];
		field = '';
		rowStarted = false;
		state = 'start';
	};
	for (let k = 0; k < text.length; k++) {
		const c = text[k];
		if (state === 'quoted') {
			if (c === '"') state = 'quoteInQuoted';
			else field += c;
			continue;
		}
		if (state === 'quoteInQuoted' && c === '"') {
			field += '"';
			state = 'quoted';
			continue;
		}
		if (c === '\r' || c === '\n') {
			endRow();
			if (c === '\r' && text[k + 1] === '\n') k++;
			continue;
		}
		rowStarted = true;
		if (c === ',') {
			row.push(field);
			field = '';
			state = 'start';
		} else if (c === '"' && state === 'start') {
			state = 'quoted';
		} else {
			// Python (strict off) keeps a stray quote in an unquoted field, and the text after a
			// closing quote, as they are.
			field += c;
			state = 'plain';
		}
	}
	if (state === 'quoted') throw new Error('The CSV ends inside a quoted field.');
	if (rowStarted || state !== 'start') endRow();
	return rows;
}

/** Python's `int(s)` for the decimal strings data.csv holds. */
function pyInt(s: string, line: number): number {
	const t = pyStrip(s).replace(/(?<=\d)_(?=\d)/g, '');
	if (!/^[+-]?\d+$/.test(t)) {
		throw new Error(
			`syllapy data.csv row ${line}: the count ${JSON.stringify(s)} is not an integer.`
		);
	}
	return Number(t);
}

/**
 * syllapy's `load_dict`: `words[row[0]] = int(row[1])` for each row (a later row wins).
 * @throws Error naming the row where Python would raise (a blank row, a missing or bad count).
 */
export function parseSyllapyCsv(text: string): Map<string, number> {
	const words = new Map<string, number>();
	csvRows(text).forEach((row, k) => {
		if (row.length < 2) {
			throw new Error(`syllapy data.csv row ${k + 1} has no syllable count.`);
		}
		words.set(row[0], pyInt(row[1], k + 1));
	});
	return words;
}

const VOWELS = 'aeiouy';

/** syllapy's `_syllables`: the vowel-group rules for a word not in the list. */
function ruleCount(word: string): number {
	const w = Array.from(word);
	let n = 0;
	if (VOWELS.includes(w[0])) n++;
	for (let k = 1; k < w.length; k++) {
		if (VOWELS.includes(w[k]) && !VOWELS.includes(w[k - 1])) n++;
	}
	if (word.endsWith('e')) n--;
	if (word.endsWith('le') && w.length > 2 && !VOWELS.includes(w[w.length - 3])) n++;
	if (n === 0) n++;
	return n;
}

/** `syllapy.count(word)`. */
export function countSyllables(dict: ReadonlyMap<string, number>, word: string): number {
	const w = stripPunctuation(pyStrip(word).toLowerCase());
	if (w === '') return 0;
	if (/\p{Nd}/u.test(w)) return 0;
	const known = dict.get(w);
	if (known !== undefined) return known;
	// Compound words like self-care (Python's `.` stops at \n only).
	const m = /^([^-]+)-([^\n]+)/u.exec(w);
	if (m) {
		const a = countSyllables(dict, m[1]);
		const b = countSyllables(dict, m[2]);
		return a === 0 || b === 0 ? 0 : a + b;
	}
	return ruleCount(w);
}
