/**
 * This app's reference measure: unperturbed records only (the human answered the answer as it
 * was), ties apart from wins, records without a verdict beside the rates, and the caveat that it
 * is not the paper's carried with the numbers.
 */
import { describe, expect, it } from 'vitest';
import {
	REFERENCE_MEASURE_NOTE,
	referenceShare,
	type GroundedRecord
} from '../../../src/lib/results/referenceShare.ts';
import { wilson } from '../../../src/lib/stats/aggregate.ts';

const rec = (
	reference_grounding: GroundedRecord['reference_grounding'],
	perturbation: GroundedRecord['perturbation'] = 'none',
	temperature = 1
): GroundedRecord => ({ temperature, perturbation, reference_grounding });

describe('referenceShare', () => {
	it('counts ties apart from wins: 1 more grounded, 2 ties, 1 human of 4 compared', () => {
		const share = referenceShare([
			rec('generated'),
			rec('tie'),
			rec('tie'),
			rec('reference'),
			rec(null)
		]);
		expect(share?.overall).toEqual({
			records: 5,
			generated: 1,
			reference: 1,
			tie: 2,
			uncompared: 1,
			more_grounded: wilson(1, 4),
			as_grounded: wilson(2, 4)
		});
		// The old share counted a tie as a win: 3 of 4. The wins alone are 1 of 4.
		expect(share?.overall.more_grounded.p).toBe(0.25);
	});

	it('leaves perturbed records out of every count and says how many', () => {
		const share = referenceShare([
			rec('reference', 'none', 0),
			rec('generated', 'none', 1),
			rec('generated', 'truncate', 1),
			rec('generated', 'append', 1),
			rec(null, 'append', 0)
		]);
		expect(share?.overall).toMatchObject({ records: 2, generated: 1, reference: 1, tie: 0 });
		expect(share?.overall.more_grounded).toEqual(wilson(1, 2));
		expect(share?.perturbed_left_out).toBe(3);
		expect(share?.conditions.map((c) => [c.temperature, c.perturbation, c.records])).toEqual([
			[0, 'none', 1],
			[1, 'none', 1]
		]);
	});

	it('is absent without references, and empty (not a rate) when only perturbed records have one', () => {
		expect(referenceShare([{ temperature: 0, perturbation: 'none' }])).toBeUndefined();
		const share = referenceShare([rec('generated', 'truncate')]);
		expect(share?.overall.records).toBe(0);
		expect(share?.overall.more_grounded.n).toBe(0);
		expect(Number.isNaN(share?.overall.more_grounded.p)).toBe(true);
		expect(share?.perturbed_left_out).toBe(1);
	});

	it("says it is this app's measure, not the paper's", () => {
		expect(referenceShare([rec('tie')])?.measure).toBe(REFERENCE_MEASURE_NOTE);
		expect(REFERENCE_MEASURE_NOTE).toMatch(/^This app's measure, not the paper's/);
	});
});
