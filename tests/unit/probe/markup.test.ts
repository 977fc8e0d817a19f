/**
 * What the templates' markup implies: gpt-oss's user header stops at "<|start|>user" (the paper's
 * rule) and every other family's at its end; gpt-oss's reasoning effort; and the shapes a reply
 * takes when a server dropped its special tokens, which must stop a run, while ordinary turns of
 * every shipped family must not.
 */
import { describe, expect, it } from 'vitest';
import {
	checkMarkupKept,
	reasoningEffortDefault,
	StrippedMarkupError,
	templateMarkup,
	userHeaderDefault,
	userTurnText
} from '../../../src/lib/probe/markup.ts';
import { assistantPrompt, probePrompt, userHeader } from '../../../src/lib/probe/template.ts';
import type { ChatMessage } from '../../../src/lib/probe/types.ts';
import { fixtureTemplate, readFixture } from '../../helpers/fixtures.ts';

const GPT_OSS = fixtureTemplate('openai/gpt-oss-20b');
const GLM = fixtureTemplate('zai-org/GLM-4.7-Flash');
const QWEN35 = fixtureTemplate('Qwen/Qwen3.5-0.8B');
const ALL = Object.keys(JSON.parse(readFixture('templates/index.json')) as object);
const EXCHANGE: ChatMessage[] = [
	{ role: 'user', content: 'Tom has 2 apples and buys 3. How many?' },
	{ role: 'assistant', content: 'He has 5 apples.' }
];

describe('where the user header stops', () => {
	it.each(ALL)('%s: the paper rule (harmony at the role, others at the header end)', (id) => {
		expect(userHeaderDefault(fixtureTemplate(id))).toBe(
			id.startsWith('openai/') ? 'role' : 'template'
		);
	});

	it('cuts gpt-oss at "<|start|>user", leaving "<|message|>" or a channel to the model', () => {
		const prompt = probePrompt(GPT_OSS, EXCHANGE, { user_header: 'role' });
		expect(prompt.endsWith('He has 5 apples.<|end|><|start|>user')).toBe(true);
		expect(userHeader(GPT_OSS, EXCHANGE, { user_header: 'role' })).toBe('<|start|>user');
		expect(probePrompt(GPT_OSS, EXCHANGE).endsWith('<|start|>user<|message|>')).toBe(true);
	});

	it('can cut ChatML at the role too, when asked', () => {
		expect(
			probePrompt(QWEN35, EXCHANGE, { user_header: 'role' }).endsWith('<|im_start|>user')
		).toBe(true);
	});

	it('takes the header rest the model wrote off a plain message, and keeps a channel it chose', () => {
		expect(userTurnText(GPT_OSS, 'role', '<|message|>Why add them?')).toBe('Why add them?');
		const leak = '<|channel|>analysis<|message|>We need to check.';
		expect(userTurnText(GPT_OSS, 'role', leak)).toBe(leak);
		expect(userTurnText(GPT_OSS, 'template', '<|message|>Why?')).toBe('<|message|>Why?');
	});
});

describe('templateMarkup, what the set-up view offers', () => {
	it('gives gpt-oss both headers, the role cut by default with its reason, and an effort', () => {
		const m = templateMarkup(GPT_OSS, EXCHANGE);
		expect(m).toMatchObject({
			headerDefault: 'role',
			headers: { template: '<|start|>user<|message|>', role: '<|start|>user' },
			effortDefault: 'medium'
		});
		expect(m.headerReason).toMatch(/^gpt-oss \(harmony\): the header stops at "<\|start\|>user"/);
		// The paper's prompt is not printed: the cut is inferred from its appendix example.
		expect(m.headerReason).toContain('inference');
		expect(templateMarkup(QWEN35, EXCHANGE)).toMatchObject({
			headerDefault: 'template',
			headers: { template: '<|im_start|>user\n', role: '<|im_start|>user' },
			effortDefault: null
		});
	});
});

describe('reasoning effort', () => {
	it('is gpt-oss\'s "Reasoning:" line, medium by default, and no other family has one', () => {
		expect(reasoningEffortDefault(GPT_OSS)).toBe('medium');
		const one: ChatMessage[] = [{ role: 'user', content: 'Q?' }];
		expect(assistantPrompt(GPT_OSS, one, { reasoning_effort: 'high' })).toContain(
			'Reasoning: high'
		);
		for (const id of ALL.filter((x) => !x.startsWith('openai/')))
			expect(reasoningEffortDefault(fixtureTemplate(id))).toBeNull();
	});
});

describe('replies whose markup a server dropped', () => {
	it.each([
		[
			"the issue's gpt-oss answer",
			GPT_OSS,
			'analysisWe need to add 2 and 3.assistantfinalShe has 5 apples.',
			'answer'
		],
		['a gpt-oss leak into the user turn', GPT_OSS, 'analysisWe need to double check.', 'user_turn'],
		[
			'a gpt-oss answer from its final message on',
			GPT_OSS,
			'She has 5.assistantfinalShe has 5.',
			'answer'
		],
		[
			'a GLM user turn run on into the reply',
			GLM,
			'Why add them?</think>Because it is a total.',
			'user_turn'
		]
	] as const)('stops the run on %s', (_, t, text, stage) => {
		expect(() => checkMarkupKept(t, text, stage)).toThrow(StrippedMarkupError);
		expect(() => checkMarkupKept(t, text, stage)).toThrow(/docs\/servers\.md|special tokens/);
	});

	it.each([
		['kept harmony markup', GPT_OSS, '<|channel|>analysis<|message|>We need…<|end|>'],
		['a plain gpt-oss follow-up', GPT_OSS, 'Why did you add them?'],
		['a word that starts like a channel', GPT_OSS, 'finally, why add them? analysis please'],
		['a GLM follow-up', GLM, 'Why add them?'],
		// Before, these three stopped the whole run: the check looked for "</think>" anywhere.
		['a GLM user turn that kept a think block', GLM, '<think>I should ask.</think>Why add them?'],
		['a GLM user turn that kept its markup', GLM, 'Why add them?<|assistant|></think>Because.'],
		['a GLM user turn that mentions the tag', GLM, 'Why does your reply end with `</think>`?'],
		['a Qwen3.5 answer with its reasoning', QWEN35, 'Add.\n</think>\n\nHe has 5 apples.']
	] as const)('lets %s through', (_, t, text) => {
		expect(() => checkMarkupKept(t, text, 'answer')).not.toThrow();
		expect(() => checkMarkupKept(t, text, 'user_turn')).not.toThrow();
	});

	it.each(ALL)('%s: ordinary follow-ups and answers pass', (id) => {
		const t = fixtureTemplate(id);
		for (const text of [
			'Why did you add them?',
			'He has 5 apples. assistant final answer',
			'analysis: 5'
		])
			for (const stage of ['answer', 'user_turn'] as const)
				expect(() => checkMarkupKept(t, text, stage)).not.toThrow();
	});
});
