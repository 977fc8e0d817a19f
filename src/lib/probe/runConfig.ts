/**
 * A run's config from plain values: what the set-up form or the command line says, the dataset as
 * loaded, the template's thinking default, the models. Light on purpose (no judge, no scorers), so
 * the set-up form can size its answer limit with the same rule; prepare.ts adds the identity.
 */
import type { ModelFingerprint } from './identity.ts';
import { sampleItems } from './sample.ts';
import type { TaskPrompt } from './taskPrompt.ts';
import type { ReasoningEffort, UserHeaderCut } from './types.ts';
import {
	PERTURBATIONS,
	type DatasetItem,
	type JudgeMode,
	type ModelRef,
	type Perturbation,
	type ProbeConfig
} from './types.ts';

/**
 * The date a template's strftime_now renders when the run does not say: fixed, so a run renders
 * the same prompt on any day. Here, not in template.ts, so the set-up form reads it without Jinja.
 */
export const DEFAULT_DATE_STRING = '26 Jul 2024';

/** The answer limit when it is not sized from a context window (a typed value replaces it). */
export const DEFAULT_ANSWER_MAX_TOKENS = 1024;
/** Tokens kept for the question and the chat template around the answer in the probe prompt. */
export const PROMPT_ALLOWANCE = 512;
/** The smallest answer limit the automatic sizing gives. */
export const MIN_AUTO_ANSWER_TOKENS = 256;

/**
 * The answer token limit a run uses: with answer_tokens_auto and a known context window, what is
 * left of the window once the question (PROMPT_ALLOWANCE) and the probe's user turn (max_tokens)
 * are kept, since the answer must fit into the probe prompt; otherwise answer_max_tokens as given.
 */
export function answerTokenLimit(
	v: { answer_max_tokens: number; answer_tokens_auto: boolean; max_tokens: number },
	contextWindow?: number
): number {
	if (!v.answer_tokens_auto || !(contextWindow && contextWindow > 0)) return v.answer_max_tokens;
	return Math.max(MIN_AUTO_ANSWER_TOKENS, contextWindow - v.max_tokens - PROMPT_ALLOWANCE);
}

/** Everything a new run is made from, as plain data: no engine, store or DOM. */
export interface RunValues {
	run_id: string;
	/** The dataset's name, or the file it was read from. */
	dataset: string;
	/** How the loader prepared the items (GPQA's option shuffle); written to the manifest. */
	dataset_note?: string;
	/** The whole dataset as loaded: the run draws `limit` of them, the identity hashes them all. */
	items: DatasetItem[];
	/** Items to draw (seeded, sample.ts); 0: every item, in the order loaded. */
	limit: number;
	seed: number;
	temperatures: number[];
	perturbations: Perturbation[];
	samples: number;
	judge_mode: JudgeMode;
	generator: ModelRef;
	/** Rules-only runs call no judge; the shells pass the generator then. */
	judge: ModelRef;
	/** Tokens per user turn. */
	max_tokens: number;
	/** Tokens per answer: as given, or sized from `context_window` with answer_tokens_auto. */
	answer_max_tokens: number;
	answer_tokens_auto: boolean;
	/** The generator's context window, when the engine tells it. */
	context_window?: number;
	/** enable_thinking as chosen; null: the template's own default. */
	thinking: boolean | null;
	/** The template's enable_thinking default (template.ts thinkingDefault); null: it ignores it. */
	thinking_default: boolean | null;
	/** Where the probe's user header stops as chosen; null or absent: the template family's rule. */
	user_header?: UserHeaderCut | null;
	/** The family's rule (markup.ts userHeaderDefault); absent: the whole header. */
	user_header_default?: UserHeaderCut;
	/** gpt-oss's reasoning effort as chosen; null or absent: the template's own default. */
	reasoning_effort?: ReasoningEffort | null;
	/** The template's default (markup.ts reasoningEffortDefault); null or absent: it has none. */
	reasoning_effort_default?: ReasoningEffort | null;
	truncate_fraction: number;
	append_text: string;
	task_prompt: TaskPrompt;
	/** The generator's chat template's sha256 (ChatTemplate.sha256). */
	template_sha256: string | undefined;
	/** The models as far as the engines can tell (identity.ts ModelFingerprint). */
	models?: { generator?: ModelFingerprint; judge?: ModelFingerprint };
}

/** The config a set of values describes: the items drawn, the answer limit sized, the defaults set. */
export function runConfig(v: RunValues): ProbeConfig {
	return {
		run_id: v.run_id,
		dataset: v.dataset,
		...(v.dataset_note === undefined ? {} : { dataset_note: v.dataset_note }),
		generator: v.generator,
		judge: v.judge,
		judge_mode: v.judge_mode,
		items: v.limit > 0 ? sampleItems(v.items, v.limit, v.seed) : [...v.items],
		seed: v.seed,
		temperatures: v.temperatures,
		// Canonical order, whatever order they were given in.
		perturbations: PERTURBATIONS.filter((p) => v.perturbations.includes(p)),
		samples: v.samples,
		// This app's default: a greedy answer, so the probe varies only the user turn.
		answer_temperature: 0,
		top_p: 1,
		max_tokens: v.max_tokens,
		answer_max_tokens: answerTokenLimit(v, v.context_window),
		// A template that ignores enable_thinking does not think, whatever was asked.
		thinking: v.thinking_default !== null && (v.thinking ?? v.thinking_default),
		user_header: v.user_header ?? v.user_header_default ?? 'template',
		// Only templates with a "Reasoning:" line get one, and the manifest says which was used.
		...(v.reasoning_effort_default
			? { reasoning_effort: v.reasoning_effort ?? v.reasoning_effort_default }
			: {}),
		truncate_fraction: v.truncate_fraction,
		append_text: v.append_text,
		date_string: DEFAULT_DATE_STRING,
		task_prompt: v.task_prompt
	};
}
