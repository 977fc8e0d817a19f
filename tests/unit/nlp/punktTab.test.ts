/**
 * parsePunktTab against what NLTK 3.10.3's load_punkt_params made of the same small files
 * (tests/fixtures/nltk-reference/punkt/parse.json, recorded by make_reference.py): line breaks
 * as Python's splitlines, CRLF leaving "\r", byte-order marks, empty files, Python's int(), and
 * the ortho_context lines NLTK raises on, which throw here with the file and line named.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePunktTab, sentTokenize, type PunktTabFiles } from '../../../src/lib/nlp/punkt.ts';

interface ParseCase {
	name: string;
	files: PunktTabFiles;
	error?: string;
	message?: string;
	abbrevTypes?: string[];
	collocations?: string[];
	otherCollocationTuples?: string[][];
	sentStarters?: string[];
	orthoContext?: [string, number][];
}

const CASES = JSON.parse(
	readFileSync(new URL('../../fixtures/nltk-reference/punkt/parse.json', import.meta.url), 'utf8')
) as ParseCase[];

const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe('parsePunktTab reads punkt_tab files as NLTK does', () => {
	it('has cases NLTK accepted and cases it raised on', () => {
		expect(CASES.filter((c) => c.error).length).toBeGreaterThanOrEqual(5);
		expect(CASES.filter((c) => !c.error).length).toBeGreaterThanOrEqual(10);
	});

	for (const c of CASES.filter((x) => !x.error)) {
		it(`same parameters as NLTK: ${c.name}`, () => {
			const params = parsePunktTab(c.files);
			// Sorted as Python sorts (by code point): compare as sets.
			expect(sorted(params.abbrevTypes)).toEqual(sorted(c.abbrevTypes ?? []));
			expect(sorted(params.collocations)).toEqual(sorted(c.collocations ?? []));
			expect(sorted(params.sentStarters)).toEqual(sorted(c.sentStarters ?? []));
			expect([...params.orthoContext].sort(([a], [b]) => (a < b ? -1 : 1))).toEqual(
				[...(c.orthoContext ?? [])].sort(([a], [b]) => (a < b ? -1 : 1))
			);
		});
	}

	for (const c of CASES.filter((x) => x.error)) {
		it(`throws where NLTK raised ${c.error}: ${c.name}`, () => {
			expect(() => parsePunktTab(c.files)).toThrow(/^ortho_context\.tab line \d+: /);
		});
	}
});

describe('parsePunktTab faults', () => {
	const good: PunktTabFiles = {
		abbrevTypes: 'mr\ndr',
		collocations: 'b\tsmith',
		sentStarters: 'the',
		orthoContext: 'the\t46\nhowever\t18'
	};

	it('names the file and the 1-based line of a malformed ortho_context line', () => {
		expect(() => parsePunktTab({ ...good, orthoContext: 'the\t46\nhowever 18\nof\t32' })).toThrow(
			'ortho_context.tab line 2: expected "type<TAB>integer", got "however 18"'
		);
		expect(() => parsePunktTab({ ...good, orthoContext: 'the\t46\nof\t3x' })).toThrow(
			'ortho_context.tab line 2:'
		);
		expect(() => parsePunktTab({ ...good, orthoContext: '\r\nthe\t46' })).toThrow(
			'ortho_context.tab line 1:'
		);
	});

	it('counts CRLF and lone CR as one line break each, as Python does', () => {
		expect(() => parsePunktTab({ ...good, orthoContext: 'a\t1\r\nb\t2\r\nbad' })).toThrow(
			'ortho_context.tab line 3:'
		);
		expect(() => parsePunktTab({ ...good, orthoContext: 'a\t1\rb\t2\rbad' })).toThrow(
			'ortho_context.tab line 3:'
		);
	});

	it('an empty model splits only at ?, ! and unknown-word periods', () => {
		const empty = parsePunktTab({
			abbrevTypes: '',
			collocations: '',
			sentStarters: '',
			orthoContext: ''
		});
		expect(empty.orthoContext.size).toBe(0);
		// Without "mr" as an abbreviation, "Mr." ends a sentence.
		expect(sentTokenize(empty, 'Mr. Smith left. Then?')).toEqual(['Mr.', 'Smith left.', 'Then?']);
		expect(sentTokenize(parsePunktTab(good), 'Mr. Smith left. Then?')).toEqual([
			'Mr. Smith left.',
			'Then?'
		]);
	});

	it('a CRLF abbreviation list keeps "\\r" and so, as in NLTK, no longer knows "mr"', () => {
		const crlf = parsePunktTab({ ...good, abbrevTypes: 'mr\r\ndr\r\n' });
		expect(crlf.abbrevTypes.has('mr')).toBe(false);
		expect(sentTokenize(crlf, 'Mr. Smith left.')).toEqual(['Mr.', 'Smith left.']);
	});
});
