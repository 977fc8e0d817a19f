import { describe, expect, it } from 'vitest';
import { emptyLabelCounts } from '../../../src/lib/stats/aggregate.ts';
import { labelShares, study, studyNames } from '../../../src/lib/results/study.ts';
import { resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { makeSyntheticRun } from '../../helpers/factories.ts';

const run = (id: string, model: string, dataset = 'gsm8k') => ({
	run_id: id,
	generator: { id: model },
	dataset
});

describe('study', () => {
	it('names each run by its model, adding the dataset, then the run id, only on a clash', () => {
		expect(
			studyNames([
				run('r1', 'a'),
				run('r2', 'b', 'gsm8k'),
				run('r3', 'b', 'ifeval'),
				run('r4', 'c'),
				run('r5', 'c')
			])
		).toEqual(['a', 'b · gsm8k', 'b · ifeval', 'c · gsm8k · r4', 'c · gsm8k · r5']);
	});

	it('gives label shares of the labelled turns, NaN when there are none', () => {
		const labels = { ...emptyLabelCounts(), genuine_followup: 1, degenerate: 3 };
		expect(labelShares(labels)).toMatchObject({ genuine_followup: 0.25, degenerate: 0.75 });
		expect(Number.isNaN(labelShares(emptyLabelCounts()).degenerate)).toBe(true);
	});

	it('gives each model the numbers of its own results table, and effects for perturbed rows', () => {
		const records = (seed: number) =>
			makeSyntheticRun({
				seed,
				items: 12,
				samples: 2,
				temperatures: [0, 1],
				perturbations: ['none', 'append']
			});
		const runs = [1, 2].map((seed) => ({
			...run(`r${seed}`, `m${seed}`),
			seed,
			records: records(seed),
			answers: []
		}));
		const s = study(runs);
		expect(s.models.map((m) => m.name)).toEqual(['m1', 'm2']);
		for (const [i, r] of runs.entries()) {
			const own = resultsTable(r.records, []);
			expect(s.models[i].overall).toEqual(own.overall);
			const rows = s.rows.filter((x) => x.run_id === r.run_id);
			expect(rows.map((x) => x.followup)).toEqual(own.conditions.map((c) => c.followup));
		}
		const append = s.rows.filter((x) => x.perturbation === 'append');
		expect(append).toHaveLength(4);
		expect(append.every((x) => x.effect !== null && x.effect.n_pairs > 0)).toBe(true);
		expect(s.rows.filter((x) => x.perturbation === 'none').every((x) => x.effect === null)).toBe(
			true
		);
	});
});
