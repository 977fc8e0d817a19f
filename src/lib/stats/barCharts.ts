/**
 * Bar charts: the label mix and paired differences. Chart.js types only.
 */
import type { ChartConfiguration } from 'chart.js';
import { LABEL_INFO } from '../probe/labels.ts';
import { LABELS } from '../probe/types.ts';
import type { Label } from '../probe/types.ts';
import { CI_SUFFIX, everyCategoryTick, pct } from './chartKit.ts';
import { LABEL_COLORS, PALETTE, withAlpha } from './palette.ts';

export interface LabelRow {
	name: string;
	labels: Record<Label, number>;
}

/**
 * Horizontal stacked bars: one bar per row (a single distribution becomes one bar named "All"),
 * one segment per label in LABELS order, as % of the row's labeled records unless
 * `percent: false`. Labels that are zero in every row are left out of the legend.
 */
export function labelDistributionChart(
	dist: Record<Label, number> | readonly LabelRow[],
	opts: { percent?: boolean } = {}
): ChartConfiguration<'bar', number[], string> {
	const rows: readonly LabelRow[] = Array.isArray(dist)
		? dist
		: [{ name: 'All', labels: dist as Record<Label, number> }];
	const percent = opts.percent ?? true;
	const totals = rows.map((row) => LABELS.reduce((s, label) => s + row.labels[label], 0));
	const used = LABELS.filter((label) => rows.some((row) => row.labels[label] > 0));
	return {
		type: 'bar',
		data: {
			labels: rows.map((row) => row.name),
			datasets: used.map((label) => ({
				// The name a reader knows ("Genuine follow-up"), as on the label definitions.
				label: LABEL_INFO[label].title,
				data: rows.map((row, i) =>
					percent ? (totals[i] === 0 ? 0 : pct(row.labels[label] / totals[i])) : row.labels[label]
				),
				backgroundColor: LABEL_COLORS[label]
			}))
		},
		options: {
			indexAxis: 'y',
			scales: {
				x: {
					stacked: true,
					...(percent ? { min: 0, max: 100 } : {}),
					title: { display: true, text: percent ? 'Share of labeled turns (%)' : 'Turns' }
				},
				// Every row named, long names on lines of their own: Chart.js would skip crowded tick
				// labels; the view sizes the chart to its rows instead.
				y: { stacked: true, ticks: everyCategoryTick() }
			}
		}
	};
}

export interface Delta {
	name: string;
	diff: number;
	lo: number;
	hi: number;
}

/**
 * Paired differences in percentage points, one horizontal bar per comparison (its long name reads
 * on a row of its own, even on a phone): a translucent bar for the estimate and, on top of it, a
 * thin floating bar [lo, hi] for the 95% interval (Chart.js has no error bars without a plugin).
 * `grouped: false` stacks both in the same slot; the lower `order` draws the whisker above the
 * bar. NaN estimates become gaps.
 */
export function pairedDeltas(
	deltas: readonly Delta[]
): ChartConfiguration<'bar', (number | [number, number] | null)[], string> {
	const finite = (x: number) => (Number.isFinite(x) ? pct(x) : null);
	const bounds = whiskerBounds(deltas);
	return {
		type: 'bar',
		data: {
			labels: deltas.map((d) => d.name),
			datasets: [
				{
					label: 'Difference (pp)',
					data: deltas.map((d) => finite(d.diff)),
					backgroundColor: withAlpha(PALETTE.blue, 0.6),
					grouped: false,
					order: 1
				},
				{
					label: `Difference${CI_SUFFIX}`,
					data: deltas.map((d): [number, number] | null =>
						Number.isFinite(d.lo) && Number.isFinite(d.hi) ? [pct(d.lo), pct(d.hi)] : null
					),
					backgroundColor: PALETTE.black,
					// An error bar: a hairline whatever the chart's width, not a second bar.
					barPercentage: 0.08,
					maxBarThickness: 3,
					grouped: false,
					// A whisker may end on the axis (−100 or +100 pp): drawn whole, not cut at the edge.
					clip: false,
					order: 0
				}
			]
		},
		options: {
			indexAxis: 'y',
			scales: {
				x: {
					// Every whisker end and 0 lie inside, with a margin; the ticks still round outward to
					// readable numbers (suggested bounds only widen the data's own range).
					suggestedMin: bounds.min,
					suggestedMax: bounds.max,
					title: { display: true, text: 'Follow-up difference (percentage points)' }
				},
				y: { ticks: everyCategoryTick() }
			},
			plugins: {
				tooltip: {
					callbacks: {
						label: (item) => {
							const d = deltas[item.dataIndex];
							return `${d.name}: ${pct(d.diff).toFixed(1)} pp [${pct(d.lo).toFixed(1)}, ${pct(d.hi).toFixed(1)}]`;
						}
					}
				}
			}
		}
	};
}

/**
 * The value range of a paired-difference chart in pp: 0, every estimate and every whisker end inside,
 * padded by 5% of the span (at least 1 pp) and rounded out to whole pp, so no whisker is clipped;
 * never past ±100 pp, which no difference of two shares can pass (the padding would only push the
 * ticks out to -150).
 */
export function whiskerBounds(deltas: readonly Delta[]): { min: number; max: number } {
	const values = deltas
		.flatMap((d) => [d.diff, d.lo, d.hi])
		.filter((x) => Number.isFinite(x))
		.map(pct);
	const lo = Math.min(0, ...values);
	const hi = Math.max(0, ...values);
	const pad = Math.max(1, (hi - lo) * 0.05);
	return { min: Math.max(-100, Math.floor(lo - pad)), max: Math.min(100, Math.ceil(hi + pad)) };
}
