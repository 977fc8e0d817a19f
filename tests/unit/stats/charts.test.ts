import { describe, expect, it } from 'vitest';
import type { TooltipItem } from 'chart.js';
import { summarize, wilson } from '../../../src/lib/stats/aggregate.ts';
import type { ConditionSummary } from '../../../src/lib/stats/aggregate.ts';
import {
	accuracyVsFollowup,
	CI_LOW_SUFFIX,
	CI_SUFFIX,
	followupVsTemperature,
	formatRate,
	labelDistributionChart,
	pairedDeltas
} from '../../../src/lib/stats/charts.ts';
import { whiskerBounds } from '../../../src/lib/stats/barCharts.ts';
import { wrapTick } from '../../../src/lib/stats/chartKit.ts';
import type { PaperPoint } from '../../../src/lib/stats/charts.ts';
import { LABELS, PERTURBATIONS } from '../../../src/lib/probe/types.ts';
import type { Label } from '../../../src/lib/probe/types.ts';
import {
	LABEL_COLORS,
	PALETTE,
	PERTURBATION_COLORS,
	withAlpha
} from '../../../src/lib/stats/palette.ts';
import { renderChart } from './fakeCanvas.ts';
import { makeRecord, makeSyntheticRun } from '../../helpers/factories.ts';
import { rated } from '../../helpers/rate.ts';

const run = makeSyntheticRun({
	seed: 1,
	items: 40,
	samples: 2,
	temperatures: [1, 0, 0.5],
	perturbations: ['append', 'none']
});
const summaries = summarize(run);

const paper: PaperPoint[] = [
	{
		model: 'Qwen3-8B',
		benchmark: 'gsm8k',
		temperature: 1,
		condition: 'none',
		followup: 0.3,
		source: 'test'
	},
	{
		model: 'Qwen3-8B',
		benchmark: 'gsm8k',
		temperature: 0,
		condition: 'none',
		followup: 0.1,
		source: 'test',
		uncertain: 'which model'
	},
	{
		model: 'Qwen3-8B',
		benchmark: 'gsm8k',
		temperature: 0.7,
		condition: 'append',
		accuracy: 0.9,
		followup: 0.25,
		source: 'test'
	},
	{
		model: 'Llama-3.1-8B',
		benchmark: 'gsm8k',
		temperature: 0.7,
		condition: 'greedy',
		followup: 0.05,
		source: 'test'
	}
];

function counts(partial: Partial<Record<Label, number>>): Record<Label, number> {
	return Object.fromEntries(LABELS.map((l) => [l, partial[l] ?? 0])) as Record<Label, number>;
}

describe('followupVsTemperature', () => {
	it('draws a lower edge, a band and a line per perturbation present, in paper order', () => {
		const config = followupVsTemperature(summaries);
		expect(config.type).toBe('line');
		expect(config.data.datasets.map((d) => d.label)).toEqual([
			'none' + CI_LOW_SUFFIX,
			'none' + CI_SUFFIX,
			'none',
			'append' + CI_LOW_SUFFIX,
			'append' + CI_SUFFIX,
			'append'
		]);
	});

	it('plots percentages sorted by temperature, with the band from lo to hi', () => {
		const [low, band, line] = followupVsTemperature(summaries).data.datasets;
		const none = summaries.filter((s) => s.perturbation === 'none');
		expect(line.data.map((p) => p.x)).toEqual([0, 0.5, 1]);
		none.forEach((s, i) => {
			expect(line.data[i].y).toBeCloseTo(rated(s.followup).p * 100, 10);
			expect(low.data[i].y).toBeCloseTo(rated(s.followup).lo * 100, 10);
			expect(band.data[i].y).toBeCloseTo(rated(s.followup).hi * 100, 10);
		});
		expect(line.borderColor).toBe(PERTURBATION_COLORS.none);
		expect(band.fill).toBe('-1');
	});

	it('leaves out conditions with nothing labeled instead of drawing them at 0', () => {
		const pending = summarize([
			makeRecord({ temperature: 0, label: 'genuine_followup' }),
			makeRecord({ temperature: 1, label: null })
		]);
		const line = followupVsTemperature(pending).data.datasets[2];
		expect(line.data).toEqual([{ x: 0, y: 100 }]);
		expect(followupVsTemperature([]).data.datasets).toEqual([]);
	});

	it('groups paper points into one marker series per model, benchmark and condition', () => {
		const datasets = followupVsTemperature(summaries, { overlay: paper }).data.datasets.slice(6);
		expect(datasets.map((d) => d.label)).toEqual([
			'Paper: Qwen3-8B · gsm8k · none',
			'Paper: Qwen3-8B · gsm8k · append',
			'Paper: Llama-3.1-8B · gsm8k · greedy'
		]);
		expect(datasets[0].data).toEqual([
			{ x: 0, y: 10 },
			{ x: 1, y: 30 }
		]);
		expect(datasets[0].showLine).toBe(false);
		expect(datasets[0].borderColor).toBe(PERTURBATION_COLORS.none);
		expect(datasets[2].borderColor).toBe(PALETTE.black);
	});

	it('draws a paper point of uncertain attribution hollow and says so in its tooltip', () => {
		const config = followupVsTemperature(summaries, { overlay: paper });
		const index = config.data.datasets.findIndex(
			(d) => d.label === 'Paper: Qwen3-8B · gsm8k · none'
		);
		const series = config.data.datasets[index];
		// Sorted by temperature: the uncertain T=0 point first, the certain T=1 point filled.
		expect(series.pointBackgroundColor).toEqual([
			'transparent',
			withAlpha(PERTURBATION_COLORS.none, 0.5)
		]);
		const label = config.options?.plugins?.tooltip?.callbacks?.label as (
			item: TooltipItem<'line'>
		) => string;
		const at = (dataIndex: number) =>
			label({ datasetIndex: index, dataIndex, dataset: series } as unknown as TooltipItem<'line'>);
		expect(at(0)).toContain('uncertain attribution');
		expect(at(1)).not.toContain('uncertain');
	});

	it('says in the tooltip when a paper point’s temperature was inferred, not read', () => {
		const inferred = paper.map((p) =>
			p.temperature === 1 ? { ...p, inferred: 'temperature: none given; placed at T=1' } : p
		);
		const config = followupVsTemperature(summaries, { overlay: inferred });
		const index = config.data.datasets.findIndex(
			(d) => d.label === 'Paper: Qwen3-8B · gsm8k · none'
		);
		const label = config.options?.plugins?.tooltip?.callbacks?.label as (
			item: TooltipItem<'line'>
		) => string;
		const at = (dataIndex: number) =>
			label({
				datasetIndex: index,
				dataIndex,
				dataset: config.data.datasets[index]
			} as unknown as TooltipItem<'line'>);
		expect(at(1)).toContain('(inferred temperature)');
		expect(at(0)).not.toContain('inferred');
	});

	it('renders in Chart.js with each band filling down to its own lower edge', () => {
		const chart = renderChart(followupVsTemperature(summaries, { overlay: paper }));
		try {
			const filler = (i: number) =>
				(chart.getDatasetMeta(i) as unknown as { $filler?: { fill: unknown } }).$filler;
			expect(filler(1)?.fill).toBe(0);
			expect(filler(4)?.fill).toBe(3);
			expect(filler(2)?.fill).toBe(false);
			// Three paper series, one legend entry.
			expect(chart.legend?.legendItems?.map((item) => item.text)).toEqual([
				'none',
				'append',
				'Paper (arXiv 2604.02315)'
			]);
		} finally {
			chart.destroy();
		}
	});

	it('shows the interval and counts in the tooltip of a line point and hides band points', () => {
		const config = followupVsTemperature(summaries);
		const tooltip = config.options?.plugins?.tooltip;
		const none0 = summaries.find(
			(s) => s.perturbation === 'none' && s.temperature === 0
		) as ConditionSummary;
		const item = (datasetIndex: number, dataIndex: number) =>
			({
				datasetIndex,
				dataIndex,
				dataset: config.data.datasets[datasetIndex]
			}) as unknown as TooltipItem<'line'>;
		const label = tooltip?.callbacks?.label as (item: TooltipItem<'line'>) => string;
		expect(label(item(2, 0))).toBe(`none: ${formatRate(rated(none0.followup))} (0 pending)`);
		const filter = tooltip?.filter as (item: TooltipItem<'line'>) => boolean;
		expect([0, 1, 2].map((i) => filter(item(i, 0)))).toEqual([false, false, true]);
	});
});

describe('formatRate', () => {
	it('prints estimate, interval and counts', () => {
		expect(formatRate(wilson(81, 263))).toBe('30.8% [25.5–36.6%], 81/263');
	});

	it('says so when there is no data', () => {
		expect(formatRate(wilson(0, 0))).toBe('no data (0/0)');
	});
});

describe('labelDistributionChart', () => {
	it('turns one distribution into a single horizontal stacked bar of percentages', () => {
		const config = labelDistributionChart(
			counts({ genuine_followup: 3, degenerate: 1, prompt_restatement: 4 })
		);
		expect(config.options?.indexAxis).toBe('y');
		expect(config.data.labels).toEqual(['All']);
		expect(config.data.datasets.map((d) => [d.label, d.data[0]])).toEqual([
			['Plausible follow-up', 37.5],
			['Previous-turn restatement', 50],
			['Degenerate short output', 12.5]
		]);
		expect(config.data.datasets[0].backgroundColor).toBe(LABEL_COLORS.genuine_followup);
		expect(config.options?.scales?.x?.stacked).toBe(true);
		expect(config.options?.scales?.y?.stacked).toBe(true);
	});

	it('makes one bar per row, each summing to 100%, keeping zero rows at 0', () => {
		const rows = summaries.map((s) => ({
			name: `${s.perturbation} T=${s.temperature}`,
			labels: s.labels
		}));
		rows.push({ name: 'empty', labels: counts({}) });
		const config = labelDistributionChart(rows);
		expect(config.data.labels).toHaveLength(rows.length);
		rows.forEach((_row, i) => {
			const total = config.data.datasets.reduce((s, d) => s + d.data[i], 0);
			expect(total).toBeCloseTo(i === rows.length - 1 ? 0 : 100, 10);
		});
	});

	it('names every row on a phone-sized chart, however crowded (no tick Chart.js skips)', () => {
		const every = counts({ genuine_followup: 2, meta_planning: 1, judge_error: 1 });
		const rows = ['T=0 · none', 'T=0 · truncate', 'T=0.7 · none', 'T=0.7 · truncate'].flatMap(
			(name) => [
				{ name, labels: every },
				{ name: `${name} · again`, labels: every }
			]
		);
		// A phone's chart with its legend drawn in the canvas: the legend takes most of the height.
		const chart = renderChart(labelDistributionChart(rows), { width: 350, height: 200 });
		try {
			expect(chart.scales.y.ticks.map((t) => rows[t.value].name)).toEqual(rows.map((r) => r.name));
		} finally {
			chart.destroy();
		}
	});

	it('shows raw counts with percent: false', () => {
		const config = labelDistributionChart(counts({ judge_error: 2, meta_planning: 5 }), {
			percent: false
		});
		expect(config.data.datasets.map((d) => [d.label, d.data[0]])).toEqual([
			['Meta-planning', 5],
			['Judge error', 2]
		]);
		expect(config.options?.scales?.x?.max).toBeUndefined();
	});
});

describe('accuracyVsFollowup', () => {
	const runs = [
		{ name: 'Qwen3-0.6B', accuracy: wilson(40, 100), followup: wilson(12, 80) },
		{ name: 'pending', accuracy: wilson(40, 100), followup: wilson(0, 0) },
		{ name: 'Llama-3.2-1B', accuracy: wilson(25, 100), followup: wilson(30, 90) }
	];

	it('draws a point and two whiskers per run with estimates, in percent', () => {
		const datasets = accuracyVsFollowup(runs).data.datasets;
		expect(datasets.map((d) => d.label)).toEqual([
			`Qwen3-0.6B accuracy${CI_SUFFIX}`,
			`Qwen3-0.6B follow-up${CI_SUFFIX}`,
			'Qwen3-0.6B',
			`Llama-3.2-1B accuracy${CI_SUFFIX}`,
			`Llama-3.2-1B follow-up${CI_SUFFIX}`,
			'Llama-3.2-1B'
		]);
		const [horizontal, vertical, point] = datasets;
		const { accuracy: a, followup: f } = runs[0];
		expect(point.data).toEqual([{ x: a.p * 100, y: f.p * 100 }]);
		expect(horizontal.data).toEqual([
			{ x: a.lo * 100, y: f.p * 100 },
			{ x: a.hi * 100, y: f.p * 100 }
		]);
		expect(vertical.data).toEqual([
			{ x: a.p * 100, y: f.lo * 100 },
			{ x: a.p * 100, y: f.hi * 100 }
		]);
		expect(horizontal.showLine).toBe(true);
		expect(datasets[5].borderColor).not.toBe(datasets[2].borderColor);
	});

	it('adds only paper points that report accuracy, and hides whiskers from the legend', () => {
		const config = accuracyVsFollowup(runs, paper);
		const last = config.data.datasets.at(-1);
		expect(last?.label).toBe('Paper: Qwen3-8B · gsm8k');
		expect(last?.data).toEqual([{ x: 90, y: 25 }]);
		const chart = renderChart(config);
		try {
			expect(chart.legend?.legendItems?.map((i) => i.text)).toEqual([
				'Qwen3-0.6B',
				'Llama-3.2-1B',
				'Paper (arXiv 2604.02315)'
			]);
		} finally {
			chart.destroy();
		}
	});
});

describe('pairedDeltas', () => {
	const deltas = [
		{ name: 'append − none', diff: 0.12, lo: 0.05, hi: 0.2 },
		{ name: 'truncate − none', diff: -0.03, lo: -0.09, hi: 0.02 },
		{ name: 'no pairs', diff: Number.NaN, lo: Number.NaN, hi: Number.NaN }
	];

	it('draws the estimate as a bar and the interval as a thin floating bar on top', () => {
		const config = pairedDeltas(deltas);
		expect(config.data.labels).toEqual(deltas.map((d) => d.name));
		const [bars, whiskers] = config.data.datasets;
		expect(bars.data[0]).toBeCloseTo(12, 10);
		expect(bars.data[2]).toBeNull();
		expect(whiskers.data[1]).toEqual([-9, 2]);
		expect(whiskers.data[2]).toBeNull();
		expect([bars.grouped, whiskers.grouped]).toEqual([false, false]);
		expect(whiskers.order).toBeLessThan(bars.order ?? 0);
	});

	it('renders in Chart.js with the whisker spanning lo to hi on the value axis', () => {
		const chart = renderChart(pairedDeltas(deltas));
		try {
			// Horizontal bars: the value axis is x, each comparison a row.
			const x = chart.scales.x;
			const whisker = chart.getDatasetMeta(1).data[0] as unknown as {
				x: number;
				base: number;
				height: number;
			};
			const bar = chart.getDatasetMeta(0).data[0] as unknown as { height: number };
			expect(x.getValueForPixel(whisker.x)).toBeCloseTo(20, 6);
			expect(x.getValueForPixel(whisker.base)).toBeCloseTo(5, 6);
			// A hairline beside the estimate's bar, however tall the chart.
			expect(whisker.height).toBeLessThanOrEqual(3);
			expect(bar.height).toBeGreaterThan(10 * whisker.height);
		} finally {
			chart.destroy();
		}
	});
});

describe('palette', () => {
	it('gives every label and perturbation its own color', () => {
		expect(new Set(Object.values(LABEL_COLORS)).size).toBe(LABELS.length);
		expect(new Set(Object.values(PERTURBATION_COLORS)).size).toBe(PERTURBATIONS.length);
	});

	it('converts hex to rgba', () => {
		expect(withAlpha(PALETTE.vermillion, 0.25)).toBe('rgba(213, 94, 0, 0.25)');
	});
});

describe('CI whiskers are never clipped', () => {
	const y = (config: ReturnType<typeof pairedDeltas>) => {
		const scale = config.options?.scales?.x as
			{ suggestedMin?: number; suggestedMax?: number } | undefined;
		if (scale?.suggestedMin === undefined || scale.suggestedMax === undefined) {
			throw new Error('no y bounds');
		}
		return { min: scale.suggestedMin, max: scale.suggestedMax };
	};

	it('the paired-difference axis holds 0, every estimate and every whisker end, with a margin', () => {
		const deltas = [
			{ name: 'a', diff: -0.3, lo: -0.62, hi: 0.05 },
			{ name: 'b', diff: 0.2, lo: 0.01, hi: 0.47 },
			{ name: 'c', diff: Number.NaN, lo: Number.NaN, hi: Number.NaN }
		];
		const config = pairedDeltas(deltas);
		const { min, max } = y(config);
		const ends = (config.data.datasets[1].data as ([number, number] | null)[])
			.filter((d): d is [number, number] => d !== null)
			.flat();
		expect(ends).toEqual([-62, 5, 1, 47]);
		for (const end of ends) {
			expect(end).toBeGreaterThan(min);
			expect(end).toBeLessThan(max);
		}
		expect(min).toBeLessThanOrEqual(-62 - 1);
		expect(max).toBeGreaterThanOrEqual(47 + 1);
	});

	it('in Chart.js, the drawn axis reaches past every whisker end', () => {
		const config = pairedDeltas([
			{ name: 'a', diff: -0.5, lo: -1, hi: 0 },
			{ name: 'b', diff: 0, lo: -0.7, hi: 0.8 }
		]);
		const chart = renderChart(config);
		try {
			const scale = chart.scales.x;
			// −100 pp is as far as a difference of two shares goes: the axis ends there, unclipped.
			expect(scale.min).toBe(-100);
			expect(scale.max).toBeGreaterThan(80);
			expect(config.data.datasets[1].clip).toBe(false);
		} finally {
			chart.destroy();
		}
		const line = followupVsTemperature(summaries);
		expect(line.data.datasets.every((d) => d.clip === false)).toBe(true);
	});

	it('keeps 0 in view when every difference is on one side, and survives no finite data', () => {
		expect(whiskerBounds([{ name: 'x', diff: 0.1, lo: 0.05, hi: 0.2 }])).toEqual({
			min: -1,
			max: 21
		});
		expect(
			whiskerBounds([{ name: 'x', diff: Number.NaN, lo: Number.NaN, hi: Number.NaN }])
		).toEqual({ min: -1, max: 1 });
		expect(whiskerBounds([])).toEqual({ min: -1, max: 1 });
	});

	it('stops at ±100 pp, which a whisker can reach but no difference of two shares can pass', () => {
		// The e2e run's paired chart: a whisker at −100 pp padded to −109 pushed the ticks to −150.
		expect(
			whiskerBounds([
				{ name: 'T=0', diff: -0.5, lo: -1, hi: 0 },
				{ name: 'T=1', diff: 0, lo: -0.75, hi: 0.75 }
			])
		).toEqual({ min: -100, max: 84 });
		expect(whiskerBounds([{ name: 'x', diff: 1, lo: 1, hi: 1 }])).toEqual({ min: -5, max: 100 });
	});

	it('rate charts are 0–100 %, which holds every Wilson interval end', () => {
		const config = accuracyVsFollowup([
			{
				name: 'r',
				accuracy: { p: 1, lo: 0.83, hi: 1, n: 20, k: 20 },
				followup: { p: 0, lo: 0, hi: 0.16, n: 20, k: 0 }
			}
		]);
		const { x, y: ys } = config.options?.scales as Record<string, { min: number; max: number }>;
		for (const d of config.data.datasets) {
			// A point or whisker on the 0 or 100 edge is drawn whole, not cut in half.
			expect(d.clip).toBe(false);
			for (const pt of d.data as { x: number; y: number }[]) {
				expect(pt.x).toBeGreaterThanOrEqual(x.min);
				expect(pt.x).toBeLessThanOrEqual(x.max);
				expect(pt.y).toBeGreaterThanOrEqual(ys.min);
				expect(pt.y).toBeLessThanOrEqual(ys.max);
			}
		}
	});
});

describe('the paper overlay in the legend', () => {
	it('is one entry that shows and hides every paper series together, and nothing else', () => {
		const chart = renderChart(followupVsTemperature(summaries, { overlay: paper }));
		try {
			const paperIndexes = chart.data.datasets.flatMap((d, i) =>
				d.label?.startsWith('Paper: ') ? [i] : []
			);
			expect(paperIndexes).toHaveLength(3);
			const entry = chart.legend?.legendItems?.find((i) => i.text === 'Paper (arXiv 2604.02315)');
			if (!entry || !chart.legend) throw new Error('no paper legend entry');
			const onClick = chart.options.plugins?.legend?.onClick as unknown as (
				e: unknown,
				item: unknown,
				legend: unknown
			) => void;
			onClick({}, entry, chart.legend);
			expect(paperIndexes.map((i) => chart.isDatasetVisible(i))).toEqual([false, false, false]);
			// The lines and their bands are untouched.
			expect(chart.isDatasetVisible(2)).toBe(true);
			const again = chart.legend.legendItems?.find((i) => i.text === 'Paper (arXiv 2604.02315)');
			onClick({}, again, chart.legend);
			expect(paperIndexes.map((i) => chart.isDatasetVisible(i))).toEqual([true, true, true]);
			// A line's entry still toggles only that line.
			const none = chart.legend.legendItems?.find((i) => i.text === 'none');
			onClick({}, none, chart.legend);
			expect(chart.isDatasetVisible(2)).toBe(false);
			expect(paperIndexes.every((i) => chart.isDatasetVisible(i))).toBe(true);
		} finally {
			chart.destroy();
		}
	});

	it('a chart with no overlay has no paper entry', () => {
		const chart = renderChart(followupVsTemperature(summaries));
		try {
			expect(chart.legend?.legendItems?.map((i) => i.text)).toEqual(['none', 'append']);
		} finally {
			chart.destroy();
		}
	});
});

describe('wrapTick', () => {
	it('keeps a short name on one line', () => {
		expect(wrapTick('T=0.7 · truncate')).toBe('T=0.7 · truncate');
	});

	it('breaks a long name after spaces and slashes, no line longer than asked', () => {
		const name = 'meta-llama/Llama-3.2-1B-Instruct · T=0.7 truncate − none';
		const lines = wrapTick(name, 24);
		expect(lines).toEqual(['meta-llama/', 'Llama-3.2-1B-Instruct ·', 'T=0.7 truncate − none']);
		expect((lines as string[]).join(' ').replace('/ ', '/')).toBe(name);
	});

	it('keeps a word longer than a line whole, on a line of its own', () => {
		expect(wrapTick('a-very-long-served-model-name-without-breaks x', 10)).toEqual([
			'a-very-long-served-model-name-without-breaks',
			'x'
		]);
	});

	it('wraps the category ticks of a horizontal bar chart as Chart.js draws them', () => {
		const rows = [
			{ name: 'meta-llama/Llama-3.2-1B-Instruct', labels: counts({ meta_planning: 1 }) }
		];
		const chart = renderChart(labelDistributionChart(rows), { width: 350, height: 160 });
		try {
			expect(chart.scales.y.ticks.map((t) => t.label)).toEqual([
				['meta-llama/', 'Llama-3.2-1B-Instruct']
			]);
		} finally {
			chart.destroy();
		}
	});
});
