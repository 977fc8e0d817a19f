/**
 * The set-up form as plain data: parsing what was typed, the problems that block a start, and the
 * ProbeConfig a valid form makes. Pure, so the rules are tested without a DOM.
 */
import { planConditions } from '../probe/plan.ts';
import { runConfig, type RunValues } from '../probe/runConfig.ts';
import { RUN_DEFAULTS, runValues } from '../probe/runValues.ts';
import type { ReasoningEffort, UserHeaderCut } from '../probe/types.ts';
import {
	QUESTION_SLOT,
	presetTemplate,
	taskPromptProblems,
	type TaskPreset,
	type TaskPrompt
} from '../probe/taskPrompt.ts';
import type {
	DatasetItem,
	JudgeMode,
	ModelRef,
	Perturbation,
	ProbeConfig
} from '../probe/types.ts';

export interface RunFormValues {
	n: number;
	seed: number;
	/** As typed: "0, 0.5, 1". */
	temperatures: string;
	perturbations: Perturbation[];
	truncate_fraction: number;
	append_text: string;
	samples: number;
	/** enable_thinking as chosen; null: the template's own default. */
	thinking: boolean | null;
	/** Where the probe's user header stops; null (or absent in an older saved form): the family's rule. */
	user_header?: UserHeaderCut | null;
	/** gpt-oss's reasoning effort; null (or absent): the template's own default. */
	reasoning_effort?: ReasoningEffort | null;
	judge_mode: JudgeMode;
	max_tokens: number;
	/** Used as typed unless answer_tokens_auto and the model's context window is known. */
	answer_max_tokens: number;
	/**
	 * Size the answer limit from the generator's context window (see answerTokenLimit): thinking
	 * answers need far more than 1,024 tokens, and a cut answer says little about the model.
	 */
	answer_tokens_auto: boolean;
	/** How the question is put to the model (taskPrompt.ts); 'bare' is this app's default. */
	task_preset: TaskPreset;
	/** The custom template, with {question}; used when task_preset is 'custom'. */
	task_template: string;
	/** An optional system turn; '' for none. */
	system_prompt: string;
}

/** The form's defaults: the run's (probe/runValues.ts), but for ten items at three temperatures. */
export const DEFAULT_FORM: RunFormValues = {
	n: 10,
	seed: RUN_DEFAULTS.seed,
	temperatures: '0, 0.5, 1',
	perturbations: [...RUN_DEFAULTS.perturbations],
	truncate_fraction: RUN_DEFAULTS.truncate_fraction,
	append_text: RUN_DEFAULTS.append_text,
	samples: RUN_DEFAULTS.samples,
	thinking: RUN_DEFAULTS.thinking,
	user_header: null,
	reasoning_effort: null,
	judge_mode: RUN_DEFAULTS.judge_mode,
	max_tokens: RUN_DEFAULTS.max_tokens,
	answer_max_tokens: RUN_DEFAULTS.answer_max_tokens,
	answer_tokens_auto: RUN_DEFAULTS.answer_tokens_auto,
	task_preset: 'bare',
	task_template: QUESTION_SLOT,
	system_prompt: ''
};

/** Temperatures above this are noise for a probe; servers reject > 2 anyway. */
export const MAX_TEMPERATURE = 2;
/** A run bigger than this is almost surely a typo in N or samples. */
export const MAX_RECORDS = 100_000;

/** "0, 0.5,1" → [0, 0.5, 1]; duplicates dropped, order kept. null when something is not a number. */
export function parseTemperatures(text: string): number[] | null {
	const parts = text
		.split(/[\s,;]+/)
		.map((s) => s.trim())
		.filter((s) => s !== '');
	const out: number[] = [];
	for (const p of parts) {
		const t = Number(p);
		if (!Number.isFinite(t)) return null;
		if (!out.includes(t)) out.push(t);
	}
	return out;
}

export function conditionCount(v: RunFormValues): number {
	const temps = parseTemperatures(v.temperatures) ?? [];
	return planConditions({
		temperatures: temps,
		perturbations: v.perturbations,
		samples: Math.max(0, Math.floor(v.samples))
	}).length;
}

/** Everything that blocks a start, worded for the person filling the form. */
export function formProblems(v: RunFormValues): string[] {
	const problems: string[] = [];
	if (!Number.isInteger(v.n) || v.n < 1) problems.push('N must be a whole number of at least 1.');
	if (!Number.isInteger(v.seed) || v.seed < 0)
		problems.push('The seed must be a whole number ≥ 0.');
	const temps = parseTemperatures(v.temperatures);
	if (temps === null)
		problems.push('Temperatures must be numbers separated by commas, e.g. 0, 0.5, 1.');
	else if (temps.length === 0) problems.push('Give at least one temperature.');
	else if (temps.some((t) => t < 0 || t > MAX_TEMPERATURE)) {
		problems.push(`Temperatures must be between 0 and ${MAX_TEMPERATURE}.`);
	}
	if (v.perturbations.length === 0) problems.push('Pick at least one perturbation.');
	if (
		v.perturbations.includes('truncate') &&
		!(v.truncate_fraction > 0 && v.truncate_fraction <= 1)
	) {
		problems.push('The truncate fraction must be above 0 and at most 1.');
	}
	if (v.perturbations.includes('append') && v.append_text.trim() === '') {
		problems.push('The appended text must not be empty.');
	}
	if (!Number.isInteger(v.samples) || v.samples < 1) {
		problems.push('Samples per condition must be a whole number of at least 1.');
	}
	for (const [name, value] of [
		['Max tokens per user turn', v.max_tokens],
		['Max tokens per answer', v.answer_max_tokens]
	] as const) {
		if (!Number.isInteger(value) || value < 1) problems.push(`${name} must be a whole number ≥ 1.`);
	}
	problems.push(...taskPromptProblems(taskPromptOf(v)));
	if (problems.length === 0 && v.n * conditionCount(v) > MAX_RECORDS) {
		problems.push(
			`That is more than ${MAX_RECORDS.toLocaleString('en')} user turns; lower N or the conditions.`
		);
	}
	return problems;
}

/** The task prompt the form describes: the preset's template (custom: the typed one). */
export function taskPromptOf(v: RunFormValues): TaskPrompt {
	return {
		preset: v.task_preset,
		template: presetTemplate(v.task_preset, v.task_template),
		system: v.system_prompt
	};
}

/** Sortable, readable and unique enough for one browser: "run-20260722-101530-3fa2". */
export function newRunId(now: Date = new Date(), random: () => number = Math.random): string {
	const pad = (n: number) => String(n).padStart(2, '0');
	const stamp =
		`${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-` +
		`${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
	const tail = Math.floor(random() * 0x10000)
		.toString(16)
		.padStart(4, '0');
	return `run-${stamp}-${tail}`;
}

/**
 * What the form and the chosen dataset, template and models say, as the plain values a run is
 * prepared from (probe/prepare.ts): the browser's side of the one run preparation.
 */
export function formRunValues(
	v: RunFormValues,
	run: {
		run_id: string;
		dataset: string;
		/** How the loader prepared the items (GPQA's option shuffle); written to the manifest. */
		dataset_note?: string;
		/** The whole dataset as loaded: the run draws N of them. */
		items: DatasetItem[];
		generator: ModelRef;
		judge: ModelRef;
		/** The template's enable_thinking default; null where the template ignores the flag. */
		thinking_default: boolean | null;
		/** The template family's header cut (markup.ts userHeaderDefault); absent: 'template'. */
		user_header_default?: UserHeaderCut;
		/** The template's reasoning effort default; absent or null where it has none. */
		reasoning_effort_default?: ReasoningEffort | null;
		template_sha256?: string;
		/** The generator's context window in tokens, when known (web-llm's catalog has it). */
		context_window?: number;
		models?: RunValues['models'];
	}
): RunValues {
	return runValues(RUN_DEFAULTS, {
		...run,
		limit: v.n,
		seed: v.seed,
		temperatures: parseTemperatures(v.temperatures) ?? [],
		perturbations: v.perturbations,
		samples: v.samples,
		judge_mode: v.judge_mode,
		max_tokens: v.max_tokens,
		answer_max_tokens: v.answer_max_tokens,
		answer_tokens_auto: v.answer_tokens_auto,
		thinking: v.thinking,
		user_header: v.user_header ?? null,
		reasoning_effort: v.reasoning_effort ?? null,
		truncate_fraction: v.truncate_fraction,
		append_text: v.append_text,
		task_prompt: taskPromptOf(v)
	});
}

/** The config the form describes (no identity: prepareRun adds it when a run starts). */
export function buildConfig(
	v: RunFormValues,
	run: Parameters<typeof formRunValues>[1]
): ProbeConfig {
	return runConfig(formRunValues(v, run));
}
