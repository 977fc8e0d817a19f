import { describe, expect, it } from 'vitest';
import { summarize, wilson } from '../../../src/lib/stats/aggregate.ts';
import {
	followupVsTemperature,
	labelDistributionChart,
	pairedDeltas
} from '../../../src/lib/stats/charts.ts';
import { chartTable } from '../../../src/lib/stats/chartTable.ts';
import { makeSyntheticRun } from '../../helpers/factories.ts';
import { rated } from '../../helpers/rate.ts';

describe('chartTable', () => {
	it('lists every drawn point of a line chart under the axis titles, band edges included', () => {
		const summaries = summarize(
			makeSyntheticRun({
				seed: 3,
				items: 20,
				samples: 1,
				temperatures: [0, 1],
				perturbations: ['none']
			})
		);
		const t = chartTable(followupVsTemperature(summaries));
		expect(t.columns).toEqual(['Series', 'Generation temperature', 'Genuine follow-ups (%)']);
		const line = t.rows.filter((r) => r[0] === 'none');
		expect(line.map((r) => r[1])).toEqual(['0', '1']);
		const t0 = summaries.find((s) => s.temperature === 0 && s.perturbation === 'none');
		if (!t0) throw new Error('no T=0 condition');
		expect(Number(line[0][2])).toBeCloseTo(rated(t0.followup).p * 100, 1);
		// The interval edges are their own series, so the table carries the band too.
		expect(t.rows.some((r) => r[0] === 'none (95% CI)')).toBe(true);
		expect(t.summary).toMatch(/^3 series \(none \(95% CI low\), none \(95% CI\), none\); 6 values/);
	});

	it('reads a horizontal bar chart by category, and floating bars as ranges', () => {
		const labels = labelDistributionChart({
			genuine_followup: 3,
			prompt_restatement: 1,
			assistant_restatement: 0,
			malformed_artifact: 0,
			meta_planning: 0,
			degenerate: 0,
			judge_error: 0,
			undecided: 0
		});
		const t = chartTable(labels);
		expect(t.columns).toEqual(['Series', 'Category', 'Share of labeled turns (%)']);
		expect(t.rows).toEqual([
			['Plausible follow-up', 'All', '75'],
			['Previous-turn restatement', 'All', '25']
		]);

		const paired = chartTable(
			pairedDeltas([{ name: 'T=1: truncate − none', diff: -0.125, lo: -0.25, hi: 0 }])
		);
		expect(paired.rows).toEqual([
			['Difference (pp)', 'T=1: truncate − none', '-12.5'],
			['Difference (95% CI)', 'T=1: truncate − none', '-25 to 0']
		]);
	});

	it('leaves out gaps and says when nothing is drawn', () => {
		const t = chartTable(pairedDeltas([{ name: 'x', diff: NaN, lo: NaN, hi: NaN }]));
		expect(t.rows).toEqual([]);
		expect(t.summary).toBe('No data drawn yet.');
		expect(wilson(0, 0).p).toBeNaN(); // the NaN a chart with nothing labelled starts from
	});
});
