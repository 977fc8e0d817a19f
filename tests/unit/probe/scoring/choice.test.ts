import { describe, expect, it } from 'vitest';
import { choiceCorrect, extractChoice } from '../../../../src/lib/probe/scoring/choice.ts';

/** [model output, letter we should read (null = none or ambiguous)], four options A–D. */
const FOUR_OPTIONS: [string, string | null][] = [
	['The answer is (B)', 'B'],
	['Answer: C', 'C'],
	['**Answer**: B', 'B'],
	['Answer - D', 'D'],
	['**D**', 'D'],
	['(a)', 'A'],
	['B', 'B'],
	['c.', 'C'],
	['B) Paris is the capital of France.', 'B'],
	['(d) none of the above', 'D'],
	['The correct answer is: **B) 42**', 'B'],
	['Therefore, the answer is D.', 'D'],
	['I think the answer is B.', 'B'],
	['The answer would be option C.', 'C'],
	['The final answer is $\\boxed{A}$', 'A'],
	['Option D is the best choice.', 'D'],
	['(C) is correct because it balances both.', 'C'],
	['I would go with (c).', 'C'],
	['The answer is A because the others contradict the premise.', 'A'],
	['the answer is: a.', 'A'],
	['Let us check. (A) is wrong. (B) is wrong. The answer is C.', 'C'],
	['The answer is C. Option A is wrong because it ignores friction.', 'C'],
	['The answer is a bit tricky, but (C) fits best.', 'C'],
	['Looking at the options, **B** stands out.', 'B'],
	['Answer: Because the force doubles, choose B.', 'B'],
	['The answer is B or C.', null],
	['I think (A) and (C) are both plausible.', null],
	['A) 12\nB) 14\nC) 16\nD) 18', null],
	['The answer is Paris.', null],
	['I am not sure.', null],
	['', null],
	['The answer is (F).', null]
];

describe('extractChoice', () => {
	it.each(FOUR_OPTIONS)('reads %j as %s', (text, expected) => {
		expect(extractChoice(text, 4)).toBe(expected);
	});

	it('accepts letters up to J when there are ten options', () => {
		expect(extractChoice('The answer is (J).', 10)).toBe('J');
		expect(extractChoice('The answer is (J).', 4)).toBeNull();
	});

	it('reads a bare "I" as the word, not option I', () => {
		expect(extractChoice('I think the answer is H.', 10)).toBe('H');
		expect(extractChoice('The answer is I guess unclear.', 10)).toBeNull();
	});

	it('lets a later explicit statement override an earlier one', () => {
		expect(extractChoice('The answer is A. Wait, no: the answer is D.', 4)).toBe('D');
	});
});

describe('choiceCorrect', () => {
	it('matches the gold letter in any common form', () => {
		expect(choiceCorrect('The answer is (B).', 'B')).toBe(true);
		expect(choiceCorrect('Answer: b', '(B)')).toBe(true);
	});

	it('is false for a different letter and for an ambiguous reply', () => {
		expect(choiceCorrect('The answer is (C).', 'B')).toBe(false);
		expect(choiceCorrect('(B) or (C)', 'B')).toBe(false);
	});
});
