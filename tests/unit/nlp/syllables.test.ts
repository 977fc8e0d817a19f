/**
 * syllapy's count against syllapy 0.7.2 itself: our word list, every whitespace-split word of the
 * shared fixture texts (by hash), and Python's csv.reader on made-up CSV texts. See
 * tests/fixtures/nltk-reference/syllapy/PROVENANCE.md.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countSyllables, csvRows, parseSyllapyCsv } from '../../../src/lib/nlp/syllables.ts';
import { pySplit } from '../../../src/lib/probe/scoring/python.ts';
import { digest, sharedTexts } from './sharedTexts.ts';

const DIR = new URL('../../fixtures/nltk-reference/syllapy/', import.meta.url);
const read = (name: string) => readFileSync(new URL(name, DIR), 'utf8');

const expected = JSON.parse(read('expected.json')) as {
	words: [string, number][];
	csv: [string, string[][]][];
};
const dict = parseSyllapyCsv(read('data.csv'));

describe('countSyllables matches syllapy.count', () => {
	it('on our own words (compounds, digits, punctuation, case, -le and -e endings)', () => {
		expect(expected.words.length).toBeGreaterThan(100);
		for (const [word, count] of expected.words) {
			expect(countSyllables(dict, word), JSON.stringify(word)).toBe(count);
		}
	});

	it('on every word of the shared fixture texts split at whitespace (hashes)', () => {
		const { texts } = JSON.parse(read('shared.json')) as { texts: [string, string][] };
		const byId = new Map(sharedTexts().map((t) => [t.id, t.text]));
		expect(texts.length).toBeGreaterThan(2000);
		const wrong = texts.filter(([id, hash]) => {
			const text = byId.get(id);
			if (text === undefined) throw new Error(`no shared text ${id}`);
			return digest(pySplit(text).map((w) => countSyllables(dict, w))) !== hash;
		});
		expect(wrong.map(([id]) => id)).toEqual([]);
	});

	it('uses the dictionary before the rules', () => {
		const made = new Map([['fire', 2]]);
		expect(countSyllables(made, 'Fire!')).toBe(2);
		expect(countSyllables(new Map(), 'Fire!')).toBe(1);
	});
});

describe('parseSyllapyCsv', () => {
	it('splits rows as csv.reader does', () => {
		for (const [text, rows] of expected.csv) {
			expect(csvRows(text), JSON.stringify(text)).toEqual(rows);
		}
	});

	it('reads word,count rows, a later row winning', () => {
		expect([...parseSyllapyCsv('cat,1\r\n"dog",1\ncat,2')]).toEqual([
			['cat', 2],
			['dog', 1]
		]);
		expect(parseSyllapyCsv('').size).toBe(0);
	});

	it('fails where syllapy fails to load, naming the row', () => {
		expect(() => parseSyllapyCsv('cat,1\n\ndog,1\n')).toThrow(/row 2 has no syllable count/);
		expect(() => parseSyllapyCsv('cat\n')).toThrow(/row 1 has no syllable count/);
		expect(() => parseSyllapyCsv('cat,one\n')).toThrow(/row 1: the count "one" is not an integer/);
		expect(() => parseSyllapyCsv('"cat,1\n')).toThrow(/ends inside a quoted field/);
	});
});
