/**
 * static/paper-figures.json against the numbers published in Shekkizhar, Cosentino, Earle (2026),
 * arXiv:2604.02315, as summaries of the paper list them (its tables could not be read here), and
 * against the PaperPoint shape the charts read. The JSON is read from disk, not through the typed
 * import, so a bad field fails here too. Then like with like: each number only beside a run of its
 * benchmark, and a verdict only against the paper model the run's generator is.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wilson } from '../../../src/lib/stats/interval.ts';
import type { ConditionSummary } from '../../../src/lib/stats/aggregate.ts';
import {
	compareWithPaper,
	isPaperModel,
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
	['Qwen3.5-27B', 'GSM8K', 0, 'none', undefined, 0],
	['Qwen3.5-9B', 'GPQA-Diamond', 0, 'none', undefined, 0.131],
	['gpt-oss-120B', 'GPQA-Diamond', 0, 'none', undefined, 0.207],
	['gpt-oss-120B', 'GPQA-Diamond', 0, 'truncate', undefined, 0.657],
	['GLM-4.7', 'GPQA-Diamond', 0, 'none', undefined, 0.02],
	['GLM-4.7', 'GPQA-Diamond', 0, 'truncate', undefined, 0.394],
	['gpt-oss-120B', 'IFBench', 0, 'none', undefined, 0.013],
	['gpt-oss-120B', 'IFBench', 0, 'append', undefined, 0.257],
	['GLM-4.7', 'IFBench', 0, 'none', undefined, 0.047],
	['GLM-4.7', 'IFBench', 0, 'append', undefined, 0.05],
	// Qwen3.5-2B before the paper's post-training, beside its GSM8K accuracy (accuracy_only).
	['Qwen3.5-2B (base)', 'IFBench', 0, 'none', undefined, 0.01],
	['Qwen3.5-2B (base)', 'GPQA-Diamond', 0, 'none', undefined, 0.02]
];

/** The perturbation pairs, whose temperature no source gives: placed at T=0 and marked inferred. */
const PAIRS: [model: string, benchmark: string][] = [
	['GLM-4.7', 'GSM8K'],
	['gpt-oss-120B', 'GSM8K'],
	['gpt-oss-120B', 'GPQA-Diamond'],
	['GLM-4.7', 'GPQA-Diamond'],
	['gpt-oss-120B', 'IFBench'],
	['GLM-4.7', 'IFBench']
];

/** A source names where in the paper the number is: the abstract, or a part marked inferred. */
const PLACE = /^Abstract\b|^[A-Z][^,;(]* results \(place inferred\)/;
/** No source may point at this project's tracker instead of the paper. */
const TRACKER = /\bissue\b|#\d|brief/i;

const POINT_KEYS = [
	'model',
	'benchmark',
	'temperature',
	'condition',
	'accuracy',
	'followup',
	'source',
	'inferred',
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

	it('keeps the Qwen3.5-2B base GSM8K accuracy beside its follow-up rates, never drawn', () => {
		expect(raw.accuracy_only).toEqual([
			{
				model: 'Qwen3.5-2B (base)',
				benchmark: 'GSM8K',
				accuracy: 0.629,
				source: expect.stringMatching(PLACE)
			}
		]);
		const base = points.filter((p) => p.model === 'Qwen3.5-2B (base)');
		expect(base.map((p) => [p.benchmark, p.followup])).toEqual([
			['IFBench', 0.01],
			['GPQA-Diamond', 0.02]
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

	it('gives every number a source that names where in the paper it is, and no tracker', () => {
		const sources = [
			...points.map((p) => p.source),
			...(raw.accuracy_only as { source: unknown }[]).map((a) => a.source),
			...(raw.text_change as { source: unknown }[]).map((t) => t.source)
		];
		for (const source of sources) {
			expect(source).toMatch(PLACE);
			expect(source).not.toMatch(TRACKER);
		}
		// Only what the abstract states is placed there: the 397B's 96.8%, the 0.8B's 41%, the 22%.
		const abstract = points.filter((p) => String(p.source).startsWith('Abstract'));
		expect(abstract.map((p) => `${p.model} ${p.benchmark} T=${p.temperature}`).sort()).toEqual([
			'Qwen3.5-0.8B GSM8K T=0',
			'Qwen3.5-27B GSM8K T=1',
			'Qwen3.5-397B-A17B GSM8K T=0'
		]);
		for (const note of raw.notes as string[]) expect(note).not.toMatch(TRACKER);
	});

	it('marks the temperature of every perturbation pair and of the 2B base rates as inferred', () => {
		const inferred = points.filter((p) => p.inferred !== undefined);
		const expected = [
			...PAIRS.flatMap(([m, b]) => points.filter((p) => p.model === m && p.benchmark === b)),
			...points.filter((p) => p.model === 'Qwen3.5-2B (base)')
		].filter((p) => p.temperature === 0);
		expect(new Set(inferred)).toEqual(new Set(expected));
		for (const p of inferred) expect(p.inferred).toMatch(/^temperature/);
		// No note argues a placement from the number it places.
		expect((raw.notes as string[]).join(' ')).not.toMatch(/matches its deterministic rate/);
	});

	it('marks both attributions of the GPQA-Diamond 20.7% as uncertain, and nothing else', () => {
		const uncertain = points.filter((p) => p.uncertain !== undefined);
		expect(uncertain.map((p) => `${p.model} ${p.benchmark} ${p.followup}`).sort()).toEqual([
			'gpt-oss-120B GPQA-Diamond 0.207',
			'gpt-oss-20B GPQA-Diamond 0.207'
		]);
		for (const p of uncertain) expect(p.uncertain).toMatch(/gpt-oss-20B.*gpt-oss-120B/);
	});

	it('keeps the 99.0% text-change rate as IFBench, gpt-oss-120B and GLM-4.7 under append', () => {
		expect(raw.text_change).toEqual([
			{
				benchmark: 'IFBench',
				models: ['gpt-oss-120B', 'GLM-4.7'],
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
				!['title', 'citation', 'notes', 'source', 'uncertain', 'inferred'].includes(key)
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

	it('names the benchmarks this app holds paper numbers for', () => {
		expect(paperBenchmarks(PAPER_FIGURES.points)).toEqual(['GSM8K', 'GPQA-Diamond', 'IFBench']);
	});

	it.each(['gsm8k', 'gpqa_diamond', 'demo', 'ifeval', 'conversations'])(
		'shows the 99.0%% text-change rate on no %s run: it was measured on IFBench',
		(dataset) => {
			expect(overlayFor(PAPER_FIGURES.text_change, dataset)).toEqual([]);
		}
	);

	it('shows the 99.0% text-change rate beside an IFBench run', () => {
		expect(overlayFor(PAPER_FIGURES.text_change, 'ifbench').map((t) => t.rate)).toEqual([0.99]);
	});

	it('lists the 2B base GSM8K accuracy on a GSM8K run only', () => {
		expect(overlayFor(PAPER_FIGURES.accuracy_only, 'gsm8k')).toHaveLength(1);
		expect(overlayFor(PAPER_FIGURES.accuracy_only, 'ifbench')).toEqual([]);
	});
});

describe('isPaperModel', () => {
	it.each([
		['Qwen3.5-2B (base)', { id: 'Qwen/Qwen3.5-2B' }],
		['Qwen3.5-2B (base)', { id: 'Qwen3.5-2B-q4f16_1-MLC', template_repo: 'Qwen/Qwen3.5-2B' }],
		['gpt-oss-20B', { id: 'openai/gpt-oss-20b' }],
		['GLM-4.7', { id: 'glm', template_repo: 'zai-org/GLM-4.7' }],
		['Qwen3.5-397B-A17B', { id: 'Qwen/Qwen3.5-397B-A17B' }]
	])('knows %s in a run of %j', (model, generator) => {
		expect(isPaperModel(model, generator)).toBe(true);
	});

	it.each([
		['Qwen3.5-2B (base)', { id: 'Qwen/Qwen3.5-27B' }],
		['Qwen3.5-27B', { id: 'Qwen/Qwen3.5-2B' }],
		['gpt-oss-20B', { id: 'openai/gpt-oss-120b' }],
		['GLM-4.7', { id: 'zai-org/GLM-4.7-Flash' }],
		['Qwen3.5-0.8B', { id: 'Qwen3-0.6B-q4f16_1-MLC', template_repo: 'Qwen/Qwen3-0.6B' }],
		['Qwen3.5-0.8B', { id: 'qwen' }]
	])('does not take %s for a run of %j', (model, generator) => {
		expect(isPaperModel(model, generator)).toBe(false);
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
		verdict_conflicts: 0,
		labels: {} as ConditionSummary['labels']
	};
}

describe('compareWithPaper', () => {
	const gsm = overlayFor(PAPER_FIGURES.points, 'gsm8k');
	const QWEN_08B = { id: 'Qwen3.5-0.8B-q4f16_1-MLC', template_repo: 'Qwen/Qwen3.5-0.8B' };
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

	it('says the default 10 items cannot tell 0/10 from the model’s number inside [0, 28%]', () => {
		const rows = compareWithPaper([summary(0, 'none', 0, 10, 4, 10)], gsm, QWEN_08B);
		// 0/10 → Wilson [0, 27.8%]: Qwen3.5-0.8B's 1.0% is inside.
		const followup = find(rows, 'Qwen3.5-0.8B', 0, 'none');
		expect(followup?.run?.hi).toBeCloseTo(0.2775, 3);
		expect(followup?.verdict).toBe('indistinguishable');
		// 4/10 correct → [16.8, 68.7%]: the 0.8B's 41.6% inside.
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none', 'accuracy')?.verdict).toBe('indistinguishable');
	});

	it('says a large run differs when its model’s number is outside its interval', () => {
		const rows = compareWithPaper([summary(0, 'none', 300, 1000, 300, 1000)], gsm, QWEN_08B);
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none')?.verdict).toBe('differs');
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none')?.run?.n).toBe(1000);
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none', 'accuracy')?.verdict).toBe('differs');
	});

	it('gives a Qwen3.5-2B run a verdict only against Qwen3.5-2B’s numbers', () => {
		const ifbench = overlayFor(PAPER_FIGURES.points, 'ifbench');
		const run = compareWithPaper([summary(0, 'none', 0, 10)], ifbench, {
			id: 'Qwen3.5-2B-q4f16_1-MLC',
			template_repo: 'Qwen/Qwen3.5-2B'
		});
		const judged = run.filter((r) => r.verdict !== 'other_model');
		expect(judged.map((r) => `${r.point.model} ${r.measure}`)).toEqual([
			'Qwen3.5-2B (base) followup'
		]);
		expect(judged[0].verdict).toBe('indistinguishable');
		// The others stay as context: every one listed, none with this run's rate or a verdict.
		const context = run.filter((r) => r.verdict === 'other_model');
		expect(context.length).toBe(run.length - 1);
		expect(new Set(context.map((r) => r.point.model))).toEqual(
			new Set(['Qwen3.5-397B-A17B', 'Qwen3.5-27B', 'gpt-oss-120B', 'GLM-4.7'])
		);
		for (const r of context) expect(r.run).toBeNull();
	});

	it('compares nothing with a generator that is none of the paper’s models', () => {
		const rows = compareWithPaper([summary(0, 'none', 0, 10, 4, 10)], gsm, {
			id: 'Qwen3-0.6B-q4f16_1-MLC',
			template_repo: 'Qwen/Qwen3-0.6B'
		});
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.every((r) => r.verdict === 'other_model' && r.run === null)).toBe(true);
	});

	it('has no verdict where the run lacks the condition or has counted nothing', () => {
		const glm = { id: 'zai-org/GLM-4.7' };
		const rows = compareWithPaper([summary(0, 'none', 0, 0)], gsm, glm);
		expect(find(rows, 'GLM-4.7', 1, 'none')?.verdict).toBe('no_condition');
		expect(find(rows, 'GLM-4.7', 1, 'none')?.run).toBeNull();
		expect(find(rows, 'GLM-4.7', 0, 'truncate')?.verdict).toBe('no_condition');
		expect(find(rows, 'GLM-4.7', 0, 'none')?.verdict).toBe('no_data');
	});

	it('compares nothing when nothing is overlaid', () => {
		expect(compareWithPaper([summary(0, 'none', 1, 10)], [], QWEN_08B)).toEqual([]);
	});
});
