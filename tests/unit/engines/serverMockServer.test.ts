/** The mock server itself: the e2e tests and manual runs rely on its CORS, routes and scripts. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import {
	asksForUserTurn,
	createProbeScript,
	firstMessage,
	namedScript,
	XSS_TEXT
} from '../../helpers/mockScripts.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

const QWEN_USER_TURN =
	'<|im_start|>user\nTom has 3 apples and buys 4 more. How many?<|im_end|>\n' +
	'<|im_start|>assistant\nHe has 7 apples.<|im_end|>\n<|im_start|>user\n';
const QWEN_ANSWER =
	'<|im_start|>user\nTom has 3 apples and buys 4 more. How many?<|im_end|>\n<|im_start|>assistant\n';

describe('mock OpenAI server', () => {
	let mock: MockOpenAI;
	beforeEach(async () => {
		mock = await startMockOpenAI();
	});
	afterEach(async () => {
		await mock.close();
	});

	it('answers CORS preflights, including Chrome private-network ones', async () => {
		const res = await fetch(`${mock.url}/v1/chat/completions`, {
			method: 'OPTIONS',
			headers: {
				Origin: 'https://example.github.io',
				'Access-Control-Request-Method': 'POST',
				'Access-Control-Request-Headers': 'authorization, content-type',
				'Access-Control-Request-Private-Network': 'true'
			}
		});
		expect(res.status).toBe(204);
		expect(res.headers.get('access-control-allow-origin')).toBe('*');
		expect(res.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
		expect(res.headers.get('access-control-allow-private-network')).toBe('true');
		expect(mock.requests).toHaveLength(0);
	});

	it('allows any origin on errors too, so the browser can read them', async () => {
		mock.enqueueFailure({ status: 503 });
		const res = await fetch(`${mock.url}/v1/models`);
		expect(res.status).toBe(503);
		expect(res.headers.get('access-control-allow-origin')).toBe('*');
	});

	it('answers an unknown model with a vLLM-style 404', async () => {
		const res = await fetch(`${mock.url}/v1/completions`, {
			method: 'POST',
			body: JSON.stringify({ model: 'nope', prompt: 'x' })
		});
		expect(res.status).toBe(404);
		expect(await res.json()).toMatchObject({
			error: { message: 'The model `nope` does not exist.' }
		});
	});

	it('serves the same text as the scripted engine, streamed or not', async () => {
		const req = {
			model: 'mock-model',
			prompt: QWEN_USER_TURN,
			temperature: 0.9,
			top_p: 1,
			seed: 5,
			max_tokens: 40,
			stop: ['<|im_end|>']
		};
		const scripted = new ScriptedEngine();
		await scripted.load(['mock-model']);
		const expected = await scripted.complete(req);
		const whole = await fetch(`${mock.url}/v1/completions`, {
			method: 'POST',
			body: JSON.stringify({ ...req, stream: false })
		}).then((r) => r.json() as Promise<{ choices: { text: string }[] }>);
		const streamed = await new OpenAIEngine({ baseUrl: mock.url }).complete(req);
		expect(whole.choices[0].text).toBe(expected.text);
		expect(streamed.text).toBe(expected.text);
	});
});

describe('named mock scripts', () => {
	it('xss returns hostile markup as the generated text', async () => {
		const mock = await startMockOpenAI({ script: namedScript('xss') });
		try {
			const engine = new OpenAIEngine({ baseUrl: mock.url });
			const turn = await engine.complete({
				model: 'mock-model',
				prompt: QWEN_USER_TURN,
				temperature: 1,
				top_p: 1,
				seed: 1,
				max_tokens: 64,
				stop: ['<|im_end|>']
			});
			expect(turn.text).toBe(XSS_TEXT);
		} finally {
			await mock.close();
		}
	});

	it('tells answer prompts from user-turn prompts across templates', () => {
		expect(asksForUserTurn(QWEN_USER_TURN)).toBe(true);
		expect(asksForUserTurn(QWEN_ANSWER)).toBe(false);
		expect(asksForUserTurn(`${QWEN_ANSWER}<think>\n\n</think>\n\n`)).toBe(false);
		expect(asksForUserTurn('<start_of_turn>model\nHi<end_of_turn>\n<start_of_turn>user\n')).toBe(
			true
		);
		expect(firstMessage(QWEN_USER_TURN, 'assistant')).toBe('He has 7 apples.');
	});

	it('probe varies its user turns and its judge labels each by how it was made', () => {
		const script = createProbeScript();
		const labels = new Set<string>();
		for (let seed = 0; seed < 60; seed++) {
			const base = { model: 'm', temperature: 1, seed, max_tokens: 200, stop: [] };
			const turn = script({ ...base, kind: 'complete', prompt: QWEN_USER_TURN });
			const verdict = JSON.parse(
				script({
					...base,
					kind: 'chat',
					prompt: `user: Question: ${QWEN_ANSWER}\nAnswer: He has 7 apples.\nUser turn: ${turn}`
				})
			) as { label: string };
			labels.add(verdict.label);
			if (verdict.label === 'prompt_restatement') expect(turn).toContain('Tom has 3 apples');
			if (verdict.label === 'assistant_restatement') expect(turn).toContain('He has 7 apples.');
		}
		expect(labels.size).toBeGreaterThanOrEqual(5);
		const answer = script({
			kind: 'complete',
			model: 'm',
			prompt: QWEN_ANSWER,
			temperature: 0,
			seed: 0,
			max_tokens: 200,
			stop: []
		});
		expect(answer).toMatch(/#### \d+$/);
	});
});
