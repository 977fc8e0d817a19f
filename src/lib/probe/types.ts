/**
 * The probe's data shapes. Everything here is plain data: it crosses the worker boundary, lands in
 * IndexedDB and in the CLI's JSONL files unchanged. Record fields are snake_case because they are a
 * file format (the web app exports what the CLI writes and imports both).
 */

export type Role = 'system' | 'user' | 'assistant';

export interface ChatMessage {
	role: Role;
	content: string;
}

import type { TaskPrompt } from './taskPrompt.ts';

/**
 * How an item's assistant answer is scored: the scorers of scoring/index.ts, one per kind. Stored
 * items name their kind, so a kind is never renamed; a dataset picks one in its task module.
 */
export const TASK_KINDS = ['gsm8k', 'multiple_choice', 'ifeval', 'none'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export interface DatasetItem {
	/** Stable within its dataset: records are keyed by it, so resume and pairing depend on it. */
	id: string;
	task: TaskKind;
	/** The user's message that the assistant answers. */
	prompt: string;
	/** GSM8K: the full reference solution or a bare number; multiple choice: the letter. */
	gold?: string;
	/** Multiple choice: option texts, rendered as "A. …" lines by the dataset loader. */
	choices?: string[];
	/** IFEval: instruction ids and their kwargs (null kwargs already dropped). */
	instruction_ids?: string[];
	kwargs?: Record<string, unknown>[];
	/** Earlier turns of an open conversation, placed before `prompt`. */
	history?: ChatMessage[];
	/**
	 * The conversation's own assistant reply (e.g. OASST's): the run puts it after `prompt` instead
	 * of generating one, so the model only writes the user turn. Not scored (correct is null).
	 */
	fixed_answer?: string;
	/** The human's real next user turn, written in reply to `fixed_answer`. */
	reference_turn?: string;
}

/** The judge's pairwise verdict: which user turn is more grounded in the assistant's answer. */
export const REFERENCE_GROUNDINGS = ['generated', 'reference', 'tie'] as const;
export type ReferenceGrounding = (typeof REFERENCE_GROUNDINGS)[number];

/**
 * The answer edits this app offers: none, truncate and append, the two perturbations the paper
 * reports numbers for, and the controls of a review's simulated author reply (001): neutral and
 * contradict (the answer replaced) and header_only (no conversation, only the user header).
 * Their parameters and texts live in perturb.ts. Names are record keys; the order is the one
 * tables, charts and set-up show.
 */
export const PERTURBATIONS = [
	'none',
	'truncate',
	'append',
	'neutral',
	'contradict',
	'header_only'
] as const;
export type Perturbation = (typeof PERTURBATIONS)[number];

/**
 * Where the probe's user header stops: `template`, the whole header the template writes before a
 * user message ("<|im_start|>user\n", gpt-oss "<|start|>user<|message|>"); `role`, right after the
 * role name ("<|start|>user"), leaving the rest of the header to the model.
 */
export const USER_HEADER_CUTS = ['template', 'role'] as const;
export type UserHeaderCut = (typeof USER_HEADER_CUTS)[number];

/** gpt-oss's reasoning effort: the values its template's "Reasoning:" line takes. */
export const REASONING_EFFORTS = ['low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** One source of truth for labels: see labels.ts for definitions and examples. */
export const LABELS = [
	'genuine_followup',
	'prompt_restatement',
	'assistant_restatement',
	'malformed_artifact',
	'meta_planning',
	'degenerate',
	'judge_error',
	'undecided'
] as const;
export type Label = (typeof LABELS)[number];
/** What the rules give: a failure mode they recognise, or 'undecided' (never judge_error). */
export type RuleLabel = Label;

/**
 * The paper's primary metric is binary: is the turn a genuine follow-up or not. 'undecided' is a
 * turn nobody could tell (the rules did not decide and no judge was asked): out of the rate.
 */
export const VERDICTS = ['genuine', 'not_genuine', 'undecided'] as const;
export type Verdict = (typeof VERDICTS)[number];
/** What a human annotator decides: a person who reads the turn always decides. */
export const HUMAN_VERDICTS = ['genuine', 'not_genuine'] as const;
export type HumanVerdict = (typeof HUMAN_VERDICTS)[number];

/** rules: classifier only; llm: judge only; hybrid: rules for clear cases, judge for the rest. */
export type JudgeMode = 'rules' | 'llm' | 'hybrid';

export interface ModelRef {
	/** Engine-specific id: a web-llm model id or the served model name. */
	id: string;
	/** Hugging Face repo whose chat template the model uses, e.g. "Qwen/Qwen3-0.6B". */
	template_repo?: string;
}

export interface ProbeConfig {
	run_id: string;
	/** Dataset name or file name, for the manifest and the runs list. */
	dataset?: string;
	/** How the loader prepared the items beyond the source, e.g. GPQA's seeded option shuffle. */
	dataset_note?: string;
	generator: ModelRef;
	judge: ModelRef;
	judge_mode: JudgeMode;
	items: DatasetItem[];
	seed: number;
	temperatures: number[];
	perturbations: Perturbation[];
	samples: number;
	/**
	 * Sampling for the assistant answer: this app's default is 0 (greedy), so every condition of an
	 * item perturbs the same answer. Not a setting the paper is known to state.
	 */
	answer_temperature: number;
	top_p: number;
	max_tokens: number;
	answer_max_tokens: number;
	/** Qwen3-style templates: passed as enable_thinking. */
	thinking: boolean;
	/**
	 * Where the probe's user header stops (template.ts): the template's whole header, or right after
	 * the role name (gpt-oss's default, markup.ts userHeaderDefault). Absent: `template`, as runs made
	 * before it was recorded.
	 */
	user_header?: UserHeaderCut;
	/** gpt-oss's "Reasoning:" line; absent for templates without one (the template's default). */
	reasoning_effort?: ReasoningEffort;
	truncate_fraction: number;
	append_text: string;
	/** Pinned into templates that print a date (Llama 3.x "Today Date"), e.g. "26 Jul 2024". */
	date_string: string;
	/**
	 * How the question becomes the user message, and an optional system turn (taskPrompt.ts).
	 * Absent: the bare question, as in runs made before it was recorded.
	 */
	task_prompt?: TaskPrompt;
}

export interface Usage {
	prompt_tokens: number;
	completion_tokens: number;
	/** Tokens per second; absent when the engine cannot tell. */
	prefill_tps?: number;
	decode_tps?: number;
	ttft_ms?: number;
	total_ms?: number;
}

export type FinishReason = 'stop' | 'length' | 'abort' | 'error';

/** An assistant answer, generated once per item and reused by every condition. */
export interface AnswerRecord {
	run_id: string;
	item_id: string;
	prompt: string;
	/** The visible answer: what is scored, perturbed and put in the probe's history. */
	answer: string;
	/** The reasoning before it (think block, gpt-oss analysis channel); absent when none. */
	thinking?: string;
	/** The completion as generated, when it differs from `answer` (reasoning, channel markup). */
	completion?: string;
	finish_reason: FinishReason;
	correct: boolean | null;
	/** What the scorer extracted or checked, for display ("predicted 18, gold 18"). */
	score_detail: string;
	seed: number;
	usage: Usage;
	created_at: string;
}

/** One generated user turn: the unit the paper counts. */
export interface ProbeRecord {
	run_id: string;
	/** `${item_id}|${temperature}|${perturbation}|${sample}`: unique within a run. */
	key: string;
	item_id: string;
	task: TaskKind;
	temperature: number;
	perturbation: Perturbation;
	sample: number;
	seed: number;
	question: string;
	answer: string;
	perturbed_answer: string;
	/** The exact text sent to the engine for the user turn. */
	prompt: string;
	user_turn: string;
	/** How the user turn ended. */
	finish_reason: FinishReason;
	/**
	 * How the assistant answer ended: 'length' means it was cut at answer_max_tokens, so its score
	 * says little (results leave such answers out of accuracy by default). Absent in records made
	 * before it was kept; the run's answers file has it too.
	 */
	answer_finish_reason?: FinishReason;
	correct: boolean | null;
	rule_label: RuleLabel;
	rule_reason: string;
	/** null until the LLM judge ran (or when judge_mode is rules). */
	judge_label: Label | null;
	judge_rationale: string | null;
	judge_raw: string | null;
	judge_prompt_id: string | null;
	/** sha256 of the judge prompt text: an edited prompt under the same id is still told apart. */
	judge_prompt_hash?: string | null;
	/** The label that counts, by judge_mode; null while judging is pending. */
	label: Label | null;
	/**
	 * The binary verdict that counts in follow-up rates, given with the label by the rules or the
	 * judge; null while pending. Absent in records made before it was kept: read it with
	 * recordVerdict(), which falls back to the label's own verdict.
	 */
	verdict?: Verdict | null;
	label_source: 'rules' | 'judge' | null;
	usage: Usage;
	judge_usage?: Usage;
	/** The item's reference_turn (the human's real next turn); absent for items without one. */
	reference_turn?: string;
	/**
	 * Which user turn the judge found more grounded in the answer (referenceJudge.ts REFERENCE_PROMPT): null
	 * when not compared (rules-only mode, a reply that named neither turn, still pending); absent on
	 * records without a reference.
	 */
	reference_grounding?: ReferenceGrounding | null;
	/** The judge's reply to the comparison, kept whatever it said; null until it was asked. */
	reference_grounding_raw?: string | null;
	/** The comparison prompt's id, set with the reply. */
	reference_prompt_id?: string | null;
	created_at: string;
}

/** Written beside the records: enough to reproduce the run. */
export interface RunManifest {
	run_id: string;
	app_version: string;
	created_at: string;
	engine: string;
	engine_version?: string;
	config: Omit<ProbeConfig, 'items'> & {
		item_ids: string[];
		dataset: string;
		/**
		 * Samples made per item × perturbation at temperature 0: 1, as greedy decoding gives the same
		 * turn every time; `samples` applies to T > 0 (plan.ts GREEDY_SAMPLES). Absent in manifests
		 * written before this rule, whose T = 0 conditions hold `samples` identical copies.
		 */
		samples_at_t0?: number;
	};
	template_sha256?: string;
	judge_template_sha256?: string;
	/**
	 * Where the NLTK English data and syllapy word list that scored IFBench's (and IFEval's
	 * sentence- and capital-count) instructions came from, or why they could not be loaded.
	 * Absent when the run's items need none.
	 */
	nlp_data?: string;
	judge_prompt_id: string;
	judge_prompt_hash: string;
	adapter?: Record<string, string>;
	/**
	 * What the records mean (identity.ts: config fields and model fingerprints) and its sha256.
	 * Absent in manifests written before them; resume compares them and refuses on a difference.
	 */
	identity?: Record<string, string | number | boolean | null>;
	config_hash?: string;
	status: 'running' | 'paused' | 'done' | 'failed';
}
