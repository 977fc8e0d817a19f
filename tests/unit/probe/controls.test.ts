/**
 * The authors' controls (neutral, contradict, header_only) as perturbations: what replaces the
 * answer, and that the header_only prompt holds neither the question nor the answer on the real
 * templates whose system-prompt insertions matter (Qwen3.5, gpt-oss, GLM, Llama).
 */
import { describe, expect, it } from 'vitest';
import {
	CONTRADICT_TEXT,
	DEFAULT_PERTURB_PARAMS,
	NEUTRAL_TEXT,
	contradiction,
	keepsConversation,
	perturbAnswer
} from '../../../src/lib/probe/perturb.ts';
import { answerRecord, probeInput } from '../../../src/lib/probe/records.ts';
import { gsm8kCorrect } from '../../../src/lib/probe/scoring/gsm8k.ts';
import { choiceCorrect } from '../../../src/lib/probe/scoring/choice.ts';
import { probePrompt, userHeader } from '../../../src/lib/probe/template.ts';
import type { CompletionResult } from '../../../src/lib/probe/engine.ts';
import type { DatasetItem } from '../../../src/lib/probe/types.ts';
import { probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate, readJsonl } from '../../helpers/fixtures.ts';

const P = DEFAULT_PERTURB_PARAMS;

describe('neutral', () => {
	it('replaces the answer whatever it was', () => {
		expect(perturbAnswer('#### 18', 'neutral', P)).toBe(NEUTRAL_TEXT);
		expect(perturbAnswer('', 'neutral', P)).toBe(NEUTRAL_TEXT);
		expect(NEUTRAL_TEXT).not.toMatch(/\?|\d/);
	});
});

describe('contradict', () => {
	const gsm = (gold: string): DatasetItem => ({ id: 'g', task: 'gsm8k', prompt: 'q', gold });

	it('states a confident wrong GSM8K number: neither the gold nor the model’s', () => {
		const gold = 'Janet sells 9 eggs.\n#### 18';
		const text = perturbAnswer('So she makes $18.\n#### 18', 'contradict', P, gsm(gold));
		expect(text).toMatch(/certain the final answer is 36\.$/);
		expect(gsm8kCorrect(text, gold)).toBe(false);
	});

	it('steps past the model’s own wrong answer and a zero gold', () => {
		// The model already said 36 (twice the gold): the contradiction must differ from it too.
		expect(contradiction('#### 36', gsm('18'))).toMatch(/is 19\.$/);
		expect(contradiction('#### 1', gsm('0'))).toMatch(/is 2\.$/);
		expect(contradiction('#### 7', gsm('2.5'))).toMatch(/is 5\.$/);
	});

	it('picks a wrong option letter for multiple choice, neither gold nor given', () => {
		const item: DatasetItem = {
			id: 'm',
			task: 'multiple_choice',
			prompt: 'q',
			gold: 'A',
			choices: ['w', 'x', 'y', 'z']
		};
		const text = contradiction('The answer is (B).', item);
		expect(text).toMatch(/\(C\)\.$/);
		expect(choiceCorrect(text, 'A', 4)).toBe(false);
	});

	it('falls back to a general contradiction without a gold answer', () => {
		const ifeval: DatasetItem = { id: 'i', task: 'ifeval', prompt: 'Write a haiku.' };
		expect(perturbAnswer('A haiku.', 'contradict', P, ifeval)).toBe(CONTRADICT_TEXT);
		expect(perturbAnswer('x', 'contradict', P)).toBe(CONTRADICT_TEXT);
		expect(contradiction('x', gsm('no number here'))).toBe(CONTRADICT_TEXT);
	});
});

describe('header_only on real templates', () => {
	const [row] = readJsonl<{ question: string; answer: string }>('gsm8k/test.jsonl');
	const item: DatasetItem = { id: 'gsm-0', task: 'gsm8k', prompt: row.question, gold: row.answer };
	const system = 'You are a careful math tutor. Show your work.';
	const config = probeConfig({
		task_prompt: { preset: 'custom', template: 'Solve: {question}', system }
	});
	const result: CompletionResult = {
		text: row.answer,
		finish_reason: 'stop',
		usage: { prompt_tokens: 1, completion_tokens: 1 }
	};
	const answer = answerRecord({ run_id: 'r', item, prompt: 'p', seed: 1, result, created_at: 't' });
	const fragments = [row.question.slice(0, 40), 'Janet sells 16 - 3 - 4', system, 'Solve:'];

	it.each([
		'Qwen/Qwen3.5-2B',
		'Qwen/Qwen3.5-0.8B',
		'openai/gpt-oss-20b',
		'zai-org/GLM-4.7-Flash',
		'zai-org/GLM-4.7',
		'meta-llama/Llama-3.2-1B-Instruct',
		'Qwen/Qwen2.5-0.5B-Instruct'
	])('%s: the empty conversation plus the bare user header, nothing of the item', (repo) => {
		const t = fixtureTemplate(repo);
		const render = { enable_thinking: false, date_string: config.date_string };
		const none = probeInput(config, t, render, item, answer, 'none');
		// The same item under 'none' carries everything this test looks for: the check can fail.
		for (const f of fragments) expect(none.prompt).toContain(f);

		const control = probeInput(config, t, render, item, answer, 'header_only');
		expect(control.perturbed).toBe('');
		for (const f of fragments) expect(control.prompt).not.toContain(f);
		expect(control.prompt).not.toContain('18');
		expect(control.prompt).toBe(probePrompt(t, [], render));
		expect(control.prompt.endsWith(userHeader(t, [], render))).toBe(true);
		// Only the template's own insertions come before the header (gpt-oss's system block, Llama's
		// dates, Qwen2.5's default system prompt): the header is the one user turn.
		const header = userHeader(t, [], render);
		expect(control.prompt.indexOf(header)).toBe(control.prompt.length - header.length);
	});

	it('keeps the conversation for every other perturbation', () => {
		expect(keepsConversation('header_only')).toBe(false);
		for (const p of ['none', 'truncate', 'append', 'neutral', 'contradict'] as const) {
			expect(keepsConversation(p)).toBe(true);
			const t = fixtureTemplate('Qwen/Qwen3.5-2B');
			const input = probeInput(config, t, {}, item, answer, p);
			expect(input.prompt).toContain(row.question.slice(0, 40));
			expect(input.prompt).toContain(input.perturbed);
		}
	});
});
