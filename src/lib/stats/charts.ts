/**
 * Data → Chart.js configuration objects. No canvas and no Chart.js runtime here (types only), so
 * configs are tested in Node and the view does `new Chart(canvas, config)`. The view must register
 * the controllers, scales and the Filler, Legend and Tooltip plugins (`chart.js/auto` does all).
 *
 * Rates arrive as fractions (Rate.p in [0, 1]) and are drawn as percentages. Points whose estimate
 * is NaN (nothing labeled yet) are left out rather than drawn at 0.
 */
import type { ChartConfiguration, Point } from 'chart.js';
import { PERTURBATIONS } from '../probe/types.ts';
import { drawnRate, type ConditionSummary } from './aggregate.ts';
import {
	BAND_ALPHA,
	CI_LOW_SUFFIX,
	CI_SUFFIX,
	PAPER_POINT_STYLE,
	conditionColor,
	fmt,
	formatRate,
	groupBy,
	isCiDataset,
	legendWithOnePaperEntry,
	PAPER_PREFIX,
	pct,
	tooltipText
} from './chartKit.ts';
import type { PaperPoint } from './chartKit.ts';
import type { Rate } from './interval.ts';
import { PALETTE, PERTURBATION_COLORS, seriesColor, withAlpha } from './palette.ts';

export { CI_LOW_SUFFIX, CI_SUFFIX, formatRate } from './chartKit.ts';
export type { PaperPoint } from './chartKit.ts';
export { labelDistributionChart, pairedDeltas } from './barCharts.ts';
export type { Delta, LabelRow } from './barCharts.ts';

type LineDatasets = ChartConfiguration<'line', Point[]>['data']['datasets'];

/**
 * One line with its 95% band: an invisible lower edge, the upper edge filled down to it (both
 * with CI suffixes), then the line, whose tooltip `text` per point goes into `details`. Points
 * arrive sorted by x, NaN rates left out by the caller; none: nothing is drawn.
 */
export function bandedLine(
	datasets: LineDatasets,
	details: Map<number, string[]>,
	name: string,
	color: string,
	points: readonly { x: number; rate: Rate; text: string }[]
): void {
	if (points.length === 0) return;
	const edge = { borderWidth: 0, pointRadius: 0, pointHitRadius: 0 };
	datasets.push({
		...edge,
		label: name + CI_LOW_SUFFIX,
		data: points.map((p) => ({ x: p.x, y: pct(p.rate.lo) })),
		fill: false
	});
	datasets.push({
		...edge,
		label: name + CI_SUFFIX,
		data: points.map((p) => ({ x: p.x, y: pct(p.rate.hi) })),
		fill: '-1',
		backgroundColor: withAlpha(color, BAND_ALPHA)
	});
	details.set(
		datasets.length,
		points.map((p) => p.text)
	);
	datasets.push({
		label: name,
		data: points.map((p) => ({ x: p.x, y: pct(p.rate.p) })),
		borderColor: color,
		backgroundColor: color,
		pointRadius: 3,
		fill: false
	});
}

/**
 * Follow-up % against generation temperature, one line per perturbation. The 95% Wilson band is
 * two extra datasets per line: an invisible lower edge, then the upper edge with `fill: '-1'`
 * (fill down to the previous dataset). Both carry CI suffixes and are hidden from the legend and
 * tooltip; the line's own tooltip shows the interval and counts.
 */
export function followupVsTemperature(
	summaries: readonly ConditionSummary[],
	opts: { overlay?: readonly PaperPoint[] } = {}
): ChartConfiguration<'line', Point[]> {
	const datasets: LineDatasets = [];
	/** Tooltip text per dataset index and point index. */
	const details = new Map<number, string[]>();

	for (const perturbation of PERTURBATIONS) {
		const rows = summaries
			.filter((s) => s.perturbation === perturbation && !Number.isNaN(drawnRate(s.followup).p))
			.sort((a, b) => a.temperature - b.temperature);
		bandedLine(
			datasets,
			details,
			perturbation,
			PERTURBATION_COLORS[perturbation],
			rows.map((s) => ({
				x: s.temperature,
				rate: drawnRate(s.followup),
				text: `${perturbation}: ${formatRate(drawnRate(s.followup))} (${s.pending} pending)`
			}))
		);
	}

	for (const [name, points] of groupBy(opts.overlay ?? [], paperSeriesName)) {
		const sorted = points.slice().sort((a, b) => a.temperature - b.temperature);
		paperSeries(datasets, details, name, conditionColor(sorted[0].condition), sorted);
	}
	return followupLineChart(datasets, details);
}

/** Published points as triangles (hollow where uncertain), sorted by temperature, with tooltips. */
export function paperSeries(
	datasets: LineDatasets,
	details: Map<number, string[]>,
	name: string,
	color: string,
	sorted: readonly PaperPoint[]
): void {
	details.set(
		datasets.length,
		sorted.map((p) => `${name}, T=${p.temperature}: ${fmt(p.followup)}${doubt(p)}`)
	);
	datasets.push({
		label: name,
		data: sorted.map((p) => ({ x: p.temperature, y: pct(p.followup) })),
		showLine: false,
		pointStyle: PAPER_POINT_STYLE,
		pointRadius: 6,
		borderColor: color,
		backgroundColor: withAlpha(color, 0.5),
		pointBackgroundColor: sorted.map((p) => paperFill(p, withAlpha(color, 0.5)))
	});
}

/** Genuine follow-ups (0–100 %) against temperature: bands out of the legend and tooltips. */
export function followupLineChart(
	datasets: LineDatasets,
	details: Map<number, string[]>
): ChartConfiguration<'line', Point[]> {
	return {
		type: 'line',
		data: { datasets: unclipped(datasets) },
		options: {
			interaction: { mode: 'nearest', intersect: false },
			scales: {
				x: { type: 'linear', title: { display: true, text: 'Generation temperature' } },
				y: { min: 0, max: 100, title: { display: true, text: 'Genuine follow-ups (%)' } }
			},
			plugins: {
				legend: legendWithOnePaperEntry(),
				tooltip: {
					filter: (item) => !isCiDataset(item.dataset.label),
					callbacks: { label: (item) => tooltipText(details, item) }
				}
			}
		}
	};
}

/**
 * Rates are 0–100 % on a 0–100 axis, so a point or whisker at 0 or 100 sits on the plot's edge:
 * drawn unclipped, it shows whole instead of half (nothing can lie further out).
 */
function unclipped<T extends { clip?: unknown }>(datasets: T[]): T[] {
	return datasets.map((d) => ({ ...d, clip: false }));
}

/** An uncertain paper point is drawn hollow. */
function paperFill(p: PaperPoint, fill: string): string {
	return p.uncertain ? 'transparent' : fill;
}

/** The tooltip's note on a paper point whose attribution is in doubt or placement inferred. */
function doubt(p: PaperPoint): string {
	const notes = [
		p.uncertain ? 'uncertain attribution, drawn hollow' : '',
		p.inferred ? `inferred ${p.inferred.split(':')[0]}` : ''
	].filter(Boolean);
	return notes.length > 0 ? ` (${notes.join('; ')})` : '';
}

function paperSeriesName(p: PaperPoint): string {
	return `${PAPER_PREFIX}${p.model} · ${p.benchmark} · ${p.condition}`;
}

export interface RunPoint {
	name: string;
	accuracy: Rate;
	followup: Rate;
}

/**
 * Accuracy (x) against follow-up rate (y), one point per run. Each run's 95% intervals are drawn
 * as two whisker datasets (a horizontal and a vertical two-point segment, CI suffix, hidden from
 * the legend). Runs missing either estimate are left out; paper points need `accuracy`.
 */
export function accuracyVsFollowup(
	runs: readonly RunPoint[],
	overlay: readonly PaperPoint[] = []
): ChartConfiguration<'scatter', Point[]> {
	const datasets: ChartConfiguration<'scatter', Point[]>['data']['datasets'] = [];
	const details = new Map<number, string[]>();
	const whisker = { showLine: true, pointRadius: 0, pointHitRadius: 0, borderWidth: 1.5 };

	runs.forEach((run, i) => {
		const { accuracy: a, followup: f } = run;
		if (Number.isNaN(a.p) || Number.isNaN(f.p)) return;
		const color = seriesColor(i);
		datasets.push({
			...whisker,
			label: `${run.name} accuracy${CI_SUFFIX}`,
			data: [
				{ x: pct(a.lo), y: pct(f.p) },
				{ x: pct(a.hi), y: pct(f.p) }
			],
			borderColor: color
		});
		datasets.push({
			...whisker,
			label: `${run.name} follow-up${CI_SUFFIX}`,
			data: [
				{ x: pct(a.p), y: pct(f.lo) },
				{ x: pct(a.p), y: pct(f.hi) }
			],
			borderColor: color
		});
		details.set(datasets.length, [
			`${run.name}: accuracy ${formatRate(a)}; follow-up ${formatRate(f)}`
		]);
		datasets.push({
			label: run.name,
			data: [{ x: pct(a.p), y: pct(f.p) }],
			pointRadius: 5,
			borderColor: color,
			backgroundColor: color
		});
	});

	const withAccuracy = overlay.filter((p) => p.accuracy !== undefined);
	for (const [name, points] of groupBy(
		withAccuracy,
		(p) => `${PAPER_PREFIX}${p.model} · ${p.benchmark}`
	)) {
		details.set(
			datasets.length,
			points.map(
				(p) =>
					`${name}, ${p.condition}, T=${p.temperature}: follow-up ${fmt(p.followup)}${doubt(p)}`
			)
		);
		datasets.push({
			label: name,
			data: points.map((p) => ({ x: pct(p.accuracy ?? Number.NaN), y: pct(p.followup) })),
			pointStyle: PAPER_POINT_STYLE,
			pointRadius: 6,
			borderColor: PALETTE.black,
			backgroundColor: withAlpha(PALETTE.grey, 0.5),
			pointBackgroundColor: points.map((p) => paperFill(p, withAlpha(PALETTE.grey, 0.5)))
		});
	}

	return {
		type: 'scatter',
		data: { datasets: unclipped(datasets) },
		options: {
			scales: {
				x: { min: 0, max: 100, title: { display: true, text: 'Task accuracy (%)' } },
				y: { min: 0, max: 100, title: { display: true, text: 'Genuine follow-ups (%)' } }
			},
			plugins: {
				legend: legendWithOnePaperEntry(),
				tooltip: {
					filter: (item) => !isCiDataset(item.dataset.label),
					callbacks: { label: (item) => tooltipText(details, item) }
				}
			}
		}
	};
}
