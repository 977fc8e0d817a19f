import { describe, expect, it } from 'vitest';
import { extractGsm8kAnswer, gsm8kCorrect } from '../../../../src/lib/probe/scoring/gsm8k.ts';
import { readJsonl } from '../../../helpers/fixtures.ts';

interface Gsm8kRow {
	question: string;
	answer: string;
}

const ROWS = readJsonl<Gsm8kRow>('gsm8k/test.jsonl');

describe('GSM8K reference solutions', () => {
	it('reads all 1,319 test rows', () => {
		expect(ROWS).toHaveLength(1319);
	});

	it('extracts exactly the text after #### (commas dropped) from every solution', () => {
		const mismatches = ROWS.filter((row) => {
			const afterHashes = row.answer.split('####').pop()?.trim().replace(/,/g, '');
			return extractGsm8kAnswer(row.answer) !== afterHashes;
		});
		expect(mismatches).toEqual([]);
	});

	it('scores every solution correct against itself and against its bare number', () => {
		const failures = ROWS.filter((row) => {
			const bare = row.answer.split('####').pop()?.trim() ?? '';
			return !gsm8kCorrect(row.answer, row.answer) || !gsm8kCorrect(row.answer, bare);
		});
		expect(failures).toEqual([]);
	});

	it('ignores the numbers in calculator annotations before ####', () => {
		const solution = 'She has 3 * 4 = <<3*4=12>>12 eggs.\nThen 12 + 6 = <<12+6=18>>18.\n#### 18';
		expect(extractGsm8kAnswer(solution)).toBe('18');
	});
});

/** [what the model wrote, the number we should read]. */
const EXTRACTIONS: [string, string | null][] = [
	['Janet makes 9 * 2 = $18 per day.\n#### 18', '18'],
	['The answer is 18.', '18'],
	['the answer is: 1,234', '1234'],
	['Final answer: 42', '42'],
	['**Final Answer:** $18', '18'],
	['Final Answer\n\n72', '72'],
	['**Answer**: 18\n\nIt took 2 steps.', '18'],
	['The final answer is $\\boxed{18}$.', '18'],
	['So the total is \\boxed{\\$1{,}250}.', '1250'],
	['\\boxed{18 \\text{ dollars}}', '18'],
	['\\[\\boxed{\\frac{3}{4}}\\]', '0.75'],
	['\\boxed{2 \\times 9 = 18}', '18'],
	['The answer is 9 * 2 = 18 dollars.', '18'],
	[
		'Janet sells 9 eggs.\n\nSo she makes **$18** every day. Let me know if step 2 was unclear.',
		'18'
	],
	['She earns 18 dollars.', '18'],
	['The box weighs 5 kg.', '5'],
	['It costs €18.', '18'],
	['That is 18.00 in total', '18'],
	['The change in temperature is -7 degrees.', '-7'],
	['The change is −7.', '-7'],
	['Between 3-5 hours.', '5'],
	['The ratio works out to 3/4', '0.75'],
	['Pick 1,2,3', '3'],
	['0.1 + 0.2 = 0.30000000000000004', '0.3'],
	['The answer is 18. I hope this helps with your 3 questions!', '18'],
	['Answer: 18\n\nExplanation: first we add 7 and 4, then 2 more.', '18'],
	['There are twelve of them.', null],
	['', null]
];

describe('extractGsm8kAnswer on model outputs', () => {
	it.each(EXTRACTIONS)('reads %j as %s', (text, expected) => {
		expect(extractGsm8kAnswer(text)).toBe(expected);
	});
});

/** [model output, gold, correct?]. */
const JUDGEMENTS: [string, string, boolean][] = [
	['The answer is 18.', '#### 18', true],
	['She makes $18.00 a day.', '18', true],
	['Total profit: $70,000.', 'So he made a profit of 70,000\n#### 70000', true],
	['The answer is 1,450,000.', '#### 1,450,000', true],
	['The answer is 17.', '#### 18', false],
	['The answer is 18. Wait, let me recompute: the answer is 16.', '#### 18', false],
	['She has 18 eggs and sells 16 of them.', '#### 18', false],
	['I cannot solve this problem.', '#### 18', false],
	['The answer is -3.', '#### 3', false],
	['The answer is 0.5', '#### 0.5', true]
];

describe('gsm8kCorrect', () => {
	it.each(JUDGEMENTS)('%j against %j → %s', (prediction, gold, expected) => {
		expect(gsm8kCorrect(prediction, gold)).toBe(expected);
	});
});
