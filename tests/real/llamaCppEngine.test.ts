/**
 * The OpenAI engine against real inference: a tiny real model (tests/helpers/tinyModel) in real
 * llama.cpp behind a small OpenAI-compatible server. The engine contract runs here as it does against
 * the scripted fakes, plus what only a real server shows: its model ids, its context-overflow errors,
 * its timings, grammar-constrained judge JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIEngine } from '../../src/lib/engines/server/client.ts';
import { EngineError, type CompletionRequest } from '../../src/lib/probe/engine.ts';
import { userHeader } from '../../src/lib/probe/template.ts';
import { buildJudgeMessages, judgeSchema, parseJudgeOutput } from '../../src/lib/probe/judge.ts';
import { engineContract } from '../helpers/engineContract.ts';
import { startLlamaCppServer, type LlamaCppServer } from '../helpers/llamaCppServer.ts';
import { buildTinyModel } from '../helpers/tinyModel/index.ts';

let server: LlamaCppServer;

beforeAll(async () => {
	const model = await buildTinyModel({ seed: 1 });
	server = await startLlamaCppServer({ modelPath: model.path, alias: 'tiny', contextSize: 4096 });
});
afterAll(async () => server?.close());

engineContract('openai over real llama.cpp', async () => ({
	engine: new OpenAIEngine({ baseUrl: server.url, maxConcurrency: 1 }),
	model: 'tiny',
	reference: async (req: CompletionRequest) => {
		const r = await server.generate({
			prompt: req.prompt,
			maxTokens: req.max_tokens,
			temperature: req.temperature,
			topP: req.top_p,
			seed: req.seed,
			stop: req.stop
		});
		return { text: r.text, finish_reason: r.finishReason };
	},
	slowNextRequest: (ms) => server.slowNextRequest(ms)
}));

const prompt = (q: string) =>
	`<|im_start|>user\n${q}<|im_end|>\n<|im_start|>assistant\nSure.<|im_end|>\n<|im_start|>user\n`;

describe('real llama.cpp server behaviour the engine relies on', () => {
	const engine = () => new OpenAIEngine({ baseUrl: server.url, maxRetries: 0 });

	it('lists the alias as the model id, as llama-server --alias does', async () => {
		expect(await engine().listModels()).toEqual(['tiny']);
	});

	it("reads the slot's context window from /props, as from llama-server", async () => {
		expect(await engine().contextWindow('tiny')).toEqual({
			tokens: server.contextSize,
			source: 'n_ctx in llama-server /props'
		});
		expect(await engine().contextWindow('not-served')).toBeUndefined();
	});

	it("reads the GGUF's own chat template and end-of-turn token from /props", async () => {
		const t = await engine().servedTemplate();
		expect(t?.server).toBe(`${server.url.replace(/\/v1$/, '')}/props`);
		expect(t?.eos_token).toBe('<|im_end|>');
		const exchange = [
			{ role: 'user' as const, content: 'Q' },
			{ role: 'assistant' as const, content: 'A' }
		];
		expect(t && userHeader(t, exchange)).toBe('<|im_start|>user\n');
	});

	it('lists the model path without an alias, and stops with "length" at the end of the context', async () => {
		const model = await buildTinyModel({ seed: 1 });
		const bare = await startLlamaCppServer({ modelPath: model.path, contextSize: 256 });
		try {
			const e = new OpenAIEngine({ baseUrl: bare.url });
			expect(await e.listModels()).toEqual([model.path]);
			expect((await e.contextWindow(model.path))?.tokens).toBe(bare.contextSize);
			await e.load([model.path]);
			await expect(e.load(['tiny'])).rejects.toMatchObject({ code: 'bad_model' });
			bare.slowNextRequest(0); // ignore end-of-generation: run into the context's end
			const res = await e.complete({
				model: model.path,
				prompt: prompt('word '.repeat(200)),
				temperature: 1,
				top_p: 1,
				seed: 1,
				max_tokens: 500,
				stop: []
			});
			expect(res.finish_reason).toBe('length');
			expect(res.usage.prompt_tokens + res.usage.completion_tokens).toBe(bare.contextSize);
		} finally {
			await bare.close();
		}
	});

	it('counts usage and reads llama.cpp timings', async () => {
		const res = await engine().complete({
			model: 'tiny',
			prompt: prompt('Count.'),
			temperature: 1,
			top_p: 1,
			seed: 5,
			max_tokens: 40,
			stop: ['<|im_end|>']
		});
		expect(res.usage.prompt_tokens).toBeGreaterThan(10);
		expect(res.usage.completion_tokens).toBeGreaterThan(0);
		expect(res.usage.completion_tokens).toBeLessThanOrEqual(40);
		expect(res.usage.decode_tps ?? 0).toBeGreaterThan(0);
		expect(res.usage.prefill_tps ?? 0).toBeGreaterThan(0);
	});

	it('turns a prompt longer than the context into a context_window error, not a fatal one', async () => {
		const long = prompt('word '.repeat(5000));
		const err = await engine()
			.complete({
				model: 'tiny',
				prompt: long,
				temperature: 0,
				top_p: 1,
				seed: 1,
				max_tokens: 8,
				stop: ['<|im_end|>']
			})
			.catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ code: 'context_window', retryable: false });
		expect((err as Error).message).toMatch(
			/request \(\d+ tokens\) exceeds the available context size \(4096 tokens\)/
		);
	});

	it("answers the judge's real schema with JSON the grammar keeps valid and within bounds", async () => {
		const e = engine();
		for (let i = 0; i < 2; i++) {
			const res = await e.chatJson({
				model: 'tiny',
				messages: buildJudgeMessages({
					question: `What is ${i} + 2?`,
					answer: `It is ${i + 2}.`,
					user_turn: 'Why?'
				}),
				schema: judgeSchema(),
				temperature: i === 0 ? 0 : 0.7,
				top_p: 1,
				seed: i,
				max_tokens: 300
			});
			const json = JSON.parse(res.text) as { label: string; verdict: string; rationale: string };
			expect(Object.keys(json).sort()).toEqual(['label', 'rationale', 'verdict']);
			expect(['genuine', 'not_genuine']).toContain(json.verdict);
			expect(json.rationale.length).toBeLessThanOrEqual(200);
			expect(parseJudgeOutput(res.text)).toMatchObject({
				label: json.label,
				verdict: json.verdict
			});
		}
	});
});
