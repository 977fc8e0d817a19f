/**
 * A labels file carries each label's verdict, and reads a file from before verdicts were asked:
 * its labels have none (unknown), never one guessed from the category. A verdict that is neither
 * value is refused, named by line.
 */
import { describe, expect, it } from 'vitest';
import { ExchangeError } from '../../../src/lib/probe/exchange.ts';
import { labelsFromFile, labelsToFile } from '../../../src/lib/probe/labelsFile.ts';
import type { Annotation } from '../../../src/lib/probe/exchange.ts';

const NOW = () => Date.parse('2026-11-28T01:00:00Z');
const note = (key: string, extra: Partial<Annotation> = {}): Annotation => ({
	run_id: 'run-a',
	key,
	annotator: 'ana',
	label: 'genuine_followup',
	created_at: '2026-11-27T09:30:00.000Z',
	...extra
});

describe('verdicts in a labels file', () => {
	it('round-trips the verdict beside the category, and no verdict as none', () => {
		const annotations = [
			note('k0', { verdict: 'genuine' }),
			note('k1', { verdict: 'not_genuine' }),
			note('k2')
		];
		const back = labelsFromFile(labelsToFile({ run_id: 'run-a', annotations }), NOW);
		expect(back.annotations.map((a) => [a.key, a.label, a.verdict])).toEqual([
			['k0', 'genuine_followup', 'genuine'],
			['k1', 'genuine_followup', 'not_genuine'],
			['k2', 'genuine_followup', undefined]
		]);
		expect('verdict' in back.annotations[2]).toBe(false);
	});

	it('refuses a verdict that is neither genuine nor not_genuine', () => {
		const text = labelsToFile({ run_id: 'run-a', annotations: [note('k0')] }).replace(
			'"label":"genuine_followup"',
			'"label":"genuine_followup","verdict":"undecided"'
		);
		expect(() => labelsFromFile(text, NOW)).toThrow(ExchangeError);
		try {
			labelsFromFile(text, NOW);
		} catch (e) {
			expect((e as ExchangeError).problems[0]).toMatch(/^line 2: .*verdict/);
		}
	});
});
