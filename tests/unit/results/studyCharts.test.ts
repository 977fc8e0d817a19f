import { describe, expect, it } from 'vitest';
import { study, type StudyRun } from '../../../src/lib/results/study.ts';
import { paperPointsByModel, PAPER_FIGURES } from '../../../src/lib/results/paperFigures.ts';
import { chartTable } from '../../../src/lib/stats/chartTable.ts';
import { CI_LOW_SUFFIX, CI_SUFFIX, PAPER_PREFIX } from '../../../src/lib/stats/chartKit.ts';
import {
	accuracyBesideFollowup,
	effectsByModel,
	followupByModel,
	labelSharesByModel,
	modelPoints,
	studySentence
} from '../../../src/lib/results/studyCharts.ts';
import { makeSyntheticRun } from '../../helpers/factories.ts';

function runOf(id: string, model: string, seed: number, items = 12): StudyRun {
	return {
		run_id: id,
		generator: { id: model, template_repo: `Qwen/${model}` },
		dataset: 'gsm8k',
		seed,
		records: makeSyntheticRun({
			seed,
			items,
			samples: 2,
			temperatures: [0, 0.7, 1],
			perturbations: ['none', 'truncate']
		}),
		answers: []
	};
}

const RUNS = [runOf('a', 'Qwen3.5-0.8B', 1), runOf('b', 'Qwen3.5-27B', 2), runOf('c', 'mine', 3)];
const S = study(RUNS);

describe('study charts', () => {
	it('draw one line with its band per model, each model’s paper points on its line only', () => {
		const paper = paperPointsByModel(S.models, PAPER_FIGURES.points);
		expect([...paper.keys()]).toEqual(['Qwen3.5-0.8B', 'Qwen3.5-27B']);
		const config = followupByModel(S, 'none', paper);
		const labels = config.data.datasets.map((d) => d.label);
		for (const m of S.models) {
			expect(labels).toContain(m.name);
			expect(labels).toContain(m.name + CI_SUFFIX);
			expect(labels).toContain(m.name + CI_LOW_SUFFIX);
		}
		const paperSets = config.data.datasets.filter((d) => d.label?.startsWith(PAPER_PREFIX));
		expect(paperSets.map((d) => d.label)).toEqual([
			'Paper: Qwen3.5-0.8B · GSM8K · none',
			'Paper: Qwen3.5-27B · GSM8K · none'
		]);
		// A paper point takes its own model's color, never another's.
		const line = (name: string) => config.data.datasets.find((d) => d.label === name);
		expect(paperSets[1].borderColor).toBe(line('Qwen3.5-27B')?.borderColor);
		expect(paperSets[1].borderColor).not.toBe(line('Qwen3.5-0.8B')?.borderColor);
		// Its data table holds every model's points.
		const table = chartTable(config);
		expect(table.summary).toContain('Qwen3.5-27B');
		expect(table.rows.filter((r) => r[0] === 'mine')).toHaveLength(3);
	});

	it('put accuracy and follow-up side by side per model, with intervals', () => {
		const points = modelPoints(S);
		expect(points.map((p) => p.at)).toEqual(['T=0', 'T=0', 'T=0']);
		const config = accuracyBesideFollowup(points);
		expect(config.data.labels).toEqual(S.models.map((m) => `${m.name} (T=0)`));
		const [acc, accCi] = config.data.datasets;
		expect(acc.data).toHaveLength(3);
		expect(accCi.label).toBe(`Accuracy (%)${CI_SUFFIX}`);
		expect(accCi.stack).toBe(acc.stack);
		const row = S.models[0].overall.accuracy;
		expect(accCi.data[0]).toEqual([row.lo * 100, row.hi * 100]);
	});

	it('give each model’s perturbation effects and label shares', () => {
		const effects = effectsByModel(S);
		expect(effects.data.labels).toHaveLength(9);
		expect(effects.data.labels?.[0]).toBe('Qwen3.5-0.8B · T=0 truncate − none');
		expect(labelSharesByModel(S).data.labels).toEqual(S.models.map((m) => m.name));
	});

	it('say what the data show and what overlapping intervals cannot tell', () => {
		const sentence = studySentence(modelPoints(S));
		expect(sentence).toMatch(
			/^Across 3 models, accuracy runs (from .+|.+ for every model) and genuine follow-ups/
		);
		expect(sentence).toMatch(/pairs of models have overlapping follow-up intervals|no two/);
		expect(studySentence(modelPoints(study(RUNS.slice(0, 1))))).toMatch(/Fewer than two/);
	});
});
