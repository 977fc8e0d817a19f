/**
 * What a run leaves behind, built here and nowhere else: the answer record, the user-turn record
 * (with its label by rules or judge) and the manifest. The pipeline, the browser's run creation
 * and the CLI all go through these functions, so the file format changes in one place.
 */
import type { CompletionResult } from './engine.ts';
import { JUDGE_PROMPT, type JudgeVerdict } from './judge.ts';
import { verdictOf } from './labels.ts';
import { perturbAnswer, type PerturbParams } from './perturb.ts';
import { recordKey, samplesAt, type Condition } from './plan.ts';
import { REFERENCE_PROMPT } from './referenceJudge.ts';
import type { RuleDecision } from './rules.ts';
import { scoreAnswer, type NlpSupport } from './scoring/index.ts';
import { taskConversation } from './taskPrompt.ts';
import { opensReasoning, probePrompt, type ChatTemplate, type ProbeOptions } from './template.ts';
import { splitThinking } from './thinking.ts';
import type {
	AnswerRecord,
	ChatMessage,
	DatasetItem,
	Label,
	Perturbation,
	ProbeConfig,
	ProbeRecord,
	ReferenceGrounding,
	RunManifest,
	Usage
} from './types.ts';

/** An item's answer as generated: the visible part scored, reasoning and raw completion kept apart. */
export function answerRecord(a: {
	run_id: string;
	item: DatasetItem;
	prompt: string;
	seed: number;
	result: CompletionResult;
	created_at: string;
	/** For the IFBench instructions that need NLTK's English data. */
	nlp?: NlpSupport;
}): AnswerRecord {
	const { result: res } = a;
	const split = splitThinking(res.text, { prefilledThinking: opensReasoning(a.prompt) });
	const score = scoreAnswer(a.item, split.visible, a.nlp);
	return {
		run_id: a.run_id,
		item_id: a.item.id,
		prompt: a.prompt,
		answer: split.visible,
		...(split.thinking === '' ? {} : { thinking: split.thinking }),
		...(res.text === split.visible ? {} : { completion: res.text }),
		finish_reason: res.finish_reason,
		correct: score.correct,
		score_detail: score.detail,
		seed: a.seed,
		usage: res.usage,
		created_at: a.created_at
	};
}

/**
 * An item's own assistant reply (DatasetItem.fixed_answer), standing where a generated answer
 * would: nothing was generated, so no usage, and nothing is scored (the reply is the
 * conversation's, not the model's). `prompt` is the rendered prompt the answer follows, as for a
 * generated one, so the sample view shows the same conversation.
 */
export function fixedAnswerRecord(a: {
	run_id: string;
	item: DatasetItem;
	prompt: string;
	seed: number;
	created_at: string;
}): AnswerRecord {
	return {
		run_id: a.run_id,
		item_id: a.item.id,
		prompt: a.prompt,
		answer: a.item.fixed_answer ?? '',
		finish_reason: 'stop',
		correct: null,
		score_detail: FIXED_ANSWER_DETAIL,
		seed: a.seed,
		usage: { prompt_tokens: 0, completion_tokens: 0 },
		created_at: a.created_at
	};
}

/** The score detail of an answer the dataset gave: why it has no score. */
export const FIXED_ANSWER_DETAIL = "the conversation's own reply: not generated, not scored";

/**
 * How a run renders its prompts: thinking and reasoning effort as configured, the pinned date, and
 * where the probe's user header stops.
 */
export function renderOptions(
	config: Pick<ProbeConfig, 'thinking' | 'date_string' | 'reasoning_effort' | 'user_header'>
): ProbeOptions {
	const { thinking: enable_thinking, reasoning_effort, date_string, user_header } = config;
	return { enable_thinking, reasoning_effort, date_string, user_header };
}

/** What one perturbation of an item's answer puts in front of the model. */
export interface ProbeInput {
	perturbed: string;
	/** The probe prompt rendered around the perturbed answer, ending in the bare user header. */
	prompt: string;
}

export function probeInput(
	config: PerturbParams & Pick<ProbeConfig, 'task_prompt'>,
	template: ChatTemplate,
	render: ProbeOptions,
	item: DatasetItem,
	answer: AnswerRecord,
	perturbation: Perturbation
): ProbeInput {
	const perturbed = perturbAnswer(splitThinking(answer.answer).visible, perturbation, config);
	const messages: ChatMessage[] = [
		...taskConversation(item, config.task_prompt),
		{ role: 'assistant', content: perturbed }
	];
	return { perturbed, prompt: probePrompt(template, messages, render) };
}

/** A generated user turn, its label still pending (null). Field order is the records file's. */
export function userTurnRecord(r: {
	run_id: string;
	item: DatasetItem;
	cond: Condition;
	seed: number;
	answer: AnswerRecord;
	input: ProbeInput;
	result: CompletionResult;
	rule: RuleDecision;
	created_at: string;
}): ProbeRecord {
	const { item, cond, answer, result: res } = r;
	return {
		run_id: r.run_id,
		key: recordKey(item.id, cond),
		item_id: item.id,
		task: item.task,
		temperature: cond.temperature,
		perturbation: cond.perturbation,
		sample: cond.sample,
		seed: r.seed,
		question: item.prompt,
		answer: answer.answer,
		perturbed_answer: r.input.perturbed,
		prompt: r.input.prompt,
		user_turn: res.text,
		finish_reason: res.finish_reason,
		answer_finish_reason: answer.finish_reason,
		correct: answer.correct,
		rule_label: r.rule.label,
		rule_reason: r.rule.reason,
		judge_label: null,
		judge_rationale: null,
		judge_raw: null,
		judge_prompt_id: null,
		judge_prompt_hash: null,
		label: null,
		verdict: null,
		label_source: null,
		usage: res.usage,
		...referenceFields(item, cond),
		created_at: r.created_at
	};
}

/**
 * A reference turn and its comparison, still pending; nothing for an item without one, and nothing
 * under a perturbation: the human wrote their turn after the unperturbed answer, so a truncated or
 * appended answer has no human turn to compare with (results/referenceShare.ts).
 */
function referenceFields(item: DatasetItem, cond: Condition): Partial<ProbeRecord> {
	if (item.reference_turn === undefined || cond.perturbation !== 'none') return {};
	return {
		reference_turn: item.reference_turn,
		reference_grounding: null,
		reference_grounding_raw: null,
		reference_prompt_id: null
	};
}

/** The record with the judge's comparison of its turn and the reference turn. */
export function comparedToReference(
	record: ProbeRecord,
	comparison: { grounding: ReferenceGrounding | null; raw: string }
): ProbeRecord {
	return {
		...record,
		reference_grounding: comparison.grounding,
		reference_grounding_raw: comparison.raw,
		reference_prompt_id: REFERENCE_PROMPT.id
	};
}

/**
 * Labelled by the rules. They only recognise failure modes, so a turn none catches stays undecided:
 * it may be a follow-up or a new task ("Write a haiku about the ocean."), and only a judge can tell.
 * Its verdict is 'undecided' too, which keeps it out of the follow-up rate.
 */
export function labelledByRules(
	record: ProbeRecord
): ProbeRecord & { label: Label; label_source: 'rules' } {
	const label = record.rule_label;
	return { ...record, label, verdict: verdictOf(label), label_source: 'rules' };
}

/** Labelled by the judge's verdict, under the judge prompt that produced it. */
export function labelledByJudge(
	record: ProbeRecord,
	verdict: JudgeVerdict & { raw: string },
	judgePromptHash: string,
	usage: Usage | undefined
): ProbeRecord {
	return {
		...record,
		judge_label: verdict.label,
		judge_rationale: verdict.rationale,
		judge_raw: verdict.raw,
		judge_prompt_id: JUDGE_PROMPT.id,
		judge_prompt_hash: judgePromptHash,
		label: verdict.label,
		verdict: verdict.verdict,
		label_source: 'judge',
		judge_usage: usage
	};
}

/** Fields of the manifest only a shell knows (web-llm version, GPU adapter, the run's identity). */
export type ManifestExtras = Partial<
	Pick<
		RunManifest,
		'engine_version' | 'adapter' | 'judge_template_sha256' | 'identity' | 'config_hash' | 'nlp_data'
	>
>;

/**
 * The run's manifest. A `previous` manifest keeps its creation time and app version and any field
 * this call does not set; `extras` add what the shell knows.
 */
export function runManifest(
	config: ProbeConfig,
	m: {
		engine: string;
		template_sha256: string | undefined;
		judge_prompt_hash: string;
		status: RunManifest['status'];
		/** The creation time, asked only when there is no previous manifest. */
		now: () => string;
		app_version?: string;
		previous?: RunManifest;
		extras?: ManifestExtras;
	}
): RunManifest {
	const { items, ...rest } = config;
	return {
		...m.previous,
		...m.extras,
		run_id: config.run_id,
		app_version: m.app_version ?? m.previous?.app_version ?? 'dev',
		created_at: m.previous?.created_at ?? m.now(),
		engine: m.engine,
		config: {
			...rest,
			item_ids: items.map((i) => i.id),
			dataset: config.dataset ?? 'custom',
			samples_at_t0: samplesAt(0, config.samples)
		},
		template_sha256: m.template_sha256,
		judge_prompt_id: JUDGE_PROMPT.id,
		judge_prompt_hash: m.judge_prompt_hash,
		status: m.status
	};
}
