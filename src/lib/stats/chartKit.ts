/**
 * Shared pieces of the chart builders: the paper overlay shape, CI dataset naming, percent
 * formatting and tooltip lookup. Types only from chart.js.
 */
import type { ChartData, LegendItem, LegendOptions, TooltipItem } from 'chart.js';
import type { Rate } from './interval.ts';
import { PALETTE, PERTURBATION_COLORS } from './palette.ts';

/**
 * A published number to draw beside ours. Rates are fractions in [0, 1], like ours; `condition`
 * is a perturbation name when it matches one (then it takes that perturbation's color).
 */
export interface PaperPoint {
	model: string;
	benchmark: string;
	temperature: number;
	condition: string;
	accuracy?: number;
	followup: number;
	/** Where in the paper the number is, and how it was read (static/paper-figures.json's notes). */
	source: string;
	/** Set when part of the placement was inferred, not read (e.g. the temperature): what and why. */
	inferred?: string;
	/** Set when the attribution is in doubt: what is uncertain. Drawn hollow, the doubt in the tooltip. */
	uncertain?: string;
}

/** Suffix of the datasets that draw a confidence band or whisker; legends hide them. */
export const CI_SUFFIX = ' (95% CI)';
/** The invisible lower edge that a band fills up from. */
export const CI_LOW_SUFFIX = ' (95% CI low)';
export const BAND_ALPHA = 0.18;
export const PAPER_POINT_STYLE = 'triangle';

export const pct = (x: number) => x * 100;
export const fmt = (x: number) => `${pct(x).toFixed(1)}%`;
export const isCiDataset = (label: string | undefined) =>
	label !== undefined && (label.endsWith(CI_SUFFIX) || label.endsWith(CI_LOW_SUFFIX));

/** Paper overlay datasets are named "Paper: model · benchmark[ · condition]". */
export const PAPER_PREFIX = 'Paper: ';
/** The overlay's single legend entry, however many paper series are drawn. */
export const PAPER_LEGEND = 'Paper (arXiv 2604.02315)';
export const isPaperDataset = (label: string | undefined) =>
	label !== undefined && label.startsWith(PAPER_PREFIX);

/**
 * The legend of a chart with CI datasets and a paper overlay: no CI entries, and one entry for all
 * paper series (each series keeps its name in the tooltip), so the overlay never fills the legend
 * and squashes the plot. Clicking that entry shows or hides every paper series together.
 */
export function legendWithOnePaperEntry(): Partial<LegendOptions<'line' | 'scatter'>> {
	return {
		labels: {
			filter: (item: LegendItem, data: ChartData) => {
				if (isCiDataset(item.text)) return false;
				if (!isPaperDataset(item.text) && item.text !== PAPER_LEGEND) return true;
				const first = data.datasets.findIndex((d) => isPaperDataset(d.label));
				if (item.datasetIndex !== first) return false;
				item.text = PAPER_LEGEND;
				return true;
			}
		} as LegendOptions<'line' | 'scatter'>['labels'],
		onClick: (_event, item, legend) => {
			const chart = legend.chart;
			const index = item.datasetIndex;
			if (index === undefined) return;
			const targets =
				item.text === PAPER_LEGEND
					? chart.data.datasets.flatMap((d, i) => (isPaperDataset(d.label) ? [i] : []))
					: [index];
			const show = !chart.isDatasetVisible(index);
			for (const i of targets) chart.setDatasetVisibility(i, show);
			chart.update();
		}
	};
}

/** "12.5% [8.1–18.0%], 14/112" for tooltips. */
export function formatRate(r: Rate): string {
	if (Number.isNaN(r.p)) return `no data (0/${r.n})`;
	return `${fmt(r.p)} [${pct(r.lo).toFixed(1)}–${fmt(r.hi)}], ${r.k}/${r.n}`;
}

/** A perturbation's color when the paper condition names one, else black. */
export function conditionColor(condition: string): string {
	return (PERTURBATION_COLORS as Record<string, string>)[condition] ?? PALETTE.black;
}

/** Precomputed tooltip text by dataset index and point index, else the dataset label. */
export function tooltipText(
	details: Map<number, string[]>,
	item: TooltipItem<'line'> | TooltipItem<'scatter'>
): string {
	return details.get(item.datasetIndex)?.[item.dataIndex] ?? `${item.dataset.label ?? ''}`;
}

/** Insertion-ordered groups. */
export function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
	const groups = new Map<string, T[]>();
	for (const x of xs) {
		const k = key(x);
		const group = groups.get(k);
		if (group) group.push(x);
		else groups.set(k, [x]);
	}
	return groups;
}

/** The longest line of a wrapped category tick label, in characters. */
export const TICK_LINE_CHARS = 22;

/**
 * A long category name as lines of at most `max` characters (Chart.js draws an array as a
 * multi-line tick), broken after spaces and slashes ("meta-llama/" + "Llama-3.2-1B-Instruct"),
 * so a bar chart's row names stay whole on a phone instead of squeezing the bars; a word longer
 * than `max` keeps a line of its own.
 */
export function wrapTick(name: string, max = TICK_LINE_CHARS): string | string[] {
	if (name.length <= max) return name;
	const words = name.split(/(?<=[ /])/);
	const lines: string[] = [];
	let line = '';
	for (const w of words) {
		if (line !== '' && (line + w).trimEnd().length > max) {
			lines.push(line.trimEnd());
			line = '';
		}
		line += w;
	}
	if (line.trim() !== '') lines.push(line.trimEnd());
	return lines;
}

/** A category axis whose every tick is drawn (no autoSkip) and wrapped onto lines (wrapTick). */
export function everyCategoryTick() {
	return {
		autoSkip: false,
		callback(this: { getLabelForValue(v: number): string }, value: number | string) {
			return wrapTick(this.getLabelForValue(Number(value)));
		}
	};
}
