/**
 * A typed conversation as a one-item run: the config the playground generates with and "See what
 * the model sees" renders with, so both show the prompt a run would send, built by the run's own
 * code (runConfig, probeInput), never a copy of it.
 */
import { conversationItem, typedAnswer } from '../probe/conversation.ts';
import { probeInput, renderOptions, type ProbeInput } from '../probe/records.ts';
import { runConfig } from '../probe/runConfig.ts';
import { RUN_DEFAULTS, runValues } from '../probe/runValues.ts';
import { taskConversation } from '../probe/taskPrompt.ts';
import { userHeader, type ChatTemplate } from '../probe/template.ts';
import { templateValues } from '../probe/templateValues.ts';
import type { AnswerRecord, ChatMessage, DatasetItem, ProbeConfig } from '../probe/types.ts';
import { DEFAULT_FORM, type RunFormValues } from './runForm.ts';

export interface ConversationRunOptions {
	run_id: string;
	template: ChatTemplate;
	item: DatasetItem;
	model: string;
	/** Set: a judge labels what the rules leave undecided (hybrid); absent: rules only. */
	judgeModel?: string;
	seed?: number;
	temperature?: number;
	samples?: number;
	/** enable_thinking as chosen; null or absent: the template's own default. */
	thinking?: boolean | null;
	/** The token limits a run would use (set-up's form); a new run's defaults when absent. */
	limits?: Pick<RunFormValues, 'max_tokens' | 'answer_max_tokens' | 'answer_tokens_auto'>;
	contextWindow?: number;
}

/** A run's config for one typed conversation: N samples at one temperature, no edit to the answer. */
export function conversationConfig(o: ConversationRunOptions): ProbeConfig {
	const limits = o.limits ?? DEFAULT_FORM;
	const t = o.template;
	return runConfig(
		runValues(RUN_DEFAULTS, {
			run_id: o.run_id,
			dataset: 'playground',
			items: [o.item],
			seed: o.seed,
			temperatures: [o.temperature ?? 1],
			samples: o.samples,
			// A turn no rule catches stays undecided unless the judge is asked, as in a rules-only run.
			judge_mode: o.judgeModel === undefined ? 'rules' : 'hybrid',
			generator: { id: o.model, template_repo: t.repo },
			judge: o.judgeModel === undefined ? undefined : { id: o.judgeModel },
			max_tokens: limits.max_tokens,
			answer_max_tokens: limits.answer_max_tokens,
			answer_tokens_auto: limits.answer_tokens_auto,
			context_window: o.contextWindow,
			thinking: o.thinking ?? null,
			// The template family's header rule and reasoning effort, as a run with this template has.
			...templateValues(t),
			truncate_fraction: DEFAULT_FORM.truncate_fraction,
			append_text: DEFAULT_FORM.append_text
			// The conversation is typed as it is to be sent: the default, bare task prompt.
		})
	);
}

/** What a run would put in front of the model after an item's answer. */
export interface ShownProbe {
	input: ProbeInput;
	/** The bare user-role header `input.prompt` ends with: where the model takes over as the user. */
	header: string;
}

/**
 * The probe prompt a run sends after `answer` (its visible part only, as in a run), and its header.
 * @throws TemplateError when the template cannot render it.
 */
export function shownProbe(
	config: ProbeConfig,
	template: ChatTemplate,
	answer: AnswerRecord
): ShownProbe {
	const item = config.items[0];
	const render = renderOptions(config);
	const input = probeInput(config, template, render, item, answer, 'none');
	const conversation: ChatMessage[] = [
		...taskConversation(item, config.task_prompt),
		{ role: 'assistant', content: input.perturbed }
	];
	return { input, header: userHeader(template, conversation, render) };
}

/**
 * The probe prompt of `messages` (ending with the assistant's answer) under `template`, with no
 * model: what "See what the model sees" shows.
 * @throws ConversationError when there is no user message before the answer; TemplateError when
 * the template cannot render it.
 */
export function conversationProbe(
	template: ChatTemplate,
	messages: ChatMessage[]
): ShownProbe & { config: ProbeConfig } {
	const { item, answer } = conversationItem(messages);
	const model = template.repo ?? 'template';
	const config = conversationConfig({ run_id: 'see', template, item, model });
	// A fixed stamp: nothing is stored, and the prompt must not depend on the clock.
	const typed = typedAnswer(config, item, answer ?? '', '1970-01-01T00:00:00.000Z');
	return { config, ...shownProbe(config, template, typed) };
}
