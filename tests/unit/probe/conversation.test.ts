import { describe, expect, it } from 'vitest';
import {
	CONVERSATION_ITEM_ID,
	ConversationError,
	conversationItem,
	typedAnswer
} from '../../../src/lib/probe/conversation.ts';

const u = (content: string) => ({ role: 'user' as const, content });
const a = (content: string) => ({ role: 'assistant' as const, content });

describe('conversationItem', () => {
	it('makes the last user message the question and the turns before it the history', () => {
		expect(conversationItem([u('Hi'), a('Hello!'), u('2 + 2?'), a('4.')])).toEqual({
			item: {
				id: CONVERSATION_ITEM_ID,
				task: 'none',
				prompt: '2 + 2?',
				history: [u('Hi'), a('Hello!')]
			},
			answer: '4.'
		});
	});

	it('leaves the answer to the model when the conversation ends with the user', () => {
		expect(conversationItem([u('2 + 2?')])).toEqual({
			item: { id: CONVERSATION_ITEM_ID, task: 'none', prompt: '2 + 2?' }
		});
	});

	it.each([[[]], [[a('Hi')]], [[u('Q'), a('A'), a('B')]]])(
		'refuses a conversation with no user message right before the answer: %j',
		(messages) => {
			expect(() => conversationItem(messages)).toThrow(ConversationError);
		}
	);
});

describe('typedAnswer', () => {
	it('stores the typed answer as written, splitting off a typed reasoning block', () => {
		const { item } = conversationItem([u('Q')]);
		const plain = typedAnswer({ run_id: 'p' }, item, 'It is 4.', 't');
		expect([plain.answer, plain.thinking, plain.correct]).toEqual(['It is 4.', undefined, null]);
		const reasoned = typedAnswer({ run_id: 'p' }, item, '<think>add</think>It is 4.', 't');
		expect([reasoned.answer, reasoned.thinking]).toEqual(['It is 4.', 'add']);
	});
});
