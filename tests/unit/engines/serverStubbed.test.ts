/**
 * Cases a real server cannot easily produce on demand (reads split at awkward bytes, streams that
 * never end, fetch throwing) run against a stubbed fetch, as huggingface.js inference's abort tests do.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import type { CompletionRequest, JsonChatRequest } from '../../../src/lib/probe/engine.ts';

const BASE = 'http://gpu-box:8000';
const encoder = new TextEncoder();

/** A body that yields these exact byte chunks, then ends (or hangs when `hang`). */
function bodyOf(parts: string[], hang = false): ReadableStream<Uint8Array> {
	let i = 0;
	return new ReadableStream<Uint8Array>({
		pull(controller) {
			if (i < parts.length) controller.enqueue(encoder.encode(parts[i++]));
			else if (!hang) controller.close();
			else return new Promise(() => {}); // A server that stalls forever.
		}
	});
}

const sse = (parts: string[], hang = false) =>
	new Response(bodyOf(parts, hang), { headers: { 'Content-Type': 'text/event-stream' } });

const json = (body: unknown, status = 200) =>
	new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const event = (obj: unknown) => `data: ${JSON.stringify(obj)}\r\n\r\n`;
const textChunk = (text: string, finish: string | null = null) =>
	event({ choices: [{ index: 0, text, finish_reason: finish }] });

function completion(overrides: Partial<CompletionRequest> = {}): CompletionRequest {
	return {
		model: 'm',
		prompt: 'p',
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 32,
		stop: [],
		...overrides
	};
}

function judgeRequest(): JsonChatRequest {
	return {
		model: 'm',
		messages: [
			{ role: 'system', content: 'You label user turns.' },
			{ role: 'user', content: 'Label this.' }
		],
		schema: { type: 'object', properties: { label: { type: 'string' } } },
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 64
	};
}

const chatReply = (content: string) =>
	json({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('OpenAIEngine over a stubbed fetch', () => {
	it('reassembles SSE events split mid-line, mid-CRLF and mid-character', async () => {
		const whole =
			textChunk('Hel') + textChunk('lo wörld') + textChunk('!', 'stop') + 'data: [DONE]\r\n\r\n';
		// One byte per read: every line, CR/LF pair and the two-byte "ö" lands across reads.
		const bytes = encoder.encode(whole);
		const parts: Uint8Array[] = [];
		for (let i = 0; i < bytes.length; i++) parts.push(bytes.slice(i, i + 1));
		let i = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(c) {
				if (i < parts.length) c.enqueue(parts[i++]);
				else c.close();
			}
		});
		const fetchStub = vi.fn(async () => new Response(body));
		vi.stubGlobal('fetch', fetchStub);
		const deltas: string[] = [];
		const res = await new OpenAIEngine({ baseUrl: BASE }).complete(
			completion({ onToken: (d) => deltas.push(d) })
		);
		expect(deltas).toEqual(['Hel', 'lo wörld', '!']);
		expect(res.text).toBe('Hello wörld!');
		expect(fetchStub).toHaveBeenCalledWith(`${BASE}/v1/completions`, expect.anything());
	});

	it('counts deltas when the server sends no usage', async () => {
		vi.stubGlobal('fetch', async () =>
			sse([textChunk('a'), textChunk(' b'), textChunk(' c', 'length'), 'data: [DONE]\n\n'])
		);
		const res = await new OpenAIEngine({ baseUrl: BASE }).complete(completion());
		expect(res.finish_reason).toBe('length');
		expect(res.usage).toMatchObject({ prompt_tokens: 0, completion_tokens: 3 });
	});

	it("prefers llama.cpp's own timings for throughput", async () => {
		const final = event({
			choices: [{ index: 0, text: ' b', finish_reason: 'stop' }],
			timings: { prompt_per_second: 900.5, predicted_per_second: 42.25 }
		});
		vi.stubGlobal('fetch', async () => sse([textChunk('a'), final, 'data: [DONE]\n\n']));
		const res = await new OpenAIEngine({ baseUrl: BASE }).complete(completion());
		expect(res.usage.decode_tps).toBe(42.25);
		expect(res.usage.prefill_tps).toBe(900.5);
	});

	it('maps unfamiliar finish reasons to stop', async () => {
		vi.stubGlobal('fetch', async () => sse([textChunk('x', 'eos'), 'data: [DONE]\n\n']));
		const res = await new OpenAIEngine({ baseUrl: BASE }).complete(completion());
		expect(res.finish_reason).toBe('stop');
	});

	it('treats a stream cut off before the server finished as a network error', async () => {
		vi.stubGlobal('fetch', async () => sse([textChunk('half an'), textChunk(' answ')]));
		const engine = new OpenAIEngine({ baseUrl: BASE, maxRetries: 0 });
		await expect(engine.complete(completion())).rejects.toMatchObject({
			code: 'network',
			retryable: true,
			message: expect.stringMatching(/stopped before the server finished/)
		});
	});

	it('retries a stream cut off before the server finished, and keeps only the full reply', async () => {
		let calls = 0;
		vi.stubGlobal('fetch', async () =>
			++calls === 1
				? sse([textChunk('half an'), textChunk(' answ')])
				: sse([textChunk('a whole'), textChunk(' answer', 'stop'), 'data: [DONE]\n\n'])
		);
		const sleep = vi.fn(async () => {});
		const res = await new OpenAIEngine({ baseUrl: BASE, sleep }).complete(completion());
		expect(res.text).toBe('a whole answer');
		expect(calls).toBe(2);
		expect(sleep).toHaveBeenCalledTimes(1);
	});

	it('surfaces an error event sent mid-stream', async () => {
		vi.stubGlobal('fetch', async () =>
			sse([textChunk('a'), event({ error: { message: 'engine died', code: 500 } })])
		);
		const engine = new OpenAIEngine({ baseUrl: BASE, maxRetries: 0 });
		await expect(engine.complete(completion())).rejects.toMatchObject({
			code: 'http',
			message: expect.stringContaining('engine died')
		});
	});

	it('rejects promptly on abort even if the fetch ignores the signal', async () => {
		vi.stubGlobal('fetch', async () => sse([textChunk('a'), textChunk(' b')], true));
		const ctrl = new AbortController();
		const pending = new OpenAIEngine({ baseUrl: BASE }).complete(
			completion({
				signal: ctrl.signal,
				onToken: (d) => d === ' b' && setTimeout(() => ctrl.abort(), 5)
			})
		);
		await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('leaves no listener behind on a long-lived run signal or on the signals fetch kept', async () => {
		// undici keeps each request's signal reachable after the request ends; a listener left on it
		// keeps the whole request alive (a heap growing with every request of a long run).
		const kept: AbortSignal[] = [];
		const listening: number[] = [];
		const run = new AbortController();
		vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
			if (init?.signal) kept.push(init.signal);
			listening.push(getEventListeners(run.signal, 'abort').length);
			await new Promise((r) => setTimeout(r, 1));
			return sse([textChunk('a'), textChunk(' b', 'stop'), 'data: [DONE]\n\n']);
		});
		const engine = new OpenAIEngine({ baseUrl: BASE, maxConcurrency: 64 });
		const warned = vi.fn();
		process.on('warning', warned);
		try {
			const replies = await Promise.all(
				Array.from({ length: 64 }, () => engine.complete(completion({ signal: run.signal })))
			);
			expect(replies.every((r) => r.text === 'a b')).toBe(true);
		} finally {
			process.off('warning', warned);
		}
		expect(kept).toHaveLength(64);
		// One listener on the run's signal however many requests are in flight (Node warns at 11).
		expect(Math.max(...listening)).toBeLessThanOrEqual(1);
		expect(warned).not.toHaveBeenCalled();
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
		expect(kept.map((s) => getEventListeners(s, 'abort').length)).toEqual(kept.map(() => 0));
	});

	it('puts one listener on the run signal while many requests wait out a backoff', async () => {
		// Each request's first try gets a 503 at once: they all sleep before retrying together.
		const tried = new Set<string>();
		const run = new AbortController();
		const listening: number[] = [];
		vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
			const body = String(init?.body);
			listening.push(getEventListeners(run.signal, 'abort').length);
			if (!tried.has(body)) {
				tried.add(body);
				return new Response('busy', { status: 503, headers: { 'Retry-After': '0.05' } });
			}
			return sse([textChunk('ok', 'stop'), 'data: [DONE]\n\n']);
		});
		const warned = vi.fn();
		process.on('warning', warned);
		try {
			const engine = new OpenAIEngine({ baseUrl: BASE, maxConcurrency: 16 });
			const replies = await Promise.all(
				Array.from({ length: 16 }, (_, i) =>
					engine.complete(completion({ seed: i, signal: run.signal }))
				)
			);
			expect(replies.map((r) => r.text)).toEqual(replies.map(() => 'ok'));
		} finally {
			process.off('warning', warned);
		}
		expect(tried.size).toBe(16);
		expect(Math.max(...listening)).toBeLessThanOrEqual(1);
		expect(warned).not.toHaveBeenCalled();
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
	});

	it('still cancels every request in flight when the shared run signal aborts', async () => {
		vi.stubGlobal('fetch', async () => sse([textChunk('a')], true));
		const run = new AbortController();
		const engine = new OpenAIEngine({ baseUrl: BASE, maxConcurrency: 16 });
		const pending = Array.from({ length: 16 }, () =>
			engine.complete(completion({ signal: run.signal }))
		);
		setTimeout(() => run.abort(), 5);
		const settled = await Promise.allSettled(pending);
		expect(settled.map((s) => s.status === 'rejected' && (s.reason as Error).name)).toEqual(
			pending.map(() => 'AbortError')
		);
	});

	it('steps down to a prompt instruction when json_object is refused too, and stays there', async () => {
		const bodies: Record<string, unknown>[] = [];
		const fetchStub = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
			const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
			bodies.push(body);
			if (body.response_format) {
				return json({ error: { message: 'Unknown field: response_format' } }, 400);
			}
			return chatReply('{"label":"degenerate"}');
		});
		const engine = new OpenAIEngine({ baseUrl: BASE, fetch: fetchStub });
		const first = await engine.chatJson(judgeRequest());
		await engine.chatJson(judgeRequest());
		expect(first.text).toBe('{"label":"degenerate"}');
		expect(bodies.map((b) => (b.response_format as { type?: string } | undefined)?.type)).toEqual([
			'json_schema',
			'json_object',
			undefined,
			undefined
		]);
		expect(engine.jsonForm).toBe('prompt');
		// The instruction joins the existing system message rather than adding a second one.
		const messages = bodies[2].messages as { role: string; content: string }[];
		expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
		expect(messages[0].content).toMatch(/^You label user turns\.\n\n.*JSON Schema/s);
		expect(messages[0].content).toContain('"properties":{"label":{"type":"string"}}');
	});

	it('does not drop response_format for a 400 about something else', async () => {
		const fetchStub = vi.fn(async () =>
			json({ error: { message: 'max_tokens is too large' } }, 400)
		);
		const engine = new OpenAIEngine({ baseUrl: BASE, fetch: fetchStub });
		await expect(engine.chatJson(judgeRequest())).rejects.toMatchObject({
			code: 'http',
			status: 400
		});
		expect(fetchStub).toHaveBeenCalledTimes(1);
		expect(engine.jsonForm).toBe('json_schema');
	});

	it('retries a dropped connection, then succeeds', async () => {
		const refused = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
		const fetchStub = vi
			.fn<typeof fetch>()
			.mockRejectedValueOnce(refused)
			.mockResolvedValueOnce(chatReply('{}'));
		const sleep = vi.fn(async () => {});
		const res = await new OpenAIEngine({ baseUrl: BASE, fetch: fetchStub, sleep }).chatJson(
			judgeRequest()
		);
		expect(res.text).toBe('{}');
		expect(fetchStub).toHaveBeenCalledTimes(2);
		expect(sleep).toHaveBeenCalledTimes(1);
	});

	it('stops retrying as soon as the caller aborts during the backoff', async () => {
		const fetchStub = vi.fn(async () => json({ error: { message: 'overloaded' } }, 503));
		const ctrl = new AbortController();
		const sleep = vi.fn(() => {
			setTimeout(() => ctrl.abort(), 5);
			return new Promise<void>(() => {}); // A backoff that would never end by itself.
		});
		const engine = new OpenAIEngine({ baseUrl: BASE, fetch: fetchStub, sleep });
		await expect(engine.complete(completion({ signal: ctrl.signal }))).rejects.toMatchObject({
			name: 'AbortError'
		});
		expect(fetchStub).toHaveBeenCalledTimes(1);
	});

	it('points at CORS when a browser cannot reach the server', async () => {
		vi.stubGlobal('document', {});
		vi.stubGlobal('location', { protocol: 'https:' });
		const fetchStub = vi.fn(async () => {
			throw new TypeError('Failed to fetch');
		});
		const err = await new OpenAIEngine({
			baseUrl: 'http://localhost:8000',
			fetch: fetchStub,
			maxRetries: 0
		})
			.load(['m'])
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'network' });
		const recovery = (err as { recovery: string }).recovery;
		expect(recovery).toMatch(/CORS/);
		expect(recovery).toMatch(/local network/);
	});

	it('warns that an https page cannot call a plain-http server on the internet', async () => {
		vi.stubGlobal('document', {});
		vi.stubGlobal('location', { protocol: 'https:' });
		const fetchStub = vi.fn(async () => {
			throw new TypeError('Failed to fetch');
		});
		const err = await new OpenAIEngine({
			baseUrl: 'http://gpu.example.org:8000',
			fetch: fetchStub,
			maxRetries: 0
		})
			.load(['m'])
			.catch((e: unknown) => e);
		expect((err as { recovery: string }).recovery).toMatch(/page is https/);
	});

	it('tags requests to a private IP for Local Network Access, in the browser only', async () => {
		const fetchStub = vi.fn(async () => json({ data: [{ id: 'm' }] }));
		await new OpenAIEngine({ baseUrl: 'http://192.168.1.20:8000', fetch: fetchStub }).load(['m']);
		vi.stubGlobal('document', {});
		await new OpenAIEngine({ baseUrl: 'http://192.168.1.20:8000', fetch: fetchStub }).load(['m']);
		await new OpenAIEngine({ baseUrl: 'http://localhost:8000', fetch: fetchStub }).load(['m']);
		const spaces = fetchStub.mock.calls.map(
			(c) => (c as unknown as [string, { targetAddressSpace?: string }])[1].targetAddressSpace
		);
		expect(spaces).toEqual([undefined, 'local', undefined]);
	});

	it('rejects a served-model list that is not OpenAI-shaped', async () => {
		const fetchStub = vi.fn(async () => json({ models: ['m'] }));
		await expect(
			new OpenAIEngine({ baseUrl: BASE, fetch: fetchStub }).load(['m'])
		).rejects.toMatchObject({
			code: 'http',
			message: expect.stringMatching(/not in OpenAI's format/)
		});
	});
});
