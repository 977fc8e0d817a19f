/**
 * parseStopwords as NLTK's WordListCorpusReader.words() reads a stopwords file: Python's
 * splitlines(), blank (whitespace-only) lines dropped, the other lines kept untrimmed. Made-up
 * files only; the real english list was compared by hand (see the branch's note).
 */
import { describe, expect, it } from 'vitest';
import { parseStopwords } from '../../../src/lib/nlp/stopwords.ts';

describe('parseStopwords', () => {
	it('takes one word per line, whatever the line ending', () => {
		expect([...parseStopwords('a\nabout\r\nabove\rafter\n')]).toEqual([
			'a',
			'about',
			'above',
			'after'
		]);
	});

	it('drops blank and whitespace-only lines, and has no word for a final line break', () => {
		expect([...parseStopwords('\n\nthe\n \t\n\u3000\nof\n\n')]).toEqual(['the', 'of']);
		expect(parseStopwords('').size).toBe(0);
	});

	it('keeps the spaces of a kept line, as NLTK does', () => {
		expect([...parseStopwords(' the \nof\t\n')]).toEqual([' the ', 'of\t']);
	});

	it("splits at Python's other line boundaries too", () => {
		expect([...parseStopwords('a\x0bb\x0cc\x1cd\x85e\u2028f\u2029g')]).toEqual([
			'a',
			'b',
			'c',
			'd',
			'e',
			'f',
			'g'
		]);
	});

	it("keeps words with apostrophes (upstream's newer list has 19)", () => {
		expect(parseStopwords("don't\nshouldn't\n").has("don't")).toBe(true);
	});
});
