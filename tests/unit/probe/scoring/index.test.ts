import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../../../src/lib/probe/scoring/index.ts';
import type { DatasetItem } from '../../../../src/lib/probe/types.ts';

function item(overrides: Partial<DatasetItem>): DatasetItem {
	return { id: 'item-1', task: 'none', prompt: 'Question?', ...overrides };
}

describe('scoreAnswer', () => {
	it('does not score open conversations', () => {
		expect(scoreAnswer(item({ task: 'none' }), 'Anything')).toEqual({
			correct: null,
			detail: 'open conversation: not scored'
		});
	});

	it('scores GSM8K against a full reference solution and reports both numbers', () => {
		const gsm8k = item({ task: 'gsm8k', gold: 'She makes 9 * 2 = $<<9*2=18>>18.\n#### 18' });
		expect(scoreAnswer(gsm8k, 'So she makes **$18** a day.')).toEqual({
			correct: true,
			detail: 'predicted 18, gold 18'
		});
		expect(scoreAnswer(gsm8k, 'The answer is 16.')).toEqual({
			correct: false,
			detail: 'predicted 16, gold 18'
		});
	});

	it('scores a GSM8K answer without any number as wrong', () => {
		const result = scoreAnswer(item({ task: 'gsm8k', gold: '18' }), 'I do not know.');
		expect(result).toEqual({ correct: false, detail: 'no number found, gold 18' });
	});

	it('ignores numbers inside a leading think block', () => {
		const gsm8k = item({ task: 'gsm8k', gold: '18' });
		expect(scoreAnswer(gsm8k, '<think>maybe 17? no, 18</think>The answer is 18.').correct).toBe(
			true
		);
		expect(scoreAnswer(gsm8k, '<think>18 … then 17').correct).toBe(false);
	});

	it('scores multiple choice using the item’s number of options', () => {
		const mc = item({ task: 'multiple_choice', gold: 'B', choices: ['1', '2', '3', '4'] });
		expect(scoreAnswer(mc, 'The answer is (B).')).toEqual({
			correct: true,
			detail: 'predicted B, gold B'
		});
		expect(scoreAnswer(mc, 'The answer is (E).').correct).toBe(false);
		expect(scoreAnswer(mc, '(A) or (B)').detail).toBe('no single answer letter found, gold B');
	});

	it('returns null instead of guessing when the gold answer is missing', () => {
		expect(scoreAnswer(item({ task: 'gsm8k' }), '18').correct).toBeNull();
		expect(scoreAnswer(item({ task: 'multiple_choice' }), 'B').correct).toBeNull();
	});

	it('scores IFEval strictly, with loose and per-instruction results alongside', () => {
		const ifeval = item({
			task: 'ifeval',
			instruction_ids: ['punctuation:no_comma', 'startend:quotation'],
			kwargs: [{}, {}]
		});
		const result = scoreAnswer(ifeval, 'Here you go:\n"No commas here"');
		expect(result.correct).toBe(false);
		expect(result.strict).toBe(false);
		expect(result.loose).toBe(true);
		expect(result.per_instruction).toEqual([
			{ id: 'punctuation:no_comma', strict: true, loose: true },
			{ id: 'startend:quotation', strict: false, loose: true }
		]);
		expect(result.detail).toBe('strict 1/2, loose 2/2; not followed: startend:quotation');
	});

	it('reports an IFEval item it cannot check instead of throwing', () => {
		const unknown = item({ task: 'ifeval', instruction_ids: ['made:up'], kwargs: [{}] });
		expect(scoreAnswer(unknown, 'text')).toEqual({
			correct: null,
			detail: 'cannot score: unknown IFEval instruction: made:up'
		});
		const badKwargs = item({
			task: 'ifeval',
			instruction_ids: ['length_constraints:number_words'],
			kwargs: [{ num_words: 5 }]
		});
		expect(scoreAnswer(badKwargs, 'text').correct).toBeNull();
		expect(scoreAnswer(item({ task: 'ifeval' }), 'text').correct).toBeNull();
	});
});
