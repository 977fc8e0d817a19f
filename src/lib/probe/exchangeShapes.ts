/**
 * The field rules of the exchange format (see exchange.ts): one table per shape, used both to
 * validate what is read and to order the keys of what is written. Pure data and small helpers.
 */
import {
	HUMAN_VERDICTS,
	LABELS,
	PERTURBATIONS,
	REASONING_EFFORTS,
	REFERENCE_GROUNDINGS,
	TASK_KINDS,
	USER_HEADER_CUTS,
	VERDICTS
} from './types.ts';
import { TASK_PRESETS } from './taskPrompt.ts';
import type { FinishReason, JudgeMode, RunManifest } from './types.ts';

// ---- Field rules. The order of each shape is also the key order written to files. ----

export interface Rule {
	expect: string;
	test: (v: unknown) => boolean;
	optional?: boolean;
	shape?: Shape;
}
export type Shape = Record<string, Rule>;

export function isObject(v: unknown): v is Record<string, unknown> {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}
const rule = (expect: string, test: (v: unknown) => boolean): Rule => ({ expect, test });
const STRING = rule('a string', (v) => typeof v === 'string');
const ID = rule('a non-empty string', (v) => typeof v === 'string' && v !== '');
const NUMBER = rule('a number', (v) => typeof v === 'number' && Number.isFinite(v));
const INTEGER = rule('an integer', (v) => Number.isInteger(v));
const COUNT = rule('a non-negative integer', (v) => Number.isInteger(v) && (v as number) >= 0);
const BOOLEAN = rule('a boolean', (v) => typeof v === 'boolean');
const optional = (r: Rule): Rule => ({ ...r, optional: true });
const nullable = (r: Rule): Rule => ({
	...r,
	expect: `${r.expect} or null`,
	test: (v) => v === null || r.test(v)
});
const oneOf = (values: readonly string[]): Rule =>
	rule(`one of ${values.join(', ')}`, (v) => typeof v === 'string' && values.includes(v));
const object = (shape: Shape): Rule => ({ ...rule('an object', isObject), shape });
const arrayOf = (expect: string, item: Rule): Rule =>
	rule(expect, (v) => Array.isArray(v) && v.every(item.test));

// Record<Union, true> makes the compiler flag a member added to the union but not listed here.
const FINISH: Record<FinishReason, true> = { stop: true, length: true, abort: true, error: true };
const MODES: Record<JudgeMode, true> = { rules: true, llm: true, hybrid: true };
const STATUSES: Record<RunManifest['status'], true> = {
	running: true,
	paused: true,
	done: true,
	failed: true
};
const LABEL = oneOf(LABELS);

export const USAGE: Shape = {
	prompt_tokens: NUMBER,
	completion_tokens: NUMBER,
	prefill_tps: optional(NUMBER),
	decode_tps: optional(NUMBER),
	ttft_ms: optional(NUMBER),
	total_ms: optional(NUMBER)
};

export const RECORD: Shape = {
	run_id: ID,
	key: ID,
	item_id: ID,
	task: oneOf(TASK_KINDS),
	temperature: NUMBER,
	perturbation: oneOf(PERTURBATIONS),
	sample: COUNT,
	seed: INTEGER,
	question: STRING,
	answer: STRING,
	perturbed_answer: STRING,
	prompt: STRING,
	user_turn: STRING,
	finish_reason: oneOf(Object.keys(FINISH)),
	answer_finish_reason: optional(oneOf(Object.keys(FINISH))),
	correct: nullable(BOOLEAN),
	rule_label: LABEL,
	rule_reason: STRING,
	judge_label: nullable(LABEL),
	judge_rationale: nullable(STRING),
	judge_raw: nullable(STRING),
	judge_prompt_id: nullable(STRING),
	judge_prompt_hash: optional(nullable(STRING)),
	label: nullable(LABEL),
	verdict: optional(nullable(oneOf(VERDICTS))),
	label_source: nullable(oneOf(['rules', 'judge'])),
	usage: object(USAGE),
	judge_usage: optional(object(USAGE)),
	reference_turn: optional(STRING),
	reference_grounding: optional(nullable(oneOf(REFERENCE_GROUNDINGS))),
	reference_grounding_raw: optional(nullable(STRING)),
	reference_prompt_id: optional(nullable(STRING)),
	created_at: STRING
};

export const ANSWER: Shape = {
	run_id: ID,
	item_id: ID,
	prompt: STRING,
	answer: STRING,
	thinking: optional(STRING),
	completion: optional(STRING),
	finish_reason: oneOf(Object.keys(FINISH)),
	correct: nullable(BOOLEAN),
	score_detail: STRING,
	seed: INTEGER,
	usage: object(USAGE),
	created_at: STRING
};

export const ANNOTATION: Shape = {
	run_id: ID,
	key: ID,
	annotator: ID,
	label: LABEL,
	verdict: optional(oneOf(HUMAN_VERDICTS)),
	created_at: STRING,
	session_id: optional(STRING)
};

const MODEL_REF: Shape = { id: ID, template_repo: optional(STRING) };

const CONFIG: Shape = {
	run_id: ID,
	dataset: STRING,
	dataset_note: optional(STRING),
	generator: object(MODEL_REF),
	judge: object(MODEL_REF),
	judge_mode: oneOf(Object.keys(MODES)),
	item_ids: arrayOf('an array of strings', STRING),
	seed: INTEGER,
	temperatures: arrayOf('an array of numbers', NUMBER),
	perturbations: arrayOf(`an array of ${PERTURBATIONS.join('/')}`, oneOf(PERTURBATIONS)),
	samples: COUNT,
	samples_at_t0: optional(COUNT),
	answer_temperature: NUMBER,
	top_p: NUMBER,
	max_tokens: COUNT,
	answer_max_tokens: COUNT,
	thinking: BOOLEAN,
	user_header: optional(oneOf(USER_HEADER_CUTS)),
	reasoning_effort: optional(oneOf(REASONING_EFFORTS)),
	truncate_fraction: NUMBER,
	append_text: STRING,
	date_string: STRING,
	task_prompt: optional(object({ preset: oneOf(TASK_PRESETS), template: STRING, system: STRING }))
};

export const MANIFEST: Shape = {
	run_id: ID,
	app_version: STRING,
	created_at: STRING,
	engine: STRING,
	engine_version: optional(STRING),
	config: object(CONFIG),
	template_sha256: optional(STRING),
	judge_template_sha256: optional(STRING),
	nlp_data: optional(STRING),
	judge_prompt_id: STRING,
	judge_prompt_hash: STRING,
	adapter: optional(
		rule('an object of strings', (v) => isObject(v) && Object.values(v).every(STRING.test))
	),
	identity: optional(
		rule(
			'an object of strings, numbers, booleans or null',
			(v) =>
				isObject(v) &&
				Object.values(v).every(
					(x) => x === null || ['string', 'number', 'boolean'].includes(typeof x)
				)
		)
	),
	config_hash: optional(STRING),
	status: oneOf(Object.keys(STATUSES))
};

/** Problems with `value` against `shape`: "field a.b must be …" or "field a is missing". */
export function checkShape(value: unknown, shape: Shape, prefix = ''): string[] {
	if (!isObject(value))
		return [prefix ? `field ${prefix} must be an object` : 'expected a JSON object'];
	const problems: string[] = [];
	for (const [name, r] of Object.entries(shape)) {
		const path = prefix + name;
		const v = value[name];
		if (v === undefined) {
			if (!r.optional) problems.push(`field ${path} is missing`);
		} else if (!r.test(v)) {
			problems.push(`field ${path} must be ${r.expect}`);
		} else if (r.shape) {
			problems.push(...checkShape(v, r.shape, `${path}.`));
		}
	}
	return problems;
}

// ---- Writing: stable key order, secrets stripped. ----

/** Key names that hold credentials, compared with case and punctuation removed. */
const SECRET_NAMES = new Set([
	'authorization',
	'accesstoken',
	'authtoken',
	'bearertoken',
	'hftoken',
	'password',
	'secret',
	'clientsecret'
]);

function isSecretKey(name: string): boolean {
	const plain = name.toLowerCase().replace(/[^a-z]/g, '');
	return plain.endsWith('apikey') || SECRET_NAMES.has(plain);
}

/** Deep copy with object keys sorted and secret keys removed: the order for unknown data. */
function canonical(v: unknown): unknown {
	if (Array.isArray(v)) return v.map(canonical);
	if (!isObject(v)) return v;
	const out: Record<string, unknown> = {};
	for (const k of Object.keys(v).sort()) if (!isSecretKey(k)) out[k] = canonical(v[k]);
	return out;
}

/** Known fields in shape order, then unknown fields sorted; secret keys removed at any depth. */
export function ordered(value: object, shape: Shape): Record<string, unknown> {
	const v = value as Record<string, unknown>;
	const out: Record<string, unknown> = {};
	for (const [name, r] of Object.entries(shape)) {
		if (v[name] === undefined) continue;
		out[name] = r.shape && isObject(v[name]) ? ordered(v[name], r.shape) : canonical(v[name]);
	}
	for (const k of Object.keys(v).sort()) {
		if (!(k in shape) && !isSecretKey(k)) out[k] = canonical(v[k]);
	}
	return out;
}
