import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenAIEngine, type OpenAIEngineOptions } from '../../../src/lib/engines/server/client.ts';
import type {
	CompletionRequest,
	EngineRetryNotice,
	JsonChatRequest
} from '../../../src/lib/probe/engine.ts';
import { engineContract } from '../../helpers/engineContract.ts';
import { startMockOpenAI, type MidStreamFault, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { applyScript, defaultScript } from '../../helpers/script.ts';

const MODEL = 'mock-model';
const noSleep = async () => {};

engineContract('openai', async () => {
	const mock = await startMockOpenAI({ models: [MODEL] });
	const engine = new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep });
	return {
		engine,
		model: MODEL,
		setScript: (s) => mock.setScript(s),
		slowNextRequest: (ms) => (mock.tokenDelayMs = ms),
		close: () => mock.close()
	};
});

function completion(overrides: Partial<CompletionRequest> = {}): CompletionRequest {
	return {
		model: MODEL,
		prompt:
			'<|im_start|>user\nQ?<|im_end|>\n<|im_start|>assistant\nA.<|im_end|>\n<|im_start|>user\n',
		temperature: 0.7,
		top_p: 0.9,
		seed: 11,
		max_tokens: 64,
		stop: ['<|im_end|>'],
		...overrides
	};
}

function judgeRequest(overrides: Partial<JsonChatRequest> = {}): JsonChatRequest {
	return {
		model: MODEL,
		messages: [{ role: 'user', content: 'Label this user turn.' }],
		schema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 128,
		...overrides
	};
}

const posts = (mock: MockOpenAI, path: string) => mock.requests.filter((r) => r.path === path);

describe('OpenAIEngine against the mock server', () => {
	let mock: MockOpenAI;
	let sleep: ReturnType<typeof vi.fn<(ms: number) => Promise<void>>>;
	const engineFor = (opts: Partial<OpenAIEngineOptions> = {}) =>
		new OpenAIEngine({ baseUrl: mock.url, sleep, ...opts });

	beforeEach(async () => {
		mock = await startMockOpenAI({ models: [MODEL, 'judge-model'] });
		sleep = vi.fn(async (_ms: number) => {});
	});
	afterEach(async () => {
		await mock.close();
	});

	it('posts the OpenAI completion fields, streaming with usage, asking to keep special tokens', async () => {
		await engineFor().complete(completion());
		const [req] = posts(mock, '/v1/completions');
		expect(req.body).toEqual({
			model: MODEL,
			prompt: completion().prompt,
			temperature: 0.7,
			top_p: 0.9,
			seed: 11,
			max_tokens: 64,
			stop: ['<|im_end|>'],
			stream: true,
			stream_options: { include_usage: true },
			skip_special_tokens: false,
			spaces_between_special_tokens: false
		});
	});

	it('accepts a base URL that already ends in /v1', async () => {
		const engine = engineFor({ baseUrl: `${mock.url}/v1/` });
		expect(engine.baseUrl).toBe(`${mock.url}/v1`);
		await engine.load([MODEL]);
		expect(mock.requests.map((r) => r.path)).toEqual(['/v1/models']);
	});

	it('takes usage from the final chunk and measures timings', async () => {
		mock.tokenDelayMs = 2;
		const req = completion();
		const res = await engineFor().complete(req);
		const expected = applyScript(defaultScript, { ...req, kind: 'complete' });
		expect(res.usage.prompt_tokens).toBe(expected.prompt_tokens);
		expect(res.usage.completion_tokens).toBe(expected.tokens.length);
		expect(res.usage.ttft_ms).toBeGreaterThanOrEqual(0);
		expect(res.usage.total_ms).toBeGreaterThanOrEqual(res.usage.ttft_ms ?? Infinity);
		expect(res.usage.decode_tps).toBeGreaterThan(0);
	});

	it('closes the connection when aborted mid-stream, and the server stops sending', async () => {
		mock.setScript(() => Array.from({ length: 300 }, (_, i) => `w${i}`).join(' '));
		mock.tokenDelayMs = 5;
		const ctrl = new AbortController();
		let seen = 0;
		const pending = engineFor().complete(
			completion({
				max_tokens: 1000,
				signal: ctrl.signal,
				onToken: () => {
					if (++seen === 5) ctrl.abort();
				}
			})
		);
		await expect(pending).rejects.toMatchObject({ name: 'AbortError', code: 'aborted' });
		await vi.waitFor(() => expect(mock.streams[0].outcome).toBe('disconnected'));
		expect(mock.streams[0].tokensSent).toBeLessThan(300);
	});

	it('sends nothing when aborted before the call', async () => {
		const ctrl = new AbortController();
		ctrl.abort();
		const engine = engineFor();
		await expect(engine.complete(completion({ signal: ctrl.signal }))).rejects.toMatchObject({
			name: 'AbortError'
		});
		await expect(engine.chatJson(judgeRequest({ signal: ctrl.signal }))).rejects.toMatchObject({
			name: 'AbortError'
		});
		expect(mock.requests).toHaveLength(0);
	});

	it('waits out a 429 for the Retry-After seconds, then succeeds', async () => {
		mock.enqueueFailure({ status: 429, retryAfter: '3' });
		const res = await engineFor().complete(completion());
		expect(res.finish_reason).toBe('stop');
		expect(sleep).toHaveBeenCalledTimes(1);
		expect(sleep.mock.calls[0][0]).toBe(3000);
		expect(posts(mock, '/v1/completions')).toHaveLength(2);
	});

	it('retries a 500 with growing backoff, then surfaces a retryable http error', async () => {
		for (let i = 0; i < 4; i++) {
			mock.enqueueFailure({ status: 500, body: '{"error":{"message":"CUDA out of memory"}}' });
		}
		const err = await engineFor({ maxRetries: 3 })
			.complete(completion())
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ name: 'HttpError', code: 'http', retryable: true, status: 500 });
		expect((err as Error).message).toContain('500');
		expect((err as Error).message).toContain('CUDA out of memory');
		expect(posts(mock, '/v1/completions')).toHaveLength(4);
		const waits = sleep.mock.calls.map((c) => c[0]);
		expect(waits).toHaveLength(3);
		expect(waits[1]).toBeGreaterThan(waits[0]);
		expect(waits[2]).toBeGreaterThan(waits[1]);
	});

	it('does not retry a 400, and shows the server message', async () => {
		mock.enqueueFailure({
			status: 400,
			body: '{"error":{"message":"top_p must be in (0, 1]"}}'
		});
		const err = await engineFor()
			.complete(completion())
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'http', retryable: false, status: 400 });
		expect((err as Error).message).toMatch(/400: top_p must be in \(0, 1\]/);
		expect(sleep).not.toHaveBeenCalled();
		expect(posts(mock, '/v1/completions')).toHaveLength(1);
	});

	it("reports a prompt longer than the model's context as context_window", async () => {
		mock.enqueueFailure({
			status: 400,
			body: JSON.stringify({
				error: {
					message:
						"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."
				}
			})
		});
		await expect(engineFor().complete(completion())).rejects.toMatchObject({
			code: 'context_window'
		});
	});

	it('times out when the server never answers', async () => {
		mock.enqueueFailure({ hang: true });
		const started = Date.now();
		await expect(engineFor({ timeoutMs: 150 }).complete(completion())).rejects.toMatchObject({
			code: 'timeout'
		});
		expect(Date.now() - started).toBeLessThan(2000);
		expect(sleep).not.toHaveBeenCalled();
	});

	it('times out when a stream goes silent, but not while tokens keep arriving', async () => {
		mock.setScript(() => Array.from({ length: 20 }, (_, i) => `t${i}`).join(' '));
		mock.tokenDelayMs = 20;
		// 20 tokens × 20 ms outlasts the 300 ms timeout, yet no single gap comes close.
		const ok = await engineFor({ timeoutMs: 300 }).complete(completion());
		expect(ok.usage.completion_tokens).toBe(20);
		expect(ok.usage.total_ms).toBeGreaterThan(300);
		mock.tokenDelayMs = 1000;
		await expect(engineFor({ timeoutMs: 300 }).complete(completion())).rejects.toMatchObject({
			code: 'timeout'
		});
	});

	it('asks the judge for a strict json_schema response format', async () => {
		const req = judgeRequest();
		await engineFor().chatJson(req);
		const [sent] = posts(mock, '/v1/chat/completions');
		expect(sent.body).toMatchObject({
			model: MODEL,
			messages: req.messages,
			stream: false,
			response_format: {
				type: 'json_schema',
				json_schema: { name: 'judgment', schema: req.schema, strict: true }
			}
		});
	});

	it('returns non-JSON judge text raw, for the core to parse tolerantly', async () => {
		mock.setScript(() => 'Label: genuine_followup {broken');
		const res = await engineFor().chatJson(judgeRequest());
		expect(res.text).toBe('Label: genuine_followup {broken');
		expect(res.finish_reason).toBe('stop');
		expect(res.usage.completion_tokens).toBeGreaterThan(0);
	});

	it('explains a reply body that is not JSON', async () => {
		mock.enqueueFailure({ garbageJson: true });
		const err = await engineFor()
			.chatJson(judgeRequest())
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'http', retryable: false });
		expect((err as Error).message).toMatch(/not valid JSON/);
		expect((err as Error).message).toContain(mock.url);
	});

	it('explains a streamed event that is not JSON once the retries are spent', async () => {
		mock.enqueueFailure({ garbageJson: true });
		await expect(engineFor({ maxRetries: 0 }).complete(completion())).rejects.toMatchObject({
			code: 'network',
			retryable: true,
			message: expect.stringMatching(/broke off: one of its events is not valid JSON/)
		});
	});

	it('falls back to json_object when json_schema is refused, and remembers', async () => {
		mock.rejectJsonSchema = true;
		const engine = engineFor();
		const first = await engine.chatJson(judgeRequest());
		expect(JSON.parse(first.text)).toMatchObject({ label: 'genuine_followup' });
		const second = await engine.chatJson(judgeRequest());
		expect(JSON.parse(second.text)).toMatchObject({ label: 'genuine_followup' });
		const formats = posts(mock, '/v1/chat/completions').map(
			(r) => (r.body as { response_format?: { type: string } }).response_format?.type
		);
		expect(formats).toEqual(['json_schema', 'json_object', 'json_object']);
		expect(engine.jsonForm).toBe('json_object');
		expect(engine.capabilities().json_schema).toBe(false);
		// json_object cannot enforce the schema, so it travels in the system prompt.
		const last = posts(mock, '/v1/chat/completions')[2].body as {
			messages: { role: string; content: string }[];
		};
		expect(last.messages[0].role).toBe('system');
		expect(last.messages[0].content).toContain('"required":["label"]');
	});

	it('names the served models when a requested one is missing', async () => {
		const err = await engineFor()
			.load([MODEL, 'Qwen/Qwen3-0.6B'])
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ name: 'EngineError', code: 'bad_model' });
		expect((err as Error).message).toBe(
			`Model 'Qwen/Qwen3-0.6B' is not served at ${mock.url}/v1. Served: ${MODEL}, judge-model`
		);
	});

	it('reports each requested model ready after checking it is served', async () => {
		const progress: string[] = [];
		await engineFor().load([MODEL, 'judge-model'], {
			onProgress: (p) => progress.push(`${p.model}:${p.fraction}`)
		});
		expect(progress).toEqual([`${MODEL}:1`, 'judge-model:1']);
	});

	it('sends the Authorization header only when a key is given', async () => {
		await engineFor().complete(completion());
		await engineFor({ apiKey: 'sk-test-123' }).complete(completion());
		const [without, withKey] = posts(mock, '/v1/completions');
		expect(without.headers.authorization).toBeUndefined();
		expect(withKey.headers.authorization).toBe('Bearer sk-test-123');
	});

	it('keeps the API key out of error messages', async () => {
		const guarded = await startMockOpenAI({ models: [MODEL], apiKey: 'right-key' });
		try {
			const err = await new OpenAIEngine({ baseUrl: guarded.url, apiKey: 'wrong-key-42' })
				.load([MODEL])
				.catch((e: unknown) => e);
			expect(err).toMatchObject({ code: 'http', status: 401, recovery: 'Check the API key.' });
			expect(JSON.stringify({ ...(err as object), message: (err as Error).message })).not.toContain(
				'wrong-key-42'
			);
		} finally {
			await guarded.close();
		}
	});

	it('keeps at most maxConcurrency requests in flight', async () => {
		mock.tokenDelayMs = 3;
		const engine = engineFor({ maxConcurrency: 2 });
		let peak = 0;
		const timer = setInterval(() => {
			const live = mock.streams.filter((s) => s.outcome === 'streaming').length;
			peak = Math.max(peak, live);
		}, 1);
		try {
			const results = await Promise.all(
				Array.from({ length: 5 }, () => engine.complete(completion()))
			);
			expect(results.every((r) => r.finish_reason === 'stop')).toBe(true);
		} finally {
			clearInterval(timer);
		}
		expect(peak).toBeGreaterThan(0);
		expect(peak).toBeLessThanOrEqual(2);
		expect(engine.capabilities().max_concurrency).toBe(2);
	});

	it('drops a request aborted while it waits for a slot, before it reaches the server', async () => {
		mock.tokenDelayMs = 10;
		const engine = engineFor({ maxConcurrency: 1 });
		const first = engine.complete(completion());
		const ctrl = new AbortController();
		const queued = engine.complete(completion({ signal: ctrl.signal }));
		ctrl.abort();
		await expect(queued).rejects.toMatchObject({ name: 'AbortError' });
		await first;
		expect(posts(mock, '/v1/completions')).toHaveLength(1);
	});
});

describe('OpenAIEngine against a server that fails mid-reply', () => {
	let mock: MockOpenAI;
	let waits: number[];
	const sleep = async (ms: number) => void waits.push(ms);
	const engineFor = (opts: Partial<OpenAIEngineOptions> = {}) =>
		new OpenAIEngine({ baseUrl: mock.url, sleep, ...opts });
	/** The reply a server that never fails gives, and the deltas it streams. */
	let clean: { text: string; deltas: string[] };

	beforeEach(async () => {
		mock = await startMockOpenAI({ models: [MODEL] });
		mock.setScript(() => Array.from({ length: 12 }, (_, i) => `w${i}`).join(' '));
		waits = [];
		const deltas: string[] = [];
		const res = await engineFor().complete(completion({ onToken: (d) => deltas.push(d) }));
		clean = { text: res.text, deltas };
		mock.requests.length = 0;
	});
	afterEach(async () => {
		await mock.close();
	});

	const FAULTS: [string, MidStreamFault][] = [
		['a connection reset after 4 tokens', { midStream: 'reset', afterTokens: 4 }],
		['one malformed event after 4 tokens', { midStream: 'malformed', afterTokens: 4 }],
		['a reset before the first token', { midStream: 'reset', afterTokens: 0 }]
	];
	for (const [what, fault] of FAULTS) {
		it(`retries ${what} with the same request, and returns the clean reply`, async () => {
			mock.enqueueFailure(fault);
			const deltas: string[] = [];
			const retries: EngineRetryNotice[] = [];
			const res = await engineFor().complete(
				completion({
					onToken: (d) => deltas.push(d),
					onRetry: (n) => {
						retries.push(n);
						deltas.length = 0; // What a consumer does: the partial reply is void.
					}
				})
			);
			expect(res.text).toBe(clean.text);
			expect(deltas).toEqual(clean.deltas);
			const sent = posts(mock, '/v1/completions');
			expect(sent).toHaveLength(2);
			// Same seed, same prompt: the retry asks for exactly the same reply.
			expect(sent[1].body).toEqual(sent[0].body);
			expect(retries).toHaveLength(1);
			expect(retries[0]).toMatchObject({ retry: 1, of: 4 });
			expect(retries[0].message).toMatch(/broke/);
		});
	}

	it('retries a stream that stalls mid-reply, after the idle timeout', async () => {
		mock.enqueueFailure({ midStream: 'stall', afterTokens: 3 });
		const retries: EngineRetryNotice[] = [];
		const res = await engineFor({ timeoutMs: 200 }).complete(
			completion({ onRetry: (n) => retries.push(n) })
		);
		expect(res.text).toBe(clean.text);
		expect(retries).toHaveLength(1);
		expect(retries[0].message).toMatch(/stopped sending for 0 s in the middle of a reply/);
		await vi.waitFor(() => expect(mock.streams[1].outcome).toBe('disconnected'));
	});

	it('honours 429 + Retry-After and a burst of 500s within one budget', async () => {
		mock.enqueueFailure({ status: 429, retryAfter: '2' });
		mock.enqueueFailure({ status: 500 });
		mock.enqueueFailure({ midStream: 'reset', afterTokens: 2 });
		mock.enqueueFailure({ status: 503 });
		const res = await engineFor().complete(completion());
		expect(res.text).toBe(clean.text);
		expect(posts(mock, '/v1/completions')).toHaveLength(5);
		expect(waits[0]).toBe(2000);
		expect(waits).toHaveLength(4);
	});

	it('gives up with the cause once every retry broke mid-stream', async () => {
		mock.faultPlan = () => ({ midStream: 'reset', afterTokens: 3 });
		const err = await engineFor({ maxRetries: 2 })
			.complete(completion())
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'network', retryable: true });
		expect((err as Error).message).toMatch(/broke during the reply/);
		expect(posts(mock, '/v1/completions')).toHaveLength(3);
	});

	it('retries a judge reply whose connection resets before its body', async () => {
		mock.setScript(defaultScript);
		mock.enqueueFailure({ midStream: 'reset', afterTokens: 0 });
		const res = await engineFor().chatJson(judgeRequest());
		expect(JSON.parse(res.text)).toMatchObject({ label: expect.any(String) });
		expect(posts(mock, '/v1/chat/completions')).toHaveLength(2);
	});
});

describe('OpenAIEngine with no server', () => {
	it('reports an unreachable server as a network error naming the URL', async () => {
		const mock = await startMockOpenAI();
		const url = mock.url;
		await mock.close();
		const sleep = vi.fn(async () => {});
		const err = await new OpenAIEngine({ baseUrl: url, sleep, maxRetries: 2 })
			.load([MODEL])
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ name: 'EngineError', code: 'network', retryable: true });
		expect((err as Error).message).toContain(`${url}/v1`);
		expect((err as { recovery: string }).recovery).toMatch(/running/);
		// The first contact retries once only, whatever maxRetries says: a down server is reported fast.
		expect(sleep).toHaveBeenCalledTimes(1);
	});
});
