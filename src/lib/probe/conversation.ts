/**
 * A conversation typed by hand (the playground), probed exactly as a run probes an item: it
 * becomes one item (its last user message the question, the turns before it the history), and an
 * answer typed after it is stored as that item's answer, so runProbe continues after it as it
 * would after a generated one.
 */
import { AppError } from '../errors/appError.ts';
import type { CompletionResult } from './engine.ts';
import { answerRecord } from './records.ts';
import type { AnswerRecord, ChatMessage, DatasetItem, ProbeConfig } from './types.ts';

/** The one item a conversation makes; nothing scores it. */
export const CONVERSATION_ITEM_ID = 'conversation';

export class ConversationError extends AppError {
	constructor(message: string) {
		super(message, { code: 'conversation' });
		this.name = 'ConversationError';
	}
}

/**
 * @returns the item, and the typed answer when the conversation ends with the assistant.
 * @throws ConversationError when it has no user message.
 */
export function conversationItem(messages: ChatMessage[]): { item: DatasetItem; answer?: string } {
	const last = messages.at(-1);
	const answer = last?.role === 'assistant' ? last.content : undefined;
	const asked = answer === undefined ? messages : messages.slice(0, -1);
	const at = asked.map((m) => m.role).lastIndexOf('user');
	if (at < 0 || at !== asked.length - 1)
		throw new ConversationError('The conversation must have a user message before the answer.');
	const item: DatasetItem = {
		id: CONVERSATION_ITEM_ID,
		task: 'none',
		prompt: asked[at].content,
		...(at > 0 ? { history: asked.slice(0, at) } : {})
	};
	return { item, ...(answer === undefined ? {} : { answer }) };
}

/**
 * A typed answer as the answer record a run would have stored for the item. No prompt made it, so
 * none is recorded, and none can mark it as reasoning: it is taken as written (a `<think>` block
 * typed into it is still split off, as from a generated answer).
 */
export function typedAnswer(
	config: Pick<ProbeConfig, 'run_id'>,
	item: DatasetItem,
	text: string,
	createdAt: string = new Date().toISOString()
): AnswerRecord {
	const result: CompletionResult = {
		text,
		finish_reason: 'stop',
		usage: { prompt_tokens: 0, completion_tokens: 0 }
	};
	return answerRecord({
		run_id: config.run_id,
		item,
		prompt: '',
		seed: 0,
		result,
		created_at: createdAt
	});
}
