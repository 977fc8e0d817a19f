import { describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../src/lib/probe/exchange.ts';
import { bundleToRunFile, runFileToBundle } from '../../../src/lib/probe/runFile.ts';
import { isStudyFile, parseStudyFile, studyToFile } from '../../../src/lib/probe/studyFile.ts';
import { makeBundle } from '../../helpers/factories.ts';

describe('study files', () => {
	it('hold several whole runs in one file and give them back in order', () => {
		const bundles = ['a', 'b', 'c'].map((id) => makeBundle(4, id));
		const text = studyToFile(bundles.map(bundleToRunFile));
		expect(isStudyFile(text)).toBe(true);
		const parsed = parseStudyFile(text);
		if (parsed.kind !== 'inline') throw new Error('expected inline runs');
		expect(parsed.runs.map((r) => runFileToBundle(r).manifest.run_id)).toEqual(['a', 'b', 'c']);
		expect(runFileToBundle(parsed.runs[1]).records).toEqual(bundles[1].records);
	});

	it('read a list of run file addresses, pretty-printed or not', () => {
		const list = {
			format: 'user-turn-probe-study',
			version: 1,
			runs: ['a.run.jsonl', 'x/b.run.jsonl']
		};
		for (const text of [JSON.stringify(list), JSON.stringify(list, null, 2)]) {
			expect(isStudyFile(text)).toBe(true);
			expect(parseStudyFile(text)).toEqual({ kind: 'links', links: list.runs });
		}
	});

	it('refuse a wrong version, a wrong count and an empty list, saying what is wrong', () => {
		const run = bundleToRunFile(makeBundle(2, 'a'));
		const cases: [string, RegExp][] = [
			['{"format":"user-turn-probe-study","version":2,"runs":1}\n' + run, /version 2/],
			[
				'{"format":"user-turn-probe-study","version":1,"runs":2}\n' + run,
				/says 2 runs follow; 1 run file found/
			],
			['{"format":"user-turn-probe-study","version":1,"runs":[]}', /list of run file addresses/]
		];
		for (const [text, message] of cases) {
			expect(() => parseStudyFile(text)).toThrow(ExchangeError);
			expect(() => parseStudyFile(text)).toThrow(message);
		}
		expect(isStudyFile(run)).toBe(false);
	});
});
