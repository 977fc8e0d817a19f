import { describe, expect, it } from 'vitest';
import { isGsm8kGold, isTaskKind, itemProblems } from '../../../src/lib/datasets/items.ts';

describe('isGsm8kGold', () => {
	it.each([
		['18', true],
		['-3', true],
		['2.5', true],
		['.5', true],
		['70,000', true],
		[' 42 ', true],
		['#### 18', true],
		['He made 200,000-130,000=$70,000\n#### 70000', true],
		['####-4', true],
		['eighteen', false],
		['18 apples', false],
		['1.2.3', false],
		['', false],
		['#### ', false],
		['#### 18\nThanks!', false]
	])('%j → %s', (gold, expected) => {
		expect(isGsm8kGold(gold)).toBe(expected);
	});
});

describe('itemProblems', () => {
	it('accepts a minimal open prompt', () => {
		expect(itemProblems({ id: 'a', task: 'none', prompt: 'hi' })).toEqual([]);
	});

	it.each([
		[null, 'not an object'],
		[[], 'not an object'],
		[{ task: 'none', prompt: 'p' }, "'id' is missing"],
		[{ id: 'a', task: 'essay', prompt: 'p' }, "'task' must be one of"],
		[{ id: 'a', task: 'none', prompt: ' ' }, "'prompt' is missing or empty"],
		[{ id: 'a', task: 'none', prompt: 'p', gold: 3 }, "'gold' must be a string"],
		[{ id: 'a', task: 'gsm8k', prompt: 'p', gold: 'x' }, 'a gsm8k'],
		[{ id: 'a', task: 'multiple_choice', prompt: 'p', gold: 'AB' }, 'capital letter'],
		[{ id: 'a', task: 'ifeval', prompt: 'p' }, "needs 'instruction_ids'"]
	])('flags %j', (value, message) => {
		const problems = itemProblems(value);
		expect(problems).toHaveLength(1);
		expect(problems[0]).toContain(message);
	});

	it('knows exactly the four task kinds', () => {
		expect(['gsm8k', 'multiple_choice', 'ifeval', 'none'].every(isTaskKind)).toBe(true);
		expect(isTaskKind('GSM8K')).toBe(false);
		expect(isTaskKind(undefined)).toBe(false);
	});
});
