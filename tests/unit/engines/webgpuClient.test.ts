import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '@mlc-ai/web-llm';
import { WebLLMEngine } from '../../../src/lib/engines/webgpu/client.ts';
import type { CacheSurface } from '../../../src/lib/engines/webgpu/worker/handler.ts';
import {
	EngineError,
	type CompletionRequest,
	type LoadProgress
} from '../../../src/lib/probe/engine.ts';
import { AbortError, AppError } from '../../../src/lib/errors/appError.ts';
import { fakeEngine, firstVisitReports, webllmError } from '../../helpers/fakeWebLLM.ts';

const GEN = 'Qwen3-0.6B-q4f16_1-MLC';
const JUDGE = 'Qwen3-4B-q4f16_1-MLC';

let closers: (() => void)[] = [];
afterEach(() => {
	for (const close of closers) close();
	closers = [];
});

function setup(opts: Parameters<typeof fakeEngine>[0] = {}, cache: CacheSurface = {}) {
	const t = fakeEngine(opts, cache);
	t.fake.reportsFor = () => [];
	closers.push(t.close);
	return t;
}

function request(overrides: Partial<CompletionRequest> = {}): CompletionRequest {
	return {
		model: GEN,
		prompt: '<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\nA<|im_end|>\n<|im_start|>user\n',
		temperature: 1,
		top_p: 1,
		seed: 5,
		max_tokens: 32,
		stop: ['<|im_end|>'],
		...overrides
	};
}

describe('WebLLMEngine: errors arrive typed', () => {
	it.each([
		['DeviceLostError', 'device_lost'],
		['ShaderF16SupportError', 'shader_f16'],
		['WebGPUNotAvailableError', 'webgpu_unavailable'],
		['QuotaExceededError', 'quota_exceeded']
	] as const)('a %s thrown by reload() rejects load() with code %s', async (name, code) => {
		const { engine, fake } = setup();
		fake.failNext.reload = webllmError(name);
		const err = await engine.load([GEN]).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ code });
	});

	it('keeps a named engine error whole across the worker: class, name, code, recovery, retryable', async () => {
		class ShardMissingError extends EngineError {
			constructor() {
				super('network', 'A model shard is missing.', 'Retry the download.', true);
				this.name = 'ShardMissingError';
			}
		}
		const { engine, fake } = setup();
		fake.failNext.reload = new ShardMissingError();
		const err = await engine.load([GEN]).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EngineError);
		expect(err).toBeInstanceOf(AppError);
		expect(err).toMatchObject({
			name: 'ShardMissingError',
			code: 'network',
			message: 'A model shard is missing.',
			recovery: 'Retry the download.',
			retryable: true
		});
	});

	it('brings a stop thrown in the worker back as the standalone AbortError', async () => {
		const { engine, fake } = setup();
		fake.failNext.reload = new AbortError('Stopped in the worker.');
		const err = await engine.load([GEN]).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(AbortError);
		expect(err).not.toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ name: 'AbortError', message: 'Stopped in the worker.' });
	});

	it('rejects completing on a model that is not loaded with model_not_loaded', async () => {
		const { engine } = setup();
		await expect(engine.complete(request())).rejects.toMatchObject({ code: 'model_not_loaded' });
	});

	it('rejects a non-integer seed before it reaches the worker', async () => {
		const { engine, worker } = setup();
		await expect(engine.complete(request({ seed: 1.5 }))).rejects.toMatchObject({
			message: expect.stringMatching(/integer/)
		});
		expect(worker.received).toHaveLength(0);
	});
});

describe('WebLLMEngine: loading', () => {
	it('loads generator and judge, each in an engine of its own, and reports progress for each', async () => {
		const { engine, fake } = setup();
		fake.reportsFor = () => firstVisitReports(2);
		const seen: LoadProgress[] = [];
		await engine.load([GEN, JUDGE], { onProgress: (p) => seen.push(p) });
		expect(fake.reloads).toEqual([[GEN], [JUDGE]]);
		expect(fake.engines.map((e) => e.resident)).toEqual([[GEN], [JUDGE]]);
		expect(seen.filter((p) => p.model === GEN).at(-1)).toMatchObject({
			fraction: 1,
			phase: 'ready'
		});
		expect(seen.filter((p) => p.model === JUDGE).at(-1)).toMatchObject({ fraction: 1 });
	});

	it('sends a custom appConfig along with the load', async () => {
		const appConfig: AppConfig = {
			model_list: [{ model: 'https://example.org/m', model_id: 'custom', model_lib: 'x.wasm' }]
		};
		const { engine, worker } = setup({ appConfig });
		await engine.load(['custom']);
		expect(worker.received[0]).toMatchObject({ kind: 'load', appConfig });
	});

	it('aborts a load through its signal with AbortError', async () => {
		const { engine, fake } = setup();
		fake.reportsFor = () => firstVisitReports(50);
		fake.reportDelayMs = 2;
		const ctrl = new AbortController();
		const pending = engine.load([GEN], {
			signal: ctrl.signal,
			onProgress: (p) => {
				if (p.fraction > 0.1) ctrl.abort();
			}
		});
		await expect(pending).rejects.toBeInstanceOf(AbortError);
		const stats = await engine.stats();
		expect(stats.loaded).toEqual([]);
	});
});

describe('WebLLMEngine: capabilities', () => {
	it('declares one request at a time, JSON schema and streaming', () => {
		const { engine } = setup();
		expect(engine.capabilities()).toMatchObject({
			max_concurrency: 1,
			json_schema: true,
			streaming: true
		});
	});

	it('co-loads by catalog VRAM against the budget', () => {
		const { engine } = setup();
		const { can_co_load } = engine.capabilities();
		expect(can_co_load([GEN, 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC'])).toBe(true);
		expect(can_co_load([JUDGE, 'Phi-3.5-mini-instruct-q4f16_1-MLC'])).toBe(false);
		const tight = setup({ vramBudgetMB: 2000 }).engine.capabilities();
		expect(tight.can_co_load([GEN, 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC'])).toBe(false);
	});

	it("reads VRAM of models outside the catalog from the appConfig, else won't co-load them", () => {
		const appConfig: AppConfig = {
			model_list: [
				{ model: 'https://e.org/m', model_id: 'tiny', model_lib: 'x.wasm', vram_required_MB: 300 }
			]
		};
		expect(setup({ appConfig }).engine.capabilities().can_co_load([GEN, 'tiny'])).toBe(true);
		expect(setup().engine.capabilities().can_co_load([GEN, 'tiny'])).toBe(false);
	});
});

describe('WebLLMEngine: the worker port', () => {
	it('sends an abort message naming the request when its signal fires', async () => {
		const { engine, fake, worker } = setup();
		await engine.load([GEN]);
		fake.slowNextRequest(5);
		const ctrl = new AbortController();
		let n = 0;
		const pending = engine.complete(
			request({ signal: ctrl.signal, onToken: () => ++n === 2 && ctrl.abort() })
		);
		await expect(pending).rejects.toBeInstanceOf(AbortError);
		await engine.stats(); // a round trip, so the abort has arrived
		const sent = worker.received.find((m) => m.kind === 'complete');
		expect(worker.received).toContainEqual(
			expect.objectContaining({ kind: 'abort', target: sent?.id })
		);
		expect(fake.interrupts).toBe(1);
	});

	it('routes cache queries through the worker', async () => {
		const calls: string[] = [];
		const cache: CacheSurface = {
			has: async (m) => (calls.push(`has ${m}`), true),
			delete: async (m) => void calls.push(`delete ${m}`),
			sizes: async (m) => (calls.push(`sizes ${m}`), { model: m, model_bytes: 5 })
		};
		const { engine, worker } = setup({}, cache);
		expect(await engine.isCached(GEN)).toBe(true);
		await engine.deleteCached(GEN);
		expect(await engine.cacheSizes(GEN)).toEqual({ model: GEN, model_bytes: 5 });
		expect(calls).toEqual([`has ${GEN}`, `delete ${GEN}`, `sizes ${GEN}`]);
		expect(worker.received.map((m) => m.kind)).toEqual(['cacheQuery', 'cacheQuery', 'cacheQuery']);
	});

	it('answers cache queries for a custom model list before any load', async () => {
		const appConfig: AppConfig = {
			model_list: [{ model: 'http://127.0.0.1:9/tiny', model_id: 'tiny', model_lib: 'x.wasm' }]
		};
		// Like web-llm's hasModelInCache: a model missing from the given list is an error.
		const known = (m: string, cfg?: AppConfig) => {
			if (!cfg?.model_list.some((r) => r.model_id === m)) {
				throw webllmError('ModelNotFoundError', `Cannot find model record in appConfig for ${m}.`);
			}
		};
		const cache: CacheSurface = {
			has: async (m, cfg) => (known(m, cfg), true),
			sizes: async (m, cfg) => (known(m, cfg), { model: m, model_bytes: 7 })
		};
		const { engine, worker } = setup({ appConfig }, cache);
		expect(await engine.isCached('tiny')).toBe(true);
		expect(await engine.cacheSizes('tiny')).toEqual({ model: 'tiny', model_bytes: 7 });
		expect(worker.received.map((m) => m.kind)).toEqual(['cacheQuery', 'cacheQuery']);
		expect(worker.received[0]).toMatchObject({ op: 'has', model: 'tiny', appConfig });
		// Without the list (no custom models) the query says so, typed.
		const bare = setup({}, cache);
		await expect(bare.engine.isCached('tiny')).rejects.toMatchObject({ code: 'bad_model' });
	});

	it('rejects pending calls and fails later ones fast when the worker crashes', async () => {
		const { engine, fake, worker } = setup();
		await engine.load([GEN]);
		fake.slowNextRequest(20);
		const pending = engine.complete(request());
		worker.crash('Uncaught RangeError: out of memory');
		await expect(pending).rejects.toMatchObject({
			message: expect.stringMatching(/out of memory/),
			recovery: expect.stringMatching(/Reload the page/)
		});
		await expect(engine.stats()).rejects.toBeInstanceOf(EngineError);
	});

	it('terminates the worker and rejects pending calls with AbortError', async () => {
		const { engine, fake, worker } = setup();
		await engine.load([GEN]);
		fake.slowNextRequest(20);
		const pending = engine.complete(request());
		engine.terminate();
		await expect(pending).rejects.toBeInstanceOf(AbortError);
		expect(worker.terminated).toBe(true);
	});

	it('ignores stray messages and replies for other ids on the port', async () => {
		let deliver: (data: unknown) => void = () => undefined;
		const posted: unknown[] = [];
		const engine = new WebLLMEngine({
			postMessage: (msg) => posted.push(msg),
			addEventListener: (type: string, listener: (e: never) => void) => {
				const onMessage = listener as (e: { data: unknown }) => void;
				if (type === 'message') deliver = (data) => onMessage({ data });
			},
			terminate: () => undefined
		});
		const stats = engine.stats();
		const { id } = posted[0] as { id: number };
		deliver({ hello: 'from an extension' });
		deliver({ kind: 'result', id: id + 1, value: 'not yours' });
		deliver({ kind: 'token', id, delta: 'no listener, no crash' });
		const value = { loaded: [], running: null, queued: 0 };
		deliver({ kind: 'result', id, value });
		await expect(stats).resolves.toEqual(value);
	});
});
