import { describe, expect, it } from 'vitest';
import { pairedDifference } from '../../../src/lib/stats/clustered.ts';
import { summarize, tally as overall, wilson } from '../../../src/lib/stats/aggregate.ts';
import { perturbationDeltas, runName, runPoint } from '../../../src/lib/results/resultsData.ts';
import { makeRecord, makeSyntheticRun } from '../../helpers/factories.ts';
import { rated } from '../../helpers/rate.ts';

describe('overall', () => {
	it('counts accuracy once per item and keeps judge errors in the follow-up denominator', () => {
		const records = [
			makeRecord({ item_id: 'a', sample: 0, correct: true, label: 'genuine_followup' }),
			makeRecord({ item_id: 'a', sample: 1, correct: true, label: 'judge_error' }),
			makeRecord({ item_id: 'b', sample: 0, correct: false, label: null }),
			makeRecord({ item_id: 'c', sample: 0, correct: null, label: 'degenerate' })
		];
		const o = overall(records);
		expect(o.accuracy).toEqual(wilson(1, 2));
		expect(o.followup).toEqual(wilson(1, 3));
		expect(o).toMatchObject({ n: 4, judged: 3, pending: 1, judge_errors: 1 });
	});

	it('agrees with summarize when the run has a single condition', () => {
		const records = makeSyntheticRun({
			seed: 3,
			items: 40,
			samples: 3,
			temperatures: [0.7],
			perturbations: ['none'],
			pending: 0.1
		});
		const [only] = summarize(records);
		const o = overall(records);
		expect(o.accuracy).toEqual(only.accuracy);
		expect(o.followup).toEqual(only.followup);
		expect(o.pending).toBe(only.pending);
		expect(o.judge_errors).toBe(only.judge_errors);
	});

	it('gives NaN rates, not zeros, for an empty run', () => {
		const o = overall([]);
		expect(o.accuracy.p).toBeNaN();
		expect(rated(o.followup).p).toBeNaN();
	});
});

describe('runPoint', () => {
	const records = makeSyntheticRun({
		seed: 5,
		items: 30,
		samples: 2,
		temperatures: [0, 1],
		perturbations: ['none', 'truncate'],
		followup: (t, p) => (p === 'truncate' ? 0.9 : t === 0 ? 0.05 : 0.5)
	});

	it('takes follow-up at the lowest temperature without perturbation', () => {
		const point = runPoint('m · gsm8k', records);
		const base = summarize(records).find((s) => s.temperature === 0 && s.perturbation === 'none');
		expect(point.name).toBe('m · gsm8k (T=0)');
		expect(point.followup).toEqual(base?.followup);
		expect(point.accuracy).toEqual(overall(records).accuracy);
	});

	it('falls back to every record when the run has no unperturbed condition', () => {
		const truncated = records.filter((r) => r.perturbation === 'truncate');
		const point = runPoint('m', truncated);
		expect(point.name).toBe('m (all conditions)');
		expect(point.followup).toEqual(overall(truncated).followup);
	});
});

describe('perturbationDeltas', () => {
	it('pairs each perturbation with none at the same temperature, in condition order', () => {
		const records = makeSyntheticRun({
			seed: 9,
			items: 25,
			samples: 2,
			temperatures: [1, 0],
			perturbations: ['append', 'none', 'truncate']
		});
		const deltas = perturbationDeltas(records, 42);
		expect(deltas.map((d) => d.name)).toEqual([
			'T=0: truncate − none',
			'T=0: append − none',
			'T=1: truncate − none',
			'T=1: append − none'
		]);
		const expected = pairedDifference(
			records,
			{ temperature: 1, perturbation: 'none' },
			{ temperature: 1, perturbation: 'truncate' },
			{ seed: 42 }
		);
		expect(deltas[2]).toEqual({
			name: 'T=1: truncate − none',
			...expected,
			p_adjusted: expect.any(Number)
		});
		// Holm over the run's four comparisons: never below the raw p-value.
		for (const d of deltas) expect(d.p_adjusted).toBeGreaterThanOrEqual(d.p_value);
	});

	it('skips temperatures that have no unperturbed records', () => {
		const records = [
			makeRecord({ temperature: 0, perturbation: 'truncate' }),
			makeRecord({ temperature: 1, perturbation: 'truncate' }),
			makeRecord({ temperature: 1, perturbation: 'none' })
		];
		expect(perturbationDeltas(records, 1).map((d) => d.name)).toEqual(['T=1: truncate − none']);
	});
});

describe('runName', () => {
	it('names a run by model and dataset', () => {
		const config = { generator: { id: 'Qwen3-0.6B' }, dataset: 'gsm8k' };
		expect(runName({ config } as Parameters<typeof runName>[0])).toBe('Qwen3-0.6B · gsm8k');
	});
});
