import { describe, expect, it } from 'vitest';
import type { WorkerRequest } from '../../../src/lib/engines/webgpu/protocol.ts';
import type {
	ErrorReply,
	ResultReply,
	WireCompletionRequest,
	WorkerReply
} from '../../../src/lib/engines/worker/protocol.ts';
import {
	CANCELLED_LOAD_PHASE,
	createHandler,
	type CacheSurface
} from '../../../src/lib/engines/webgpu/worker/handler.ts';
import { FakeWebLLM, firstVisitReports, webllmError } from '../../helpers/fakeWebLLM.ts';

const MODEL = 'Qwen3-0.6B-q4f16_1-MLC';

/** The handler driven directly, with postMessage stubbed (as web-llm tests its own handler). */
function harness(cache: CacheSurface = {}) {
	const fake = new FakeWebLLM();
	fake.reportsFor = () => [];
	const sent: WorkerReply[] = [];
	const waiting = new Map<number, (m: ResultReply | ErrorReply) => void>();
	const handle = createHandler(
		fake.createEngine,
		(msg) => {
			const copy = structuredClone(msg);
			sent.push(copy);
			if (copy.kind === 'result' || copy.kind === 'error') waiting.get(copy.id)?.(copy);
		},
		cache
	);
	const terminals = (id: number) =>
		sent.filter((m) => m.id === id && (m.kind === 'result' || m.kind === 'error'));
	/** Send a request; resolves with its terminal reply. */
	const send = (msg: WorkerRequest) =>
		new Promise<ResultReply | ErrorReply>((resolve) => {
			waiting.set(msg.id, resolve);
			handle(structuredClone(msg));
		});
	return { fake, sent, handle, send, terminals };
}

function complete(id: number, overrides: Partial<WireCompletionRequest> = {}): WorkerRequest {
	return {
		kind: 'complete',
		id,
		req: {
			model: MODEL,
			prompt:
				'<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n<|im_start|>user\n',
			temperature: 0.7,
			top_p: 0.95,
			seed: 42,
			max_tokens: 64,
			stop: ['<|im_end|>'],
			...overrides
		}
	};
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('worker handler: replies', () => {
	it('answers each request with exactly one terminal reply carrying its id', async () => {
		const h = harness();
		const replies = await Promise.all([
			h.send({ kind: 'load', id: 1, models: [MODEL] }),
			h.send(complete(2)),
			h.send(complete(3, { seed: 7 })),
			h.send({ kind: 'unload', id: 4 })
		]);
		expect(replies.map((r) => [r.id, r.kind])).toEqual([
			[1, 'result'],
			[2, 'result'],
			[3, 'result'],
			[4, 'result']
		]);
		await tick(5);
		for (const id of [1, 2, 3, 4]) expect(h.terminals(id)).toHaveLength(1);
	});

	it('still replies once, with the error name, when the engine throws', async () => {
		const h = harness();
		h.fake.failNext.reload = webllmError('DeviceLostError', 'The WebGPU device was lost');
		const load = await h.send({ kind: 'load', id: 1, models: [MODEL] });
		expect(load).toMatchObject({ kind: 'error', error: { name: 'DeviceLostError' } });

		const notLoaded = await h.send(complete(2));
		expect(notLoaded).toMatchObject({ kind: 'error', error: { name: 'ModelNotLoadedError' } });

		await h.send({ kind: 'load', id: 3, models: [MODEL] });
		h.fake.failNext.unload = new TypeError('boom');
		expect(await h.send({ kind: 'unload', id: 4 })).toMatchObject({
			kind: 'error',
			error: { name: 'TypeError', message: 'boom' }
		});
		// A failure does not stall the queue.
		expect((await h.send({ kind: 'stats', id: 5 })).kind).toBe('result');
		for (const id of [1, 2, 3, 4, 5]) expect(h.terminals(id)).toHaveLength(1);
	});

	it('answers a request of unknown kind with an error, and ignores messages without an id', async () => {
		const h = harness();
		h.handle({ kind: 'explode' });
		h.handle('hello');
		h.handle({ kind: 'explode', id: 9 });
		await tick();
		expect(h.sent).toEqual([
			{ kind: 'error', id: 9, error: expect.objectContaining({ name: 'Error' }) }
		]);
	});
});

describe('worker handler: generation', () => {
	it('streams token events in order before the result, adding up to the text', async () => {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const reply = await h.send(complete(2));
		const tokens = h.sent.filter((m) => m.kind === 'token' && m.id === 2);
		expect(tokens.length).toBeGreaterThan(3);
		const last = h.sent.findLastIndex((m) => m.kind === 'token');
		expect(h.sent.indexOf(reply)).toBeGreaterThan(last);
		const text = tokens.map((m) => (m.kind === 'token' ? m.delta : '')).join('');
		expect(reply.kind === 'result' && reply.value).toMatchObject({ text, finish_reason: 'stop' });
	});

	it('passes every sampling parameter explicitly and asks for usage', async () => {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		await h.send(complete(2));
		expect(h.fake.calls[0].request).toMatchObject({
			model: MODEL,
			temperature: 0.7,
			top_p: 0.95,
			seed: 42,
			max_tokens: 64,
			stop: ['<|im_end|>'],
			stream: true,
			stream_options: { include_usage: true }
		});
	});

	it("maps web-llm's usage.extra to tokens/s and milliseconds", async () => {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const reply = await h.send(complete(2));
		expect(reply.kind === 'result' && reply.value).toMatchObject({
			usage: { prefill_tps: 400, decode_tps: 25, ttft_ms: 80, total_ms: 500 }
		});
	});

	it('asks the judge for JSON with the schema as a JSON string', async () => {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const schema = { type: 'object', properties: { label: { type: 'string' } } };
		const reply = await h.send({
			kind: 'chatJson',
			id: 2,
			req: {
				model: MODEL,
				messages: [{ role: 'user', content: 'Label this.' }],
				schema,
				temperature: 0,
				top_p: 1,
				seed: 3,
				max_tokens: 100
			}
		});
		expect(h.fake.calls[0].request).toMatchObject({
			response_format: { type: 'json_object', schema: JSON.stringify(schema) },
			seed: 3,
			stream: true
		});
		expect(
			reply.kind === 'result' && JSON.parse((reply.value as { text: string }).text)
		).toMatchObject({
			label: 'genuine_followup'
		});
		// The judge's text is not streamed to the page.
		expect(h.sent.some((m) => m.kind === 'token' && m.id === 2)).toBe(false);
	});

	it('never runs two requests on the engine at once', async () => {
		const h = harness();
		h.fake.tokenDelayMs = 1;
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const replies = await Promise.all(
			Array.from({ length: 5 }, (_, i) => h.send(complete(10 + i, { seed: i })))
		);
		expect(replies.every((r) => r.kind === 'result')).toBe(true);
		expect(h.fake.calls).toHaveLength(5);
		expect(h.fake.maxActive).toBe(1);
		// And in arrival order.
		expect(h.fake.calls.map((c) => c.request.seed)).toEqual([0, 1, 2, 3, 4]);
	});
});

describe('worker handler: abort', () => {
	it('interrupts a running generation and answers AbortError once', async () => {
		const h = harness();
		h.fake.tokenDelayMs = 2;
		h.fake.script = () => Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const running = h.send(complete(2, { max_tokens: 500 }));
		await tick(10);
		const ack = await h.send({ kind: 'abort', id: 3, target: 2 });
		expect(ack).toMatchObject({ kind: 'result', value: { aborted: true } });
		expect(await running).toMatchObject({ kind: 'error', error: { name: 'AbortError' } });
		expect(h.fake.interrupts).toBe(1);
		const tokens = h.sent.filter((m) => m.kind === 'token' && m.id === 2).length;
		expect(tokens).toBeLessThan(300);
		await tick(10);
		expect(h.terminals(2)).toHaveLength(1);
	});

	it('drops a queued request without it ever reaching the engine', async () => {
		const h = harness();
		h.fake.tokenDelayMs = 1;
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const first = h.send(complete(2));
		const queued = h.send(complete(3, { seed: 99 }));
		const ack = await h.send({ kind: 'abort', id: 4, target: 3 });
		expect(ack).toMatchObject({ value: { aborted: true } });
		expect(await queued).toMatchObject({ kind: 'error', error: { name: 'AbortError' } });
		expect((await first).kind).toBe('result');
		expect(h.fake.calls.map((c) => c.request.seed)).toEqual([42]);
		expect(h.fake.interrupts).toBe(0);
	});

	it('says aborted: false for a request that already finished or never existed', async () => {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		expect(await h.send({ kind: 'abort', id: 2, target: 1 })).toMatchObject({
			value: { aborted: false }
		});
		expect(await h.send({ kind: 'abort', id: 3, target: 77 })).toMatchObject({
			value: { aborted: false }
		});
	});

	it('cancels a running load through unload() and leaves nothing loaded', async () => {
		const h = harness();
		h.fake.reportsFor = () => firstVisitReports(50);
		h.fake.reportDelayMs = 2;
		const load = h.send({ kind: 'load', id: 1, models: [MODEL] });
		await tick(10);
		await h.send({ kind: 'abort', id: 2, target: 1 });
		expect(await load).toMatchObject({ kind: 'error', error: { name: 'AbortError' } });
		expect(h.fake.resident).toEqual([]);
		const stats = await h.send({ kind: 'stats', id: 3 });
		expect(stats).toMatchObject({ value: { loaded: [] } });
	});

	it('tells a load queued behind a cancelled one that it waits for web-llm to finish that', async () => {
		const h = harness();
		h.fake.reportsFor = () => firstVisitReports(20);
		h.fake.reportDelayMs = 2;
		h.fake.finishAfterCancelMs = 60;
		const first = h.send({ kind: 'load', id: 1, models: [MODEL] });
		await tick(10);
		await h.send({ kind: 'abort', id: 2, target: 1 });
		const second = h.send({ kind: 'load', id: 3, models: [MODEL] });
		const waiting = h.sent.filter((m) => m.id === 3 && m.kind === 'progress');
		expect(waiting).toEqual([
			{
				kind: 'progress',
				id: 3,
				progress: { model: MODEL, fraction: 0, phase: CANCELLED_LOAD_PHASE }
			}
		]);
		expect(await first).toMatchObject({ kind: 'error', error: { name: 'AbortError' } });
		expect(await second).toMatchObject({ kind: 'result' });
		expect(h.fake.resident).toEqual([MODEL]);
		// A load behind nothing cancelled says nothing of the kind.
		const third = h.send({ kind: 'load', id: 4, models: [MODEL] });
		await third;
		expect(
			h.sent.some(
				(m) => m.id === 4 && m.kind === 'progress' && m.progress.phase === CANCELLED_LOAD_PHASE
			)
		).toBe(false);
	});

	it('lets a running unload finish and report success instead of a false abort', async () => {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		h.fake.unloadDelayMs = 10;
		const unload = h.send({ kind: 'unload', id: 2 });
		await tick(2);
		const ack = await h.send({ kind: 'abort', id: 3, target: 2 });
		expect(ack).toMatchObject({ value: { aborted: false } });
		expect((await unload).kind).toBe('result');
	});
});

describe('worker handler: load, stats and cache', () => {
	it('loads each model once, in an engine of its own, even when generator and judge are one', async () => {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL, MODEL] });
		expect(h.fake.reloads).toEqual([[MODEL]]);
		await h.send({ kind: 'unload', id: 2 });
		await h.send({ kind: 'load', id: 3, models: [MODEL, 'Qwen3-4B-q4f16_1-MLC'] });
		expect(h.fake.reloads).toEqual([[MODEL], [MODEL], ['Qwen3-4B-q4f16_1-MLC']]);
		expect(h.fake.engines.map((e) => e.resident)).toEqual([[], [MODEL], ['Qwen3-4B-q4f16_1-MLC']]);
	});

	it('posts folded, monotone progress per model while loading', async () => {
		const h = harness();
		h.fake.reportsFor = () => firstVisitReports(3);
		await h.send({ kind: 'load', id: 1, models: ['A', 'B'] });
		const progress = h.sent.flatMap((m) => (m.kind === 'progress' ? [m.progress] : []));
		for (const model of ['A', 'B']) {
			const fractions = progress.filter((p) => p.model === model).map((p) => p.fraction);
			expect(fractions.length).toBe(firstVisitReports(3).length);
			expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
			expect(fractions.at(-1)).toBe(1);
		}
	});

	it('answers stats and cache reads at once, even during a generation', async () => {
		const has: string[] = [];
		const h = harness({
			has: async (model) => (has.push(model), true),
			sizes: async (model) => ({ model, model_bytes: 123 })
		});
		h.fake.tokenDelayMs = 3;
		h.fake.script = () => Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const gen = h.send(complete(2, { max_tokens: 500 }));
		h.send(complete(3));
		await tick(5);
		const stats = await h.send({ kind: 'stats', id: 4 });
		expect(stats).toMatchObject({ value: { loaded: [MODEL], running: 'complete', queued: 1 } });
		expect(await h.send({ kind: 'cacheQuery', id: 5, op: 'has', model: MODEL })).toMatchObject({
			value: { op: 'has', cached: true }
		});
		expect(await h.send({ kind: 'cacheQuery', id: 6, op: 'sizes', model: MODEL })).toMatchObject({
			value: { sizes: { model_bytes: 123 } }
		});
		// Both answered while request 2 was still generating.
		expect(h.terminals(2)).toHaveLength(0);
		await gen;
	});

	it('queues a cache delete behind the running request', async () => {
		const order: string[] = [];
		const h = harness({ delete: async () => void order.push('delete') });
		h.fake.tokenDelayMs = 2;
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const gen = h.send(complete(2)).then(() => order.push('complete'));
		await h.send({ kind: 'cacheQuery', id: 3, op: 'delete', model: MODEL });
		await gen;
		expect(order).toEqual(['complete', 'delete']);
	});

	it('answers a cache query the worker cannot serve with an error', async () => {
		const h = harness();
		expect(await h.send({ kind: 'cacheQuery', id: 1, op: 'has', model: MODEL })).toMatchObject({
			kind: 'error',
			error: { message: expect.stringMatching(/not available/) }
		});
	});
});
