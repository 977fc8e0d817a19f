/**
 * A study's charts (results/study.ts → Chart.js configs, types only), as the paper draws several
 * models: follow-up vs temperature with one line and band per model (Figures 1 and 4), accuracy
 * beside follow-up per model (Figure 3), paired perturbation effects and label shares per model.
 * Each model keeps one color across every chart; a paper point is drawn only on its own model's
 * line, in that color.
 */
import type { ChartConfiguration, Point } from 'chart.js';
import type { Perturbation } from '../probe/types.ts';
import type { Study, StudyModel, StudyRow } from './study.ts';
import { labelDistributionChart, pairedDeltas, type Delta } from '../stats/barCharts.ts';
import {
	CI_SUFFIX,
	everyCategoryTick,
	fmt,
	formatRate,
	isCiDataset,
	PAPER_PREFIX,
	pct,
	type PaperPoint
} from '../stats/chartKit.ts';
import { bandedLine, followupLineChart, paperSeries } from '../stats/charts.ts';
import type { Rate } from '../stats/interval.ts';
import { drawnRate } from '../stats/aggregate.ts';
import { PALETTE, seriesColor, withAlpha } from '../stats/palette.ts';

/** A model's rows at one perturbation with a follow-up rate, by temperature. */
function modelRows(study: Study, model: StudyModel, perturbation: Perturbation): StudyRow[] {
	return study.rows
		.filter(
			(r) =>
				r.model === model.name &&
				r.perturbation === perturbation &&
				!Number.isNaN(drawnRate(r.followup).p)
		)
		.sort((a, b) => a.temperature - b.temperature);
}

/**
 * Genuine follow-up % against temperature at one perturbation, one line with its 95% band per
 * model; `paper` holds each model's published points (by model name), drawn on its line only.
 */
export function followupByModel(
	study: Study,
	perturbation: Perturbation,
	paper: ReadonlyMap<string, readonly PaperPoint[]> = new Map()
): ChartConfiguration<'line', Point[]> {
	const datasets: ChartConfiguration<'line', Point[]>['data']['datasets'] = [];
	const details = new Map<number, string[]>();
	study.models.forEach((model, i) => {
		const color = seriesColor(i);
		bandedLine(
			datasets,
			details,
			model.name,
			color,
			modelRows(study, model, perturbation).map((r) => ({
				x: r.temperature,
				rate: drawnRate(r.followup),
				text: `${model.name}, T=${r.temperature}: ${formatRate(drawnRate(r.followup))}`
			}))
		);
		const points = (paper.get(model.name) ?? [])
			.filter((p) => p.condition === perturbation)
			.sort((a, b) => a.temperature - b.temperature);
		if (points.length === 0) return;
		const name = `${PAPER_PREFIX}${points[0].model} · ${points[0].benchmark} · ${perturbation}`;
		paperSeries(datasets, details, name, color, points);
	});
	return followupLineChart(datasets, details);
}

/** Figure 3's pair for one model: accuracy over the run, follow-up where runPoint takes it. */
export interface ModelPoint {
	name: string;
	/** "T=0" (the lowest unperturbed temperature), or "all conditions" without 'none'. */
	at: string;
	accuracy: Rate;
	followup: Rate;
}

/**
 * Accuracy is the run's (answers do not depend on the condition); follow-up is at the lowest
 * unperturbed temperature, the paper's deterministic setting, as the results view's runPoint.
 */
export function modelPoints(study: Study): ModelPoint[] {
	return study.models.map((m) => {
		const base = study.rows
			.filter((r) => r.model === m.name && r.perturbation === 'none')
			.sort((a, b) => a.temperature - b.temperature)[0];
		return {
			name: m.name,
			at: base ? `T=${base.temperature}` : 'all conditions',
			accuracy: m.overall.accuracy,
			followup: drawnRate(base ? base.followup : m.overall.followup)
		};
	});
}

/**
 * Accuracy and genuine follow-ups side by side per model (the paper's Figure 3): two bars per
 * model, each with a hairline 95% interval on top. Bars and whiskers of a measure share a stack
 * (so a whisker stands on its own bar); the value axis is not stacked, so they overlap.
 */
export function accuracyBesideFollowup(
	points: readonly ModelPoint[]
): ChartConfiguration<'bar', (number | [number, number] | null)[], string> {
	const value = (r: Rate) => (Number.isNaN(r.p) ? null : pct(r.p));
	const whisker = (r: Rate): [number, number] | null =>
		Number.isNaN(r.p) ? null : [pct(r.lo), pct(r.hi)];
	const measures = [
		{ name: 'Accuracy (%)', color: PALETTE.skyBlue, rate: (p: ModelPoint) => p.accuracy },
		{
			name: 'Genuine follow-ups (%)',
			color: PALETTE.bluishGreen,
			rate: (p: ModelPoint) => p.followup
		}
	];
	return {
		type: 'bar',
		data: {
			labels: points.map((p) => `${p.name} (${p.at})`),
			datasets: measures.flatMap((m) => [
				{
					label: m.name,
					stack: m.name,
					data: points.map((p) => value(m.rate(p))),
					backgroundColor: withAlpha(m.color, 0.75),
					order: 1
				},
				{
					label: `${m.name}${CI_SUFFIX}`,
					stack: m.name,
					data: points.map((p) => whisker(m.rate(p))),
					backgroundColor: PALETTE.black,
					barPercentage: 0.08,
					maxBarThickness: 3,
					clip: false,
					order: 0
				}
			])
		},
		options: {
			scales: {
				// Every model named under its bars, never skipped when they crowd.
				x: { ticks: everyCategoryTick() },
				y: { stacked: false, min: 0, max: 100, title: { display: true, text: 'Percent' } }
			},
			plugins: {
				legend: { labels: { filter: (item) => !isCiDataset(item.text) } },
				tooltip: {
					filter: (item) => !isCiDataset(item.dataset.label),
					callbacks: {
						label: (item) => {
							const m = measures[Math.floor(item.datasetIndex / 2)];
							return `${m.name}: ${formatRate(m.rate(points[item.dataIndex]))}`;
						}
					}
				}
			}
		}
	};
}

/** Every perturbed row's paired effect against 'none', named by model and condition. */
export function studyEffects(study: Study): (Delta & { n_pairs: number; n_items: number })[] {
	return study.rows.flatMap((r) =>
		r.effect === null
			? []
			: [{ ...r.effect, name: `${r.model} · T=${r.temperature} ${r.perturbation} − none` }]
	);
}

export function effectsByModel(study: Study) {
	return pairedDeltas(studyEffects(study));
}

/** One bar per model: the label mix of its counted turns over every condition. */
export function labelSharesByModel(study: Study) {
	return labelDistributionChart(
		study.models.map((m) => ({ name: m.name, labels: m.overall.labels }))
	);
}

/**
 * The one sentence the view says about the data: the spread of accuracy and follow-up across
 * models, and how many pairs of models the follow-up intervals cannot tell apart.
 */
export function studySentence(points: readonly ModelPoint[]): string {
	const drawn = points.filter((p) => !Number.isNaN(p.followup.p));
	if (drawn.length < 2) return 'Fewer than two models have judged turns yet: nothing to compare.';
	const range = (rate: (p: ModelPoint) => Rate) => {
		const xs = drawn.filter((p) => !Number.isNaN(rate(p).p));
		if (xs.length === 0) return 'unknown (nothing scored)';
		const sorted = xs.slice().sort((a, b) => rate(a).p - rate(b).p);
		const [lo, hi] = [sorted[0], sorted[sorted.length - 1]];
		if (fmt(rate(lo).p) === fmt(rate(hi).p)) return `${fmt(rate(lo).p)} for every model`;
		return `from ${fmt(rate(lo).p)} (${lo.name}) to ${fmt(rate(hi).p)} (${hi.name})`;
	};
	let pairs = 0;
	let overlapping = 0;
	for (let i = 0; i < drawn.length; i++)
		for (let j = i + 1; j < drawn.length; j++) {
			pairs++;
			const [a, b] = [drawn[i].followup, drawn[j].followup];
			if (a.lo <= b.hi && b.lo <= a.hi) overlapping++;
		}
	const caveat =
		overlapping === 0
			? 'no two follow-up intervals overlap, though these runs say nothing of items or settings they did not include'
			: `${overlapping} of ${pairs} pairs of models have overlapping follow-up intervals, so these runs cannot tell those models apart (more items would narrow the intervals)`;
	return `Across ${drawn.length} models, accuracy runs ${range((p) => p.accuracy)} and genuine follow-ups ${range((p) => p.followup)}; ${caveat}.`;
}
