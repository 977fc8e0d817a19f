/**
 * The one set of test data builders (chat-ui's `assistantMessage(overrides)` pattern): records,
 * answers, manifests, annotations and whole runs shaped exactly like what the pipeline and the CLI
 * write, plus configs and dataset items (fixture templates: fixtures.ts). Every builder takes overrides; a
 * record's key follows its item, temperature, perturbation and sample unless given.
 */
import type { Annotation, RunBundle } from '../../src/lib/probe/exchange.ts';
import { mulberry32, randomInt } from '../../src/lib/probe/random.ts';
import type { RunValues } from '../../src/lib/probe/runConfig.ts';
import { BARE_TASK_PROMPT } from '../../src/lib/probe/taskPrompt.ts';
import { LABELS } from '../../src/lib/probe/types.ts';
import type {
	AnswerRecord,
	DatasetItem,
	Label,
	Perturbation,
	ProbeConfig,
	ProbeRecord,
	RunManifest
} from '../../src/lib/probe/types.ts';

export function gsmItem(i: number, overrides: Partial<DatasetItem> = {}): DatasetItem {
	return {
		id: `item-${i}`,
		task: 'gsm8k',
		prompt: `Sam has ${i + 2} apples and buys ${i + 3} more. How many apples does Sam have now?`,
		gold: String(2 * i + 5),
		...overrides
	};
}

export function probeConfig(overrides: Partial<ProbeConfig> = {}): ProbeConfig {
	return {
		run_id: 'run-1',
		dataset: 'test',
		generator: { id: 'gen-model', template_repo: 'Qwen/Qwen2.5-0.5B-Instruct' },
		judge: { id: 'judge-model' },
		judge_mode: 'llm',
		items: [0, 1, 2, 3, 4].map((i) => gsmItem(i)),
		seed: 1234,
		temperatures: [0, 0.7, 1],
		perturbations: ['none', 'truncate', 'append'],
		samples: 2,
		answer_temperature: 0,
		top_p: 1,
		max_tokens: 64,
		answer_max_tokens: 128,
		thinking: false,
		truncate_fraction: 0.5,
		append_text: 'What do you think?',
		date_string: '26 Jul 2024',
		...overrides
	};
}

/** The smallest run: one item, one greedy unperturbed user turn, labelled by the rules alone. */
export function oneTurnConfig(overrides: Partial<ProbeConfig> = {}): ProbeConfig {
	return probeConfig({
		items: [gsmItem(0)],
		temperatures: [0],
		perturbations: ['none'],
		samples: 1,
		judge_mode: 'rules',
		...overrides
	});
}

/** Plain values a run is prepared from (probe/runConfig.ts), matching probeConfig's defaults. */
export function runValues(overrides: Partial<RunValues> = {}): RunValues {
	return {
		run_id: 'run-1',
		dataset: 'test',
		items: [0, 1, 2, 3, 4].map((i) => gsmItem(i)),
		limit: 0,
		seed: 1234,
		temperatures: [0, 0.7, 1],
		perturbations: ['none', 'truncate', 'append'],
		samples: 2,
		judge_mode: 'llm',
		generator: { id: 'gen-model', template_repo: 'Qwen/Qwen2.5-0.5B-Instruct' },
		judge: { id: 'judge-model' },
		max_tokens: 64,
		answer_max_tokens: 128,
		answer_tokens_auto: false,
		thinking: null,
		thinking_default: null,
		truncate_fraction: 0.5,
		append_text: 'What do you think?',
		task_prompt: BARE_TASK_PROMPT,
		template_sha256: undefined,
		...overrides
	};
}

const CREATED_AT = '2026-04-02T12:00:00.000Z';

export function makeRecord(overrides: Partial<ProbeRecord> = {}): ProbeRecord {
	const item_id = overrides.item_id ?? 'gsm8k-0';
	const temperature = overrides.temperature ?? 0.7;
	const perturbation = overrides.perturbation ?? 'none';
	const sample = overrides.sample ?? 0;
	return {
		run_id: 'run-a',
		key: `${item_id}|${temperature}|${perturbation}|${sample}`,
		item_id,
		task: 'gsm8k',
		temperature,
		perturbation,
		sample,
		seed: 42,
		question: 'Natalia sold clips to 48 of her friends. How many clips did she sell?',
		answer: 'She sold 72 clips.\n#### 72',
		perturbed_answer: 'She sold 72 clips.\n#### 72',
		prompt: '<|im_start|>user\nNatalia sold…<|im_end|>\n<|im_start|>user\n',
		user_turn: 'Can you explain how you got 72?',
		finish_reason: 'stop',
		correct: true,
		rule_label: 'undecided',
		rule_reason: 'no rule matched',
		judge_label: 'genuine_followup',
		judge_rationale: 'asks a new question about the answer',
		judge_raw: '{"label":"genuine_followup"}',
		judge_prompt_id: 'judge-v1',
		judge_prompt_hash: 'abc123',
		label: 'genuine_followup',
		label_source: 'judge',
		usage: { prompt_tokens: 120, completion_tokens: 12, decode_tps: 30.5 },
		judge_usage: { prompt_tokens: 300, completion_tokens: 20 },
		created_at: CREATED_AT,
		...overrides
	};
}

export function makeManifest(overrides: Partial<RunManifest> = {}): RunManifest {
	const run_id = overrides.run_id ?? 'run-a';
	return {
		run_id,
		app_version: '0.1.0',
		created_at: CREATED_AT,
		engine: 'scripted',
		config: {
			run_id,
			dataset: 'gsm8k',
			generator: { id: 'Qwen3-0.6B-q4f16_1-MLC', template_repo: 'Qwen/Qwen3-0.6B' },
			judge: { id: 'Qwen3-0.6B-q4f16_1-MLC' },
			judge_mode: 'hybrid',
			item_ids: ['gsm8k-0', 'gsm8k-1'],
			seed: 42,
			temperatures: [0, 0.7],
			perturbations: ['none', 'truncate'],
			samples: 1,
			answer_temperature: 0,
			top_p: 0.95,
			max_tokens: 128,
			answer_max_tokens: 512,
			thinking: false,
			truncate_fraction: 0.5,
			append_text: ' By the way,',
			date_string: '26 Jul 2024'
		},
		judge_prompt_id: 'judge-v1',
		judge_prompt_hash: 'abc123',
		status: 'done',
		...overrides
	};
}

export function makeAnswer(overrides: Partial<AnswerRecord> = {}): AnswerRecord {
	return {
		run_id: 'run-a',
		item_id: 'gsm8k-0',
		prompt: 'Natalia sold clips…',
		answer: 'She sold 72 clips.\n#### 72',
		finish_reason: 'stop',
		correct: true,
		score_detail: 'predicted 72, gold 72',
		seed: 42,
		usage: { prompt_tokens: 60, completion_tokens: 40 },
		created_at: CREATED_AT,
		...overrides
	};
}

export function makeAnnotation(overrides: Partial<Annotation> = {}): Annotation {
	return {
		run_id: 'run-a',
		key: 'gsm8k-0|0.7|none|0',
		annotator: 'alice',
		label: 'genuine_followup',
		created_at: CREATED_AT,
		...overrides
	};
}

const CYCLE: Label[] = ['genuine_followup', 'prompt_restatement', 'degenerate', 'meta_planning'];
const PERTURBATIONS: Perturbation[] = ['none', 'truncate', 'append'];

/** `n` distinct records of one run, varied over item, temperature, perturbation and label. */
export function makeRecords(n: number, runId = 'run-a'): ProbeRecord[] {
	return Array.from({ length: n }, (_, i) =>
		makeRecord({
			run_id: runId,
			item_id: `gsm8k-${Math.floor(i / 6)}`,
			temperature: i % 2 === 0 ? 0 : 0.7,
			perturbation: PERTURBATIONS[Math.floor(i / 2) % 3],
			label: CYCLE[i % CYCLE.length],
			sample: 0
		})
	);
}

/** A complete run: manifest, `n` records, one answer per item and a couple of annotations. */
export function makeBundle(n = 12, runId = 'run-a'): RunBundle {
	const records = makeRecords(n, runId);
	const itemIds = [...new Set(records.map((r) => r.item_id))];
	return {
		manifest: makeManifest({ run_id: runId }),
		records,
		answers: itemIds.map((item_id) => makeAnswer({ run_id: runId, item_id })),
		annotations: [
			makeAnnotation({ run_id: runId, key: records[0].key, annotator: 'alice' }),
			makeAnnotation({ run_id: runId, key: records[0].key, annotator: 'bob', label: 'degenerate' })
		]
	};
}

/**
 * What the statistics tests' records always held beyond the fields a synthetic run varies: no
 * judge output, so only `label` (and `correct`) carry meaning.
 */
const SYNTHETIC_BASE: Partial<ProbeRecord> = {
	run_id: 'run',
	seed: 0,
	question: 'q',
	answer: 'a',
	perturbed_answer: 'a',
	prompt: 'p',
	user_turn: 'u',
	rule_reason: '',
	judge_label: null,
	judge_rationale: null,
	judge_raw: null,
	judge_prompt_id: null,
	judge_prompt_hash: undefined,
	usage: { prompt_tokens: 0, completion_tokens: 0 },
	judge_usage: undefined,
	created_at: '2026-01-01T00:00:00.000Z'
};

export interface SyntheticOptions {
	seed: number;
	items: number;
	samples: number;
	temperatures: number[];
	perturbations: Perturbation[];
	/** Probability of genuine_followup per condition key `${t}|${p}`; default 0.3. */
	followup?: (t: number, p: Perturbation) => number;
	/** Fraction of records still pending. */
	pending?: number;
}

/** A full synthetic run: every item × temperature × perturbation × sample, seeded. */
export function makeSyntheticRun(opts: SyntheticOptions): ProbeRecord[] {
	const rng = mulberry32(opts.seed);
	// A judged run: undecided is rules-only labelling's, not a label a judge gives.
	const others = LABELS.filter((l) => l !== 'genuine_followup' && l !== 'undecided');
	const out: ProbeRecord[] = [];
	const correct = Array.from({ length: opts.items }, () => rng() < 0.6);
	for (let i = 0; i < opts.items; i++) {
		for (const temperature of opts.temperatures) {
			for (const perturbation of opts.perturbations) {
				const p = opts.followup?.(temperature, perturbation) ?? 0.3;
				for (let sample = 0; sample < opts.samples; sample++) {
					let label: Label | null =
						rng() < p ? 'genuine_followup' : others[randomInt(rng, others.length)];
					if (rng() < (opts.pending ?? 0)) label = null;
					out.push(
						makeRecord({
							...SYNTHETIC_BASE,
							item_id: `item-${i}`,
							temperature,
							perturbation,
							sample,
							correct: correct[i],
							label
						})
					);
				}
			}
		}
	}
	return out;
}
