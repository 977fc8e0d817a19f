/**
 * static/paper-figures.json against the numbers published in Shekkizhar, Cosentino, Earle (2026),
 * arXiv:2604.02315, as listed in the project brief and in issue #13 (the paper itself was not
 * readable when the issue's numbers were added), and against the PaperPoint shape the charts read.
 * The JSON is read from disk, not through the typed import, so a bad field fails here too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wilson } from '../../../src/lib/stats/interval.ts';
import type { ConditionSummary } from '../../../src/lib/stats/aggregate.ts';
import {
	compareWithPaper,
	overlayFor,
	PAPER_FIGURES,
	paperBenchmarks
} from '../../../src/lib/results/paperFigures.ts';

const raw = JSON.parse(
	readFileSync(new URL('../../../static/paper-figures.json', import.meta.url), 'utf8')
) as Record<string, unknown>;

type Published = [
	model: string,
	benchmark: string,
	T: number,
	condition: string,
	acc: number | undefined,
	followup: number
];

/** Every point the overlay may draw: [model, benchmark, temperature, condition, accuracy, follow-up]. */
const PUBLISHED: Published[] = [
	['Qwen3.5-0.8B', 'GSM8K', 0, 'none', 0.416, 0.01],
	['Qwen3.5-397B-A17B', 'GSM8K', 0, 'none', 0.968, 0.008],
	['Qwen3.5-397B-A17B', 'GPQA-Diamond', 0, 'none', 0.861, 0.005],
	['Qwen3.5-397B-A17B', 'IFBench', 0, 'none', 0.516, 0.097],
	['gpt-oss-20B', 'GPQA-Diamond', 0, 'none', 0.611, 0.207],
	['gpt-oss-20B', 'GPQA-Diamond', 1, 'none', undefined, 0.47],
	['Qwen3.5-27B', 'GSM8K', 1, 'none', undefined, 0.22],
	['Qwen3.5-27B', 'GPQA-Diamond', 1, 'none', undefined, 0.359],
	['Qwen3.5-27B', 'GPQA-Diamond', 0, 'none', undefined, 0.015],
	['Qwen3.5-27B', 'IFBench', 1, 'none', undefined, 0.307],
	['Qwen3.5-27B', 'IFBench', 0, 'none', undefined, 0.01],
	['GLM-4.7', 'GSM8K', 1, 'none', undefined, 0.152],
	['GLM-4.7', 'GPQA-Diamond', 1, 'none', undefined, 0.354],
	['GLM-4.7', 'GSM8K', 0, 'none', undefined, 0.01],
	['GLM-4.7', 'GSM8K', 0, 'truncate', undefined, 0.55],
	['gpt-oss-120B', 'GSM8K', 0, 'none', undefined, 0.0],
	['gpt-oss-120B', 'GSM8K', 0, 'truncate', undefined, 0.242],
	// Issue #13's list of published numbers that were missing.
	['Qwen3.5-27B', 'GSM8K', 0, 'none', undefined, 0],
	['Qwen3.5-9B', 'GPQA-Diamond', 0, 'none', undefined, 0.131],
	['gpt-oss-120B', 'GPQA-Diamond', 0, 'none', undefined, 0.207],
	['gpt-oss-120B', 'GPQA-Diamond', 0, 'truncate', undefined, 0.657],
	['GLM-4.7', 'GPQA-Diamond', 0, 'none', undefined, 0.02],
	['GLM-4.7', 'GPQA-Diamond', 0, 'truncate', undefined, 0.394],
	['gpt-oss-120B', 'IFBench', 0, 'none', undefined, 0.013],
	['gpt-oss-120B', 'IFBench', 0, 'append', undefined, 0.257],
	['GLM-4.7', 'IFBench', 0, 'none', undefined, 0.047],
	['GLM-4.7', 'IFBench', 0, 'append', undefined, 0.05]
];

/** Issue #13's own words for each number it added, which the point's source must quote. */
const ISSUE_PAIRS: [model: string, benchmark: string, words: string][] = [
	['gpt-oss-120B', 'GPQA-Diamond', '20.7% to 65.7%'],
	['GLM-4.7', 'GPQA-Diamond', '2.0% to 39.4%'],
	['gpt-oss-120B', 'IFBench', '1.3% to 25.7%'],
	['GLM-4.7', 'IFBench', '4.7% to 5.0%']
];

const POINT_KEYS = [
	'model',
	'benchmark',
	'temperature',
	'condition',
	'accuracy',
	'followup',
	'source',
	'uncertain'
];
const BENCHMARKS = ['GSM8K', 'GPQA-Diamond', 'IFBench'];

const points = raw.points as Record<string, unknown>[];

describe('paper figures', () => {
	it('cites the paper', () => {
		const source = raw.source as Record<string, unknown>;
		expect(source.arxiv).toBe('2604.02315');
		expect(source.authors).toBe('Sarath Shekkizhar, Romain Cosentino, Adam Earle');
		expect(source.year).toBe(2026);
		expect(source.title).toBe(
			'Beyond the Assistant Turn: User Turn Generation as a Probe of Interaction Awareness in Language Models'
		);
		expect(source.citation).toContain('arXiv:2604.02315');
	});

	it.each(PUBLISHED)(
		'has %s on %s at T=%s (%s)',
		(model, benchmark, T, condition, acc, followup) => {
			const found = points.filter(
				(p) =>
					p.model === model &&
					p.benchmark === benchmark &&
					p.temperature === T &&
					p.condition === condition
			);
			expect(found).toHaveLength(1);
			expect(found[0].followup).toBe(followup);
			expect(found[0].accuracy).toBe(acc);
		}
	);

	it('has no point beyond the published list', () => {
		expect(points).toHaveLength(PUBLISHED.length);
	});

	it('keeps the Qwen3.5-2B base GSM8K accuracy as a number that is never drawn', () => {
		expect(raw.accuracy_only).toEqual([
			{ model: 'Qwen3.5-2B (base)', benchmark: 'GSM8K', accuracy: 0.629 }
		]);
	});

	it('gives every point the PaperPoint shape with rates as fractions', () => {
		for (const p of points) {
			for (const key of Object.keys(p)) expect(POINT_KEYS).toContain(key);
			expect(typeof p.model).toBe('string');
			expect(BENCHMARKS).toContain(p.benchmark);
			expect(typeof p.temperature).toBe('number');
			expect(['none', 'truncate', 'append']).toContain(p.condition);
			for (const rate of [p.followup, p.accuracy ?? 0]) {
				expect(typeof rate).toBe('number');
				expect(rate).toBeGreaterThanOrEqual(0);
				expect(rate).toBeLessThanOrEqual(1);
			}
		}
	});

	it('gives every point its source, saying which list it comes from', () => {
		for (const p of points) {
			expect(typeof p.source).toBe('string');
			expect(p.source).toMatch(/^(Project brief|Issue #13)'s list of the paper's numbers/);
		}
		for (const [model, benchmark, words] of ISSUE_PAIRS) {
			const pair = points.filter((p) => p.model === model && p.benchmark === benchmark);
			const sourced = pair.filter((p) => String(p.source).includes(words));
			expect(sourced.map((p) => p.condition).sort()).toEqual(
				benchmark === 'IFBench' ? ['append', 'none'] : ['none', 'truncate']
			);
		}
	});

	it('marks both attributions of the GPQA-Diamond 20.7% as uncertain, and nothing else', () => {
		const uncertain = points.filter((p) => p.uncertain !== undefined);
		expect(uncertain.map((p) => `${p.model} ${p.benchmark} ${p.followup}`).sort()).toEqual([
			'gpt-oss-120B GPQA-Diamond 0.207',
			'gpt-oss-20B GPQA-Diamond 0.207'
		]);
		for (const p of uncertain) expect(p.uncertain).toMatch(/gpt-oss-20B.*gpt-oss-120B/);
	});

	it('keeps the published text-change rate under append with its source', () => {
		expect(raw.text_change).toEqual([
			{
				benchmark: null,
				condition: 'append',
				rate: 0.99,
				source: expect.stringContaining('99.0% of user turns change text under append')
			}
		]);
	});

	it('holds numbers and names only: no field outside the known set, no long text', () => {
		expect(Object.keys(raw).sort()).toEqual([
			'accuracy_only',
			'notes',
			'points',
			'source',
			'text_change'
		]);
		const strings: string[] = [];
		const walk = (v: unknown, key: string) => {
			if (
				typeof v === 'string' &&
				!['title', 'citation', 'notes', 'source', 'uncertain'].includes(key)
			)
				strings.push(v);
			else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
			else if (typeof v === 'object' && v !== null)
				for (const [k, x] of Object.entries(v)) walk(x, k);
		};
		walk(raw, '');
		for (const s of strings) expect(s.length).toBeLessThanOrEqual(64);
	});

	it('is what the app imports', () => {
		expect(PAPER_FIGURES.points).toEqual(points);
	});
});

describe('overlayFor', () => {
	it.each([
		['gsm8k', 'GSM8K'],
		['openai/gsm8k test', 'GSM8K'],
		['IFBench', 'IFBench'],
		['ifbench', 'IFBench'],
		['gpqa_diamond', 'GPQA-Diamond']
	])('keeps the %s run to %s points', (dataset, benchmark) => {
		const shown = overlayFor(PAPER_FIGURES.points, dataset);
		expect(shown.length).toBeGreaterThan(0);
		expect(shown).toEqual(PAPER_FIGURES.points.filter((p) => p.benchmark === benchmark));
	});

	it.each(['demo', 'ifeval', 'conversations', 'gpqa_main', 'my-file.jsonl', ''])(
		'draws no paper point on a %j run: the paper has no number for it',
		(dataset) => {
			expect(overlayFor(PAPER_FIGURES.points, dataset)).toEqual([]);
		}
	);

	it('names the benchmarks the paper reports on', () => {
		expect(paperBenchmarks(PAPER_FIGURES.points)).toEqual(['GSM8K', 'GPQA-Diamond', 'IFBench']);
	});
});

function summary(
	temperature: number,
	perturbation: ConditionSummary['perturbation'],
	followups: number,
	judged: number,
	correct = 0,
	scored = 0
): ConditionSummary {
	return {
		temperature,
		perturbation,
		n: judged,
		accuracy: wilson(correct, scored),
		followup: wilson(followups, judged),
		judged,
		pending: 0,
		undecided: 0,
		cut_reasoning: 0,
		judge_errors: 0,
		labels: {} as ConditionSummary['labels']
	};
}

describe('compareWithPaper', () => {
	const gsm = overlayFor(PAPER_FIGURES.points, 'gsm8k');
	const find = (
		rows: ReturnType<typeof compareWithPaper>,
		model: string,
		T: number,
		condition: string,
		measure = 'followup'
	) =>
		rows.find(
			(r) =>
				r.point.model === model &&
				r.point.temperature === T &&
				r.point.condition === condition &&
				r.measure === measure
		);

	it('says the default 10 items cannot tell 0/10 from the paper numbers inside [0, 28%]', () => {
		const rows = compareWithPaper([summary(0, 'none', 0, 10, 4, 10)], gsm);
		const none0 = rows.filter((r) => r.point.temperature === 0 && r.point.condition === 'none');
		// 0/10 → Wilson [0, 27.8%]: Qwen3.5-0.8B's 1.0%, GLM-4.7's 1.0%, gpt-oss-120B's 0% all inside.
		expect(rows[0].run?.hi).toBeCloseTo(0.2775, 3);
		for (const r of none0.filter((r) => r.measure === 'followup'))
			expect(r.verdict).toBe('indistinguishable');
		// 4/10 correct → [16.8, 68.7%]: the 397B's 96.8% lies outside, the 0.8B's 41.6% inside.
		expect(find(rows, 'Qwen3.5-397B-A17B', 0, 'none', 'accuracy')?.verdict).toBe('differs');
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none', 'accuracy')?.verdict).toBe('indistinguishable');
	});

	it('says a large run differs when the paper number is outside its interval', () => {
		const rows = compareWithPaper([summary(0, 'none', 300, 1000)], gsm);
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none')?.verdict).toBe('differs');
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none')?.run?.n).toBe(1000);
	});

	it('has no verdict where the run lacks the condition or has counted nothing', () => {
		const rows = compareWithPaper([summary(0, 'none', 0, 0)], gsm);
		expect(find(rows, 'GLM-4.7', 1, 'none')?.verdict).toBe('no_condition');
		expect(find(rows, 'GLM-4.7', 1, 'none')?.run).toBeNull();
		expect(find(rows, 'gpt-oss-120B', 0, 'truncate')?.verdict).toBe('no_condition');
		expect(find(rows, 'GLM-4.7', 0, 'none')?.verdict).toBe('no_data');
	});

	it('compares nothing when nothing is overlaid', () => {
		expect(compareWithPaper([summary(0, 'none', 1, 10)], [])).toEqual([]);
	});
});
