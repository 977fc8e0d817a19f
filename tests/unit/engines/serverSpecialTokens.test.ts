/**
 * The OpenAI engine asks for special tokens in the text (vLLM's and SGLang's
 * `skip_special_tokens: false`), and still works with servers that refuse fields they do not know
 * (a strict hosted API answering 400 "Unrecognized request argument supplied: …"): it asks again
 * without them, once, and never sends them to that server again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { HttpError } from '../../../src/lib/engines/server/http.ts';
import type { CompletionRequest } from '../../../src/lib/probe/engine.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import type { ScriptFn } from '../../helpers/script.ts';
import { specialTokenId } from '../../helpers/vllmDecode.ts';

const HARMONY = ['<|start|>', '<|end|>', '<|message|>', '<|channel|>', '<|return|>'];
const EOS = ['<|return|>'];
const REPLY =
	'<|channel|>analysis<|message|>We need 2+3.<|end|><|start|>assistant<|channel|>final<|message|>5<|return|>';
const script: ScriptFn = (req) => (req.kind === 'chat' ? '{}' : REPLY);

let mock: MockOpenAI | undefined;
afterEach(async () => {
	await mock?.close();
	mock = undefined;
});

const request = (stop: string[] = []): CompletionRequest => ({
	model: 'gen',
	prompt: '<|start|>user<|message|>2+3?<|end|><|start|>assistant',
	temperature: 0,
	top_p: 1,
	seed: 0,
	max_tokens: 64,
	stop
});

function completionBodies(): Record<string, unknown>[] {
	return (mock?.requests ?? [])
		.filter((r) => r.path === '/v1/completions')
		.map((r) => r.body as Record<string, unknown>);
}

/** A vLLM- or SGLang-like server serving a harmony model as `gen`. */
async function harmonyServer(server: 'vllm' | 'sglang'): Promise<MockOpenAI> {
	return startMockOpenAI({ models: ['gen'], script, vllm: { server, special: HARMONY, eos: EOS } });
}

describe('special tokens on vLLM-like servers', () => {
	it('gets the markup back from a vLLM-like server, which drops it unless asked', async () => {
		mock = await harmonyServer('vllm');
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		const res = await engine.complete(request());
		expect(res.text).toBe(REPLY.replace('<|return|>', ''));
		expect(completionBodies()[0]).toMatchObject({
			skip_special_tokens: false,
			spaces_between_special_tokens: false
		});
	});

	it('stops on a special-token stop string, matched on the returned text', async () => {
		mock = await harmonyServer('sglang');
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		const res = await engine.complete(request(['<|end|>']));
		expect(res.text).toBe('<|channel|>analysis<|message|>We need 2+3.');
		expect(res.finish_reason).toBe('stop');
	});
});

describe('stop token ids', () => {
	it('sends vLLM the ids of single-token stops, from its /tokenize, once it has listed its models', async () => {
		mock = await harmonyServer('vllm');
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		await engine.load(['gen']);
		const res = await engine.complete(request(['<|end|>', 'User said:']));
		expect(res.text).toBe('<|channel|>analysis<|message|>We need 2+3.');
		await engine.complete(request(['<|end|>', 'User said:']));
		const [first, second] = completionBodies();
		expect(first.stop_token_ids).toEqual([
			specialTokenId({ special: HARMONY, eos: EOS }, '<|end|>')
		]);
		expect(second.stop_token_ids).toEqual(first.stop_token_ids);
		// Asked once per stop list: one /tokenize per stop string.
		expect(mock.requests.filter((r) => r.path === '/tokenize')).toHaveLength(2);
	});

	it('sends SGLang the ids too, from its /v1/tokenize', async () => {
		mock = await harmonyServer('sglang');
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		await engine.load(['gen']);
		const res = await engine.complete(request(['<|end|>']));
		expect(res.text).toBe('<|channel|>analysis<|message|>We need 2+3.');
		expect(completionBodies()[0].stop_token_ids).toEqual([
			specialTokenId({ special: HARMONY, eos: EOS }, '<|end|>')
		]);
		expect(mock.requests.map((r) => r.path)).toEqual([
			'/v1/models',
			'/v1/tokenize',
			'/v1/completions'
		]);
	});

	it('sends no ids to a server that is neither, and asks it nothing extra', async () => {
		mock = await startMockOpenAI({ models: ['gen'], script });
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		await engine.load(['gen']);
		await engine.complete(request(['<|end|>']));
		expect(completionBodies()[0]).not.toHaveProperty('stop_token_ids');
		expect(mock.requests.map((r) => r.path)).toEqual(['/v1/models', '/v1/completions']);
	});

	it('goes on without ids when the tokenize route fails', async () => {
		mock = await harmonyServer('sglang');
		mock.faultPlan = (_, req) =>
			req.path === '/v1/tokenize' ? { status: 500, body: 'Internal Server Error' } : undefined;
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		await engine.load(['gen']);
		const res = await engine.complete(request(['<|end|>']));
		// The stop string still ends the turn on the returned text.
		expect(res.text).toBe('<|channel|>analysis<|message|>We need 2+3.');
		expect(completionBodies()[0]).not.toHaveProperty('stop_token_ids');
	});
});

describe('servers that refuse unknown fields', () => {
	it('asks again without the fields, and leaves them out from then on', async () => {
		mock = await startMockOpenAI({ models: ['gen'], script, rejectUnknownFields: true });
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		expect((await engine.complete(request())).text).toBe(REPLY);
		expect((await engine.complete(request())).text).toBe(REPLY);
		const bodies = completionBodies();
		expect(bodies).toHaveLength(3);
		expect(bodies[0].skip_special_tokens).toBe(false);
		expect(bodies[1]).not.toHaveProperty('skip_special_tokens');
		expect(bodies[1]).not.toHaveProperty('spaces_between_special_tokens');
		expect(bodies[2]).not.toHaveProperty('skip_special_tokens');
	});

	it('sends every request refused together again, not only the first', async () => {
		mock = await startMockOpenAI({ models: ['gen'], script, rejectUnknownFields: true });
		mock.tokenDelayMs = 2;
		const engine = new OpenAIEngine({ baseUrl: mock.url, maxConcurrency: 4 });
		const replies = await Promise.all([1, 2, 3, 4].map(() => engine.complete(request())));
		expect(replies.map((r) => r.text)).toEqual([REPLY, REPLY, REPLY, REPLY]);
		const refused = completionBodies().filter((b) => b.skip_special_tokens === false);
		expect(refused.length).toBeGreaterThanOrEqual(1);
		expect(completionBodies()).toHaveLength(4 + refused.length);
	});

	it('does not retry a 400 about anything else', async () => {
		mock = await startMockOpenAI({ models: ['gen'], script });
		mock.enqueueFailure({
			status: 400,
			body: JSON.stringify({
				error: {
					message: 'Unrecognized request argument supplied: logit_bias_v2',
					type: 'invalid_request_error',
					param: null,
					code: null
				}
			})
		});
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		const failed = await engine.complete(request()).catch((e: unknown) => e);
		expect(failed).toBeInstanceOf(HttpError);
		expect((failed as HttpError).message).toMatch(/answered 400: Unrecognized .*logit_bias_v2/);
		expect(completionBodies()).toHaveLength(1);
		// A refusal of another field leaves the special-token fields on.
		await engine.complete(request());
		expect(completionBodies()[1].skip_special_tokens).toBe(false);
	});

	it('keeps sending them to servers that ignore unknown fields (llama-server, Ollama)', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: 'm.gguf' }, script });
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		await engine.complete({ ...request(), model: 'm.gguf' });
		await engine.complete({ ...request(), model: 'm.gguf' });
		expect(completionBodies().map((b) => b.skip_special_tokens)).toEqual([false, false]);
	});
});
