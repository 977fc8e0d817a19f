import { describe, expect, it } from 'vitest';
import { stripThinking } from '../../../../src/lib/probe/scoring/think.ts';

describe('stripThinking', () => {
	it.each([
		['<think>draft 17</think>\n\nThe answer is 18.', 'The answer is 18.'],
		['  <think>\nmulti\nline\n</think>Answer: B', 'Answer: B'],
		['<think>still thinking about 17 and', ''],
		['The answer is 18.', 'The answer is 18.'],
		['Answer first. <think>late</think>', 'Answer first. <think>late</think>'],
		['<think>a</think>B<think>c</think>', 'B<think>c</think>']
	])('%j → %j', (input, expected) => {
		expect(stripThinking(input)).toBe(expected);
	});
});
