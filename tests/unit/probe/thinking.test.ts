import { describe, expect, it } from 'vitest';
import { opensReasoning } from '../../../src/lib/probe/template.ts';
import { splitThinking } from '../../../src/lib/probe/thinking.ts';

describe('splitThinking', () => {
	it('leaves an answer without reasoning as it is', () => {
		expect(splitThinking('The answer is 4.')).toEqual({
			thinking: '',
			visible: 'The answer is 4.',
			complete: true
		});
	});

	it('splits a Qwen3 answer that opens its own think block', () => {
		expect(splitThinking('<think>\n2 + 2\n</think>\n\nIt is 4.')).toEqual({
			thinking: '2 + 2',
			visible: 'It is 4.',
			complete: true
		});
	});

	it('has no answer when a Qwen3 think block never closed (max tokens)', () => {
		expect(splitThinking('<think>\nstill adding 17 and')).toEqual({
			thinking: 'still adding 17 and',
			visible: '',
			complete: false
		});
	});

	it('splits a completion that starts inside a prefilled block (Qwen3.5, GLM-4.7-Flash)', () => {
		const raw = 'Janet has 16 - 3 - 4 = 9 eggs, so 18.\n</think>\n\n#### 18';
		expect(splitThinking(raw, { prefilledThinking: true })).toEqual({
			thinking: 'Janet has 16 - 3 - 4 = 9 eggs, so 18.',
			visible: '#### 18',
			complete: true
		});
		// Without knowing the prompt opened the block, the whole trace would be "the answer".
		expect(splitThinking(raw).visible).toBe(raw);
	});

	it('keeps the numbers of an unfinished prefilled block out of the answer', () => {
		const raw = 'First, 16 - 3 = 13. Then 13 - 4 = 9. So 9 * 2';
		expect(splitThinking(raw, { prefilledThinking: true })).toEqual({
			thinking: raw,
			visible: '',
			complete: false
		});
	});

	it('accepts a prefilled-prompt completion that repeats the opening tag', () => {
		expect(splitThinking('<think>\nx\n</think>\n\nA.', { prefilledThinking: true }).visible).toBe(
			'A.'
		);
	});

	it('takes the final channel of a gpt-oss harmony reply as the answer', () => {
		const raw =
			'<|channel|>analysis<|message|>We need 16-3-4=9, times 2.<|end|>' +
			'<|start|>assistant<|channel|>commentary<|message|>checking<|end|>' +
			'<|start|>assistant<|channel|>final<|message|>She makes $18.\nAnswer: 18';
		expect(splitThinking(raw)).toEqual({
			thinking: 'We need 16-3-4=9, times 2.\n\nchecking',
			visible: 'She makes $18.\nAnswer: 18',
			complete: true
		});
	});

	it('drops a trailing <|return|> a server left in the text', () => {
		const raw =
			'<|channel|>analysis<|message|>a<|end|><|start|>assistant<|channel|>final<|message|>B<|return|>';
		expect(splitThinking(raw).visible).toBe('B');
	});

	it('has no answer when a gpt-oss reply stopped in its analysis channel', () => {
		expect(splitThinking('<|channel|>analysis<|message|>We need to compute 16-3')).toEqual({
			thinking: 'We need to compute 16-3',
			visible: '',
			complete: false
		});
	});

	it('reads channel headers with a recipient or constraint', () => {
		const raw =
			'<|channel|>analysis<|message|>ok<|end|><|start|>assistant<|channel|>final <|constrain|>json<|message|>{"a":1}';
		expect(splitThinking(raw).visible).toBe('{"a":1}');
	});
});

describe('opensReasoning', () => {
	it.each([
		['<|im_start|>assistant\n<think>\n', true],
		['<|assistant|><think>', true],
		['<|im_start|>assistant\n<think>\n\n</think>\n\n', false],
		['<|assistant|></think>', false],
		['<|im_start|>assistant\n', false],
		['<|start|>assistant', false]
	])('%j → %s', (prompt, expected) => {
		expect(opensReasoning(prompt)).toBe(expected);
	});
});
