/**
 * Asking a server for its model's context window: vLLM's max_model_len in /v1/models and
 * llama-server's /props n_ctx (the real response shapes, through the mock server), and every way
 * it stays unknown: other servers, a /props for another model, bad values, a server that is down.
 * The answer token limit then follows it as for catalog models.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answerTokenLimit } from '../../../src/lib/probe/runConfig.ts';
import { DEFAULT_FORM } from '../../../src/lib/setup/runForm.ts';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import {
	contextFromModels,
	contextFromProps
} from '../../../src/lib/engines/server/contextWindow.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { mayServeProps } from '../../../src/lib/engines/server/servedTemplate.ts';
import { listenLocal } from '../../helpers/httpServer.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';

const GGUF = '/models/qwen2.5-0.5b-instruct-q8_0.gguf';

let mock: MockOpenAI | undefined;
afterEach(async () => {
	await mock?.close();
	mock = undefined;
});

describe('contextFromModels (vLLM)', () => {
	it('reads max_model_len of the asked model only', () => {
		const reply = {
			object: 'list',
			data: [
				{
					id: 'Qwen/Qwen3-0.6B',
					object: 'model',
					owned_by: 'vllm',
					root: 'Qwen/Qwen3-0.6B',
					max_model_len: 40960
				},
				{ id: 'other', object: 'model', max_model_len: 8192 }
			]
		};
		expect(contextFromModels(reply, 'Qwen/Qwen3-0.6B')).toEqual({
			tokens: 40960,
			source: 'max_model_len in /v1/models'
		});
		expect(contextFromModels(reply, 'missing')).toBeUndefined();
	});

	it('ignores values that are not positive integers, and replies that are not lists', () => {
		for (const bad of [0, -1, 4096.5, '4096', null]) {
			expect(contextFromModels({ data: [{ id: 'm', max_model_len: bad }] }, 'm')).toBeUndefined();
		}
		expect(contextFromModels({ data: 'x' }, 'm')).toBeUndefined();
		expect(contextFromModels(null, 'm')).toBeUndefined();
	});
});

describe('contextFromProps (llama-server)', () => {
	const props = { default_generation_settings: { n_ctx: 8192 }, total_slots: 1, model_path: GGUF };

	it('counts for the model it names or the only served model', () => {
		const want = { tokens: 8192, source: 'n_ctx in llama-server /props' };
		expect(contextFromProps(props, GGUF, [GGUF])).toEqual(want);
		expect(contextFromProps({ ...props, model_alias: 'q' }, 'q', ['q', 'r'])).toEqual(want);
		expect(contextFromProps(props, 'q', ['q'])).toEqual(want);
	});

	it('says nothing of another model, or without a usable n_ctx', () => {
		expect(contextFromProps(props, 'q', ['q', 'r'])).toBeUndefined();
		expect(contextFromProps(props, 'q', ['r'])).toBeUndefined();
		expect(
			contextFromProps({ ...props, default_generation_settings: {} }, GGUF, [GGUF])
		).toBeUndefined();
		expect(
			contextFromProps({ ...props, default_generation_settings: { n_ctx: -4 } }, GGUF, [GGUF])
		).toBeUndefined();
		expect(contextFromProps('<html>', GGUF, [GGUF])).toBeUndefined();
	});
});

describe('OpenAIEngine.contextWindow against mock servers', () => {
	it('llama-server: /props n_ctx, with the model path as id or an alias', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, contextSize: 8192 } });
		const engine = new OpenAIEngine({ baseUrl: `${mock.url}/v1` });
		expect(await engine.contextWindow(GGUF)).toEqual({
			tokens: 8192,
			source: 'n_ctx in llama-server /props'
		});
		expect(mock.requests.map((r) => r.path)).toEqual(['/v1/models', '/props']);
		await mock.close();
		mock = await startMockOpenAI({
			llamaServer: { modelPath: GGUF, alias: 'qwen', contextSize: 2048 }
		});
		expect((await new OpenAIEngine({ baseUrl: mock.url }).contextWindow('qwen'))?.tokens).toBe(
			2048
		);
	});

	it('vLLM: max_model_len in /v1/models, without asking /props', async () => {
		mock = await startMockOpenAI({ models: ['Qwen/Qwen3-0.6B'] });
		mock.modelFields['Qwen/Qwen3-0.6B'] = {
			owned_by: 'vllm',
			root: 'Qwen/Qwen3-0.6B',
			max_model_len: 40960
		};
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		expect((await engine.contextWindow('Qwen/Qwen3-0.6B'))?.tokens).toBe(40960);
		expect(mock.requests.map((r) => r.path)).toEqual(['/v1/models']);
	});

	it('a server that tells neither (404 on /props) leaves it unknown, and the typed limit stands', async () => {
		mock = await startMockOpenAI({ models: ['m'] });
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		const found = await engine.contextWindow('m');
		expect(found).toBeUndefined();
		expect(mock.requests.map((r) => r.path)).toEqual(['/v1/models', '/props']);
		expect(answerTokenLimit(DEFAULT_FORM, found?.tokens)).toBe(DEFAULT_FORM.answer_max_tokens);
		// Known: sized like a catalog model's.
		expect(answerTokenLimit(DEFAULT_FORM, 8192)).toBe(8192 - DEFAULT_FORM.max_tokens - 512);
	});

	it('a failing or unreachable server is unknown, never an error; an abort is an abort', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF } });
		mock.enqueueFailure({ status: 500 });
		mock.enqueueFailure({ garbageJson: true });
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		expect(await engine.contextWindow(GGUF)).toBeUndefined();
		const url = mock.url;
		await mock.close();
		mock = undefined;
		expect(await new OpenAIEngine({ baseUrl: url }).contextWindow(GGUF)).toBeUndefined();
		const ctrl = new AbortController();
		ctrl.abort();
		await expect(
			new OpenAIEngine({ baseUrl: url }).contextWindow(GGUF, ctrl.signal)
		).rejects.toBeInstanceOf(AbortError);
	});

	it("vLLM's own /v1/models: each served model's max_model_len, and /props is a 404 there", async () => {
		mock = await startMockOpenAI({
			models: ['Qwen/Qwen3-0.6B', 'Qwen/Qwen2.5-1.5B-Instruct'],
			// Qwen's ChatML special tokens, as vLLM serves them.
			vllm: {
				server: 'vllm',
				maxModelLen: 32768,
				special: ['<|im_start|>', '<|im_end|>', '<|endoftext|>'],
				eos: ['<|im_end|>', '<|endoftext|>']
			}
		});
		const engine = new OpenAIEngine({ baseUrl: `${mock.url}/v1` });
		for (const id of ['Qwen/Qwen3-0.6B', 'Qwen/Qwen2.5-1.5B-Instruct']) {
			expect(await engine.contextWindow(id)).toEqual({
				tokens: 32768,
				source: 'max_model_len in /v1/models'
			});
		}
		// A model it does not serve: unknown, and /props (a 404 on vLLM) is never asked.
		expect(await engine.contextWindow('not-served')).toBeUndefined();
		expect(await engine.servedTemplate()).toBeUndefined();
		expect(mock.requests.map((r) => r.path)).not.toContain('/props');
		const props = await fetch(`${mock.url}/props`);
		expect(props.status).toBe(404);
	});

	it("SGLang names itself too: /props is not asked; an unnamed server's is", async () => {
		mock = await startMockOpenAI({
			models: ['Qwen/Qwen3-0.6B'],
			vllm: { server: 'sglang', special: ['<|im_end|>'], eos: ['<|im_end|>'] }
		});
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		expect(await engine.servedTemplate()).toBeUndefined();
		expect(mock.requests.map((r) => r.path)).toEqual(['/v1/models']);
		expect(mayServeProps({ data: [{ id: 'm', owned_by: 'llamacpp' }] })).toBe(true);
		expect(mayServeProps({ data: [{ id: 'm', owned_by: 'organization-owner' }] })).toBe(true);
		// /v1/models that cannot be read says nothing of the server: /props is still worth asking.
		expect(mayServeProps(undefined)).toBe(true);
		expect(mayServeProps({ data: [{ id: 'm', owned_by: 'vllm' }] })).toBe(false);
	});

	it('a reply cut off mid-body, or a 200 that is not JSON, is unknown, never an error', async () => {
		const cut = await listenLocal((req, res) => {
			res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '400' });
			res.write('{"object": "list", "data": [{"id": "m", "max_model_len": 40');
			setTimeout(() => res.destroy(), 10);
		});
		try {
			expect(await new OpenAIEngine({ baseUrl: cut.base }).contextWindow('m')).toBeUndefined();
		} finally {
			await cut.close();
		}
		const html = await listenLocal((req, res) => {
			res.writeHead(200, { 'Content-Type': 'text/html' });
			res.end('<html><body>Sign in to continue</body></html>');
		});
		try {
			expect(await new OpenAIEngine({ baseUrl: html.base }).contextWindow('m')).toBeUndefined();
		} finally {
			await html.close();
		}
	});

	it('sends the API key, as for every other request', async () => {
		mock = await startMockOpenAI({
			llamaServer: { modelPath: GGUF, contextSize: 1024 },
			apiKey: 'k'
		});
		expect(await new OpenAIEngine({ baseUrl: mock.url }).contextWindow(GGUF)).toBeUndefined();
		expect(
			(await new OpenAIEngine({ baseUrl: mock.url, apiKey: 'k' }).contextWindow(GGUF))?.tokens
		).toBe(1024);
	});
});
