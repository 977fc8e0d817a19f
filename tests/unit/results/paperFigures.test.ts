/**
 * static/paper-figures.json against the numbers published in Shekkizhar, Cosentino, Earle (2026),
 * arXiv:2604.02315, as the paper's page (abstract, captions) and a summary of its results state them
 * (../shared/paper; its tables could not be read here): every number cites a file, a place and the
 * words, and the words are in the file. Then against the PaperPoint shape the charts read. The JSON is read from disk, not through the typed
 * import, so a bad field fails here too. Then like with like: each number only beside a run of its
 * benchmark, and a verdict only against the paper model the run's generator is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wilson } from '../../../src/lib/stats/interval.ts';
import type { ConditionSummary } from '../../../src/lib/stats/aggregate.ts';
import { resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { makeRecord } from '../../helpers/factories.ts';
import {
	compareWithPaper,
	isPaperModel,
	overlayFor,
	PAPER_FIGURES,
	paperBenchmarks,
	textChangeBeside
} from '../../../src/lib/results/paperFigures.ts';

/** The texts the project was built from, beside the clone as the fixtures are (CI has them too). */
const PAPER_DIR = new URL('../../../../shared/paper/', import.meta.url);
const paperText = (file: string) =>
	readFileSync(new URL(file, PAPER_DIR), 'utf8').replace(/\s+/g, ' ');

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
	['Qwen3.5-2B (base)', 'GPQA-Diamond', 0, 'none', undefined, 0.02],
	['Qwen3.5-2B (base)', 'HealthBench', 0, 'none', undefined, 0.367],
	['Qwen3.5-2B (base)', 'Coval', 0, 'none', undefined, 0.194],
	// The post-training table's SFT and RL variants (../shared/paper/002, 'Post-training helps').
	['Qwen3.5-2B (SFT)', 'IFBench', 0, 'none', undefined, 0.48],
	['Qwen3.5-2B (SFT)', 'GPQA-Diamond', 0, 'none', undefined, 0.46],
	['Qwen3.5-2B (SFT)', 'HealthBench', 0, 'none', undefined, 0.544],
	['Qwen3.5-2B (SFT)', 'Coval', 0, 'none', undefined, 0.452],
	['Qwen3.5-2B (RL)', 'IFBench', 0, 'none', undefined, 0.1],
	['Qwen3.5-2B (RL)', 'GPQA-Diamond', 0, 'none', undefined, 0.091],
	['Qwen3.5-2B (RL)', 'HealthBench', 0, 'none', undefined, 0.465],
	['Qwen3.5-2B (RL)', 'Coval', 0, 'none', undefined, 0.29]
];

/** Figure 1's caption states these: read, not inferred (../shared/paper/000, Figure 1 caption). */
const FIGURE_1: [model: string, benchmark: string, T: number, followup: number][] = [
	['Qwen3.5-27B', 'GSM8K', 0, 0],
	['Qwen3.5-27B', 'GSM8K', 1, 0.22],
	['Qwen3.5-9B', 'GPQA-Diamond', 0, 0.131]
];
const POST_TRAINED = ['Qwen3.5-2B (base)', 'Qwen3.5-2B (SFT)', 'Qwen3.5-2B (RL)'];

/** The perturbation pairs, whose temperature no source gives: placed at T=0 and marked inferred. */
const PAIRS: [model: string, benchmark: string][] = [
	['GLM-4.7', 'GSM8K'],
	['gpt-oss-120B', 'GSM8K'],
	['gpt-oss-120B', 'GPQA-Diamond'],
	['GLM-4.7', 'GPQA-Diamond'],
	['gpt-oss-120B', 'IFBench'],
	['GLM-4.7', 'IFBench']
];

/**
 * A source names where the number is: the abstract or Figure 1's caption (the paper's page), or a
 * part of the results as a summary of the paper reports it.
 */
const PLACE =
	/^Abstract\b|^Figure 1 caption\b|^[A-Z][^,;]* (results|table)\b.*, as a summary of the paper's results reports it/;
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
	'cite',
	'inferred',
	'uncertain'
];
const BENCHMARKS = ['GSM8K', 'GPQA-Diamond', 'IFBench', 'HealthBench', 'Coval'];

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

	it('keeps the post-training table: GSM8K accuracy beside the follow-up rates, never drawn', () => {
		expect(raw.accuracy_only).toEqual(
			[
				['Qwen3.5-2B (base)', 0.629],
				['Qwen3.5-2B (SFT)', 0.403],
				['Qwen3.5-2B (RL)', 0.674]
			].map(([model, accuracy]) => ({
				model,
				benchmark: 'GSM8K',
				accuracy,
				source: expect.stringMatching(PLACE),
				cite: expect.any(Array)
			}))
		);
		for (const model of POST_TRAINED) {
			const rows = points.filter((p) => p.model === model);
			expect(rows.map((p) => p.benchmark)).toEqual([
				'IFBench',
				'GPQA-Diamond',
				'HealthBench',
				'Coval'
			]);
		}
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
		// Only what the abstract states is placed there: the 397B's 96.8% and the 0.8B's 41%.
		const abstract = points.filter((p) => String(p.source).startsWith('Abstract'));
		expect(abstract.map((p) => `${p.model} ${p.benchmark} T=${p.temperature}`).sort()).toEqual([
			'Qwen3.5-0.8B GSM8K T=0',
			'Qwen3.5-397B-A17B GSM8K T=0'
		]);
		for (const note of raw.notes as string[]) expect(note).not.toMatch(TRACKER);
	});

	type Cite = { file: string; place: string; quote: string };
	const cited = [
		...points.map((p) => [`${p.model} ${p.benchmark} T=${p.temperature}`, p] as const),
		...(raw.accuracy_only as Record<string, unknown>[]).map(
			(a) => [`${a.model} ${a.benchmark} accuracy`, a] as const
		),
		...(raw.text_change as Record<string, unknown>[]).map(
			(t) => [`text change ${t.benchmark}`, t] as const
		)
	];
	it.each(cited)('cites a paper file, a place and words that are in it: %s', (_name, entry) => {
		const cites = entry.cite as Cite[];
		expect(cites.length).toBeGreaterThan(0);
		for (const cite of cites) {
			expect(Object.keys(cite).sort()).toEqual(['file', 'place', 'quote']);
			expect(existsSync(new URL(cite.file, PAPER_DIR)), cite.file).toBe(true);
			expect(cite.place).not.toBe('');
			expect(paperText(cite.file)).toContain(cite.quote.replace(/\s+/g, ' '));
		}
		// The number itself is in the words cited, as a percentage.
		const numbers = [entry.followup, entry.accuracy, entry.rate].filter(
			(x): x is number => typeof x === 'number'
		);
		const words = cites.map((c) => c.quote).join(' ');
		for (const x of numbers) {
			const pct = Math.round(x * 1000) / 10;
			const forms = [`${pct.toFixed(1)}%`, `${pct}%`, `$${pct}\\%$`];
			expect(
				forms.some((f) => words.includes(f)),
				`${x} in ${words}`
			).toBe(true);
		}
	});

	it.each(FIGURE_1)(
		"places Figure 1's caption point %s on %s at T=%s as read, not inferred",
		(model, benchmark, T, followup) => {
			const p = points.find(
				(x) => x.model === model && x.benchmark === benchmark && x.temperature === T
			);
			expect(p?.followup).toBe(followup);
			expect(p?.inferred).toBeUndefined();
			expect(p?.source).toMatch(/^Figure 1 caption/);
			expect((p?.cite as Cite[])[0]).toMatchObject({
				file: '000_de9208a95bfff284.txt',
				place: 'Figure 1 caption'
			});
		}
	);

	it('marks the temperature of every perturbation pair and of the post-training rates as inferred', () => {
		const inferred = points.filter((p) => p.inferred !== undefined);
		const expected = [
			...PAIRS.flatMap(([m, b]) => points.filter((p) => p.model === m && p.benchmark === b)),
			...points.filter((p) => POST_TRAINED.includes(String(p.model)))
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
				source: expect.stringContaining('99.0% of user turns change text under append'),
				cite: expect.any(Array)
			}
		]);
	});

	it('puts the 99.0% beside T=0 rows only: above T=0 the seed alone changes the text', () => {
		const published = PAPER_FIGURES.text_change;
		expect(textChangeBeside(published, { temperature: 0, perturbation: 'append' })?.rate).toBe(
			0.99
		);
		expect(textChangeBeside(published, { temperature: 0.7, perturbation: 'append' })).toBe(
			undefined
		);
		expect(textChangeBeside(published, { temperature: 0, perturbation: 'truncate' })).toBe(
			undefined
		);
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
				!['title', 'citation', 'notes', 'source', 'uncertain', 'inferred', 'quote'].includes(key)
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
		expect(paperBenchmarks(PAPER_FIGURES.points)).toEqual([
			'GSM8K',
			'GPQA-Diamond',
			'IFBench',
			'HealthBench',
			'Coval'
		]);
		// A HealthBench file imported by name gets the post-training table's HealthBench rates.
		expect(
			overlayFor(PAPER_FIGURES.points, 'healthbench_oss_eval.jsonl').map((p) => p.followup)
		).toEqual([0.367, 0.544, 0.465]);
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

	it('lists the post-training GSM8K accuracies on a GSM8K run only', () => {
		expect(overlayFor(PAPER_FIGURES.accuracy_only, 'gsm8k')).toHaveLength(3);
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
		['Qwen3.5-0.8B', { id: 'qwen' }],
		// The post-trained variants are not a public model: a Qwen3.5-2B run is the base only.
		['Qwen3.5-2B (SFT)', { id: 'Qwen/Qwen3.5-2B' }],
		['Qwen3.5-2B (RL)', { id: 'Qwen3.5-2B-q4f16_1-MLC', template_repo: 'Qwen/Qwen3.5-2B' }]
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

	it('draws no verdict for a rules-only condition: it has no rate, only its accuracy compares', () => {
		// Rules only: a degenerate loop, and turns no rule decides (undecided), never "genuine".
		const records = Array.from({ length: 300 }, (_, i) =>
			makeRecord({
				key: `k${i}`,
				item_id: `gsm8k-${i}`,
				temperature: 0,
				perturbation: 'none',
				correct: i % 2 === 0,
				label: i % 3 === 0 ? 'degenerate' : 'undecided',
				verdict: i % 3 === 0 ? 'not_genuine' : null,
				label_source: 'rules',
				judge_label: null
			})
		);
		const { conditions } = resultsTable(records, []);
		expect(conditions[0].followup).toBeNull();
		const rows = compareWithPaper(conditions, gsm, QWEN_08B);
		// The rules never say genuine: a 0% over the decided turns would be 0 by construction.
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none')).toMatchObject({ run: null, verdict: 'no_rate' });
		expect(rows.filter((r) => r.measure === 'followup').map((r) => r.verdict)).not.toContain(
			'differs'
		);
		expect(find(rows, 'Qwen3.5-0.8B', 0, 'none', 'accuracy')?.run?.n).toBe(300);
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
			new Set([
				'Qwen3.5-397B-A17B',
				'Qwen3.5-27B',
				'gpt-oss-120B',
				'GLM-4.7',
				'Qwen3.5-2B (SFT)',
				'Qwen3.5-2B (RL)'
			])
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
