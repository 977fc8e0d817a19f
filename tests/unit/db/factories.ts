/** Test data builders with overrides, shaped exactly like what the pipeline and the CLI write. */
import type { Annotation, RunBundle } from '../../../src/lib/probe/exchange.ts';
import type {
	AnswerRecord,
	Label,
	Perturbation,
	ProbeRecord,
	RunManifest
} from '../../../src/lib/probe/types.ts';

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
