/**
 * Set-up's plan takes every engine answer from the chosen provider: the server's context window
 * (asked once the URL and model settle), whether generator and judge take turns (the same rule the
 * engine's can_co_load applies), the downloads, the cache badges and the estimate's speed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceEngine, EngineHosts } from '../../../src/lib/engines/provider.ts';
import { ENGINES } from '../../../src/lib/engines/registry.ts';
import { CUSTOM_GGUF } from '../../../src/lib/engines/cpu/settings.ts';
import { CpuEngine } from '../../../src/lib/engines/cpu/client.ts';
import { WebLLMEngine } from '../../../src/lib/engines/webgpu/client.ts';
import type { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import type { ServerContextWindow } from '../../../src/lib/engines/server/contextWindow.ts';
import { DEFAULT_FORM, type RunFormValues } from '../../../src/lib/setup/runForm.ts';
import { DownloadSizes } from '../../../src/lib/state/downloadSizes.svelte.ts';
import { ModelCacheState } from '../../../src/lib/state/modelCache.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { SetupPlan, type SetupPlanDeps } from '../../../src/lib/state/setupPlan.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

const GPU = { canRunModels: true, shaderF16: true, checked: true };

/** A worker that is never spoken to: only the engines' capabilities are read. */
const silentWorker = {
	postMessage: () => {},
	terminate: () => {},
	addEventListener: () => {},
	removeEventListener: () => {}
};

function fakeDevice(cached: Record<string, boolean>, bytes: Record<string, number>): DeviceEngine {
	return {
		engine: {} as DeviceEngine['engine'],
		version: 'test',
		isCached: vi.fn(async (id: string) => cached[id] ?? false),
		cachedBytes: vi.fn(async (id: string) => bytes[id]),
		unload: async () => {},
		dispose: () => {}
	};
}

function plan(
	over: Partial<Omit<SetupPlanDeps, 'values'>> & {
		values?: Partial<RunFormValues>;
		context?: (model: string, signal: AbortSignal) => Promise<ServerContextWindow | undefined>;
	} = {}
) {
	const { values: form, context, ...rest } = over;
	const settings = over.settings ?? new EngineSettings(memoryStorage());
	const webgpu = fakeDevice({}, {});
	const cpu = fakeDevice({}, {});
	const servers: string[] = [];
	const hosts: EngineHosts = {
		device: (kind) => ({ webgpu, cpu })[kind as 'webgpu' | 'cpu'],
		resetDevice: () => {},
		serverEngine: async (baseUrl) => {
			if (!/^https?:\/\//.test(baseUrl)) throw new Error('not a URL');
			servers.push(baseUrl);
			return {
				contextWindow: context ?? (async () => undefined)
			} as unknown as OpenAIEngine;
		}
	};
	const values = { ...DEFAULT_FORM, ...form };
	const deps: SetupPlanDeps = {
		settings,
		device: () => GPU,
		values: () => values,
		items: () => 10,
		conditions: () => 2,
		hosts,
		cache: new ModelCacheState(),
		sizes: new DownloadSizes(memoryStorage()),
		history: () => [],
		...rest
	};
	return { plan: new SetupPlan(deps), settings, deps, webgpu, cpu, servers };
}

describe('SetupPlan: the server context window', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	it('asks the server once the URL and model have settled, and uses what it tells', async () => {
		const context = vi.fn(async (_model: string, _signal: AbortSignal) => ({
			tokens: 8192,
			source: 'max_model_len in /v1/models'
		}));
		const { plan: p, settings } = plan({ context });
		settings.engine.current = 'server';
		settings.models.server.baseUrl.current = 'http://127.0.0.1:8000/v1';
		settings.models.server.modelId.current = 'Qwen/Qwen3-0.6B';
		// The user is still typing: each change cancels the ask before it goes out.
		const first = p.askContextWindow();
		await vi.advanceTimersByTimeAsync(100);
		first();
		const second = p.askContextWindow();
		expect(p.contextPending).toBe(true);
		await vi.advanceTimersByTimeAsync(400);
		expect(context).toHaveBeenCalledTimes(1);
		expect(context.mock.calls[0][0]).toBe('Qwen/Qwen3-0.6B');
		expect(p.contextWindow).toBe(8192);
		expect(p.contextSource).toBe('max_model_len in /v1/models');
		expect(p.contextPending).toBe(false);
		second();
	});

	it('drops an answer that comes after the settings changed', async () => {
		let answer: (v: ServerContextWindow) => void = () => {};
		const context = () => new Promise<ServerContextWindow>((resolve) => (answer = resolve));
		const { plan: p, settings } = plan({ context });
		settings.engine.current = 'server';
		settings.models.server.modelId.current = 'm';
		const stop = p.askContextWindow();
		await vi.advanceTimersByTimeAsync(400);
		stop();
		answer({ tokens: 4096, source: 'late' });
		await vi.advanceTimersByTimeAsync(0);
		expect(p.contextWindow).toBeUndefined();
	});

	it('does not ask without a URL or model, or for a URL that is not one yet', async () => {
		const context = vi.fn(async () => ({ tokens: 1, source: 'x' }));
		const { plan: p, settings, servers } = plan({ context });
		settings.engine.current = 'server';
		settings.models.server.modelId.current = '';
		p.askContextWindow();
		expect(p.contextPending).toBe(false);
		settings.models.server.modelId.current = 'm';
		settings.models.server.baseUrl.current = 'localhost:8000';
		p.askContextWindow();
		await vi.advanceTimersByTimeAsync(400);
		expect(servers).toEqual([]);
		expect(context).not.toHaveBeenCalled();
		expect(p.contextPending).toBe(false);
	});

	it('never asks an engine on this device: its catalog says', async () => {
		const context = vi.fn(async () => ({ tokens: 1, source: 'x' }));
		const { plan: p, settings } = plan({ context });
		settings.engine.current = 'webgpu';
		p.askContextWindow();
		await vi.advanceTimersByTimeAsync(400);
		expect(context).not.toHaveBeenCalled();
		expect(p.asksContext).toBe(false);
		expect(p.contextWindow).toBe(settings.models.webgpu.generator(GPU)?.context_window);
		settings.engine.current = 'cpu';
		expect(p.contextWindow).toBeUndefined();
	});
});

describe('SetupPlan: phasing is the engine’s own answer', () => {
	it('phases a WebGPU pair exactly when the engine would not co-load it', () => {
		const { plan: p, settings } = plan({ values: { judge_mode: 'hybrid' } });
		const engine = new WebLLMEngine(silentWorker);
		const pairs: [string, string][] = [
			['qwen2.5-0.5b-instruct', 'qwen2.5-3b-instruct'],
			['phi-3.5-mini-instruct', 'qwen3-4b'],
			['qwen3.5-4b', 'qwen3.5-4b']
		];
		for (const [g, j] of pairs) {
			settings.models.webgpu.generatorKey.current = g;
			settings.models.webgpu.judgeKey.current = j;
			const ids = [settings.models.webgpu.generatorId(GPU), settings.models.webgpu.judgeId(GPU)];
			expect(p.phased, `${g} + ${j}`).toBe(!engine.capabilities().can_co_load(ids));
		}
		expect(p.phased).toBe(false);
	});

	it('phases two different CPU models and never one model in both roles', () => {
		const { plan: p, settings } = plan({ values: { judge_mode: 'llm' } });
		settings.engine.current = 'cpu';
		const engine = new CpuEngine(silentWorker);
		const ids = () => [settings.models.cpu.generatorId(), settings.models.cpu.judgeId()];
		expect(p.phased).toBe(true);
		expect(engine.capabilities().can_co_load(ids())).toBe(false);
		settings.models.cpu.judgeKey.current = settings.models.cpu.generatorKey.current;
		expect(p.phased).toBe(false);
		expect(engine.capabilities().can_co_load(ids())).toBe(true);
	});

	it('never phases when the rules label alone, or on a server', () => {
		const { plan: p, settings } = plan({ values: { judge_mode: 'rules' } });
		settings.engine.current = 'cpu';
		expect(p.phased).toBe(false);
		settings.engine.current = 'server';
		expect(p.phased).toBe(false);
	});
});

describe('SetupPlan: downloads, cache and estimate', () => {
	it("counts the CPU engine's files with sizes measured here and the cache's word", async () => {
		const { plan: p, settings, deps, cpu } = plan({ values: { judge_mode: 'llm' } });
		settings.engine.current = 'cpu';
		settings.models.cpu.judgeKey.current = CUSTOM_GGUF;
		settings.models.cpu.judgeUrl.current = 'https://example.org/own.gguf';
		const [gen] = settings.models.cpu.chosen(false).map((m) => m.url);
		deps.sizes.record('https://example.org/own.gguf', 300 * 1024 * 1024);
		cpu.isCached = vi.fn(async (id: string) => id === gen);
		p.refreshCached();
		await vi.waitFor(() => expect(deps.cache.cached[gen]).toBe(true));
		expect(p.downloads).toEqual([
			{
				id: gen,
				download_MB: settings.models.cpu.generator().entry?.download_MB ?? null,
				cached: true
			},
			{ id: 'https://example.org/own.gguf', download_MB: 300, cached: false }
		]);
		expect(p.estimate.download_MB).toBe(300);
	});

	it('leaves the WebGPU worker alone until the GPU is known to run models', () => {
		const device = { ...GPU, checked: false };
		const { plan: p, webgpu } = plan({ device: () => device });
		p.refreshCached();
		device.checked = true;
		device.canRunModels = false;
		p.refreshCached();
		expect(webgpu.isCached).not.toHaveBeenCalled();
		device.canRunModels = true;
		p.refreshCached();
		expect(webgpu.isCached).toHaveBeenCalled();
	});

	it('measures a cached model once and keeps its size', async () => {
		const { plan: p, settings, deps, webgpu } = plan();
		const id = settings.models.webgpu.generatorId(GPU);
		webgpu.cachedBytes = vi.fn(async () => 512 * 1024 * 1024);
		await deps.cache.refresh([id], async () => true);
		p.measureSizes();
		await vi.waitFor(() => expect(deps.sizes.mb(id)).toBe(512));
		p.measureSizes();
		expect(webgpu.cachedBytes).toHaveBeenCalledTimes(1);
	});

	it("estimates with the provider's typical speed, or this device's benchmark of the runtime", () => {
		const history = [
			{
				engine: ENGINES.cpu.runtime,
				model_id: '',
				created_at: '2026-01-01T00:00:00Z',
				results: { decode_tps: 42 }
			}
		];
		const { plan: p, settings } = plan({ history: () => history });
		settings.engine.current = 'server';
		expect(p.estimate).toMatchObject({
			tokens_per_second: ENGINES.server.guessTps,
			speed_source: 'guess'
		});
		settings.engine.current = 'cpu';
		history[0].model_id = settings.models.cpu.generatorId();
		expect(p.estimate).toMatchObject({ tokens_per_second: 42, speed_source: 'measured' });
	});
});

describe('SetupPlan: the classroom preset', () => {
	it('on the GPU: one small model for both roles, its size before any download, a guessed time', () => {
		const { plan: p, settings } = plan();
		settings.engine.current = 'webgpu';
		const model = p.classroom;
		expect(model?.label).toMatch(/^Qwen2\.5 0\.5B Instruct · q4f16/);
		// The catalog lists no download size; its GPU memory figure bounds it.
		expect(model?.download_MB).toBeNull();
		expect(model?.at_most_MB).toBeGreaterThan(500);
		const e = p.classroomEstimate('same-model');
		expect(e?.unknown_sizes).toEqual([model?.id]);
		expect(e).toMatchObject({ answers: 10, user_turns: 10, judge_calls: { min: 0, max: 10 } });
		expect(e?.speed_source).toBe('guess');
		expect(p.classroomEstimate('rules')?.judge_calls).toEqual({ min: 0, max: 0 });
		// Applying it makes the generator the judge: one model, one download, sharing memory.
		model?.apply();
		expect(settings.models.webgpu.judgeKey.current).toBe(
			settings.models.webgpu.generatorKey.current
		);
		const hybrid = plan({ settings, values: { judge_mode: 'hybrid' } }).plan;
		expect(hybrid.downloads.map((d) => d.id)).toEqual([model?.id, model?.id]);
		expect(hybrid.estimate.unknown_sizes).toEqual([model?.id]);
		expect(hybrid.phased).toBe(false);
	});

	it("on the CPU: the suggested generator judges too, and this device's benchmark sets the time", () => {
		const settings = new EngineSettings(memoryStorage());
		settings.engine.current = 'cpu';
		const url = settings.models.cpu.classroom()?.id ?? '';
		const history = [
			{
				engine: ENGINES.cpu.runtime,
				model_id: url,
				created_at: '2026-11-25T10:00:00Z',
				results: { decode_tps: 4 }
			}
		];
		const { plan: p } = plan({ settings, history: () => history });
		const e = p.classroomEstimate('same-model');
		expect(e).toMatchObject({ speed_source: 'measured', tokens_per_second: 4 });
		// The catalog lists no size: said as unknown, never guessed.
		expect(e?.unknown_sizes).toEqual([url]);
		p.classroom?.apply();
		expect(settings.models.cpu.judge().url).toBe(url);
		expect(plan({ settings, values: { judge_mode: 'hybrid' } }).plan.phased).toBe(false);
	});

	it("with a model mirror, shows each engine's classroom model at the size its index.json lists, before any download", async () => {
		const settings = new EngineSettings(memoryStorage());
		settings.engine.current = 'webgpu';
		const gpuModel = plan({ settings }).plan.classroom?.id ?? '';
		settings.engine.current = 'cpu';
		const cpuModel = settings.models.cpu.classroom()?.id ?? '';
		// index.json as user-turn-probe mirror writes it; the kit holds no other model.
		const manifest = {
			format: 'user-turn-probe-mirror/1',
			files: {},
			models: {
				[gpuModel]: { bytes: 289_000_000, files: [] },
				[cpuModel]: { bytes: 398_000_000, files: [] }
			}
		};
		const asked: string[] = [];
		settings.mirror.set('http://school.test/kit');
		await settings.mirror.check([], async (url) => {
			asked.push(url);
			return { ok: true, status: 200, json: async () => manifest };
		});
		expect(asked).toEqual(['http://school.test/kit/index.json']);

		const { plan: p } = plan({ settings });
		expect(p.classroomEstimate('same-model')).toMatchObject({
			download_MB: Math.round(398_000_000 / 2 ** 20),
			unknown_sizes: []
		});
		settings.engine.current = 'webgpu';
		expect(p.classroomEstimate('same-model')).toMatchObject({
			download_MB: Math.round(289_000_000 / 2 ** 20),
			unknown_sizes: []
		});
		// Set-up's own estimate takes the listed size for the chosen models too.
		p.classroom?.apply();
		expect(p.downloads[0]).toEqual({
			id: gpuModel,
			download_MB: Math.round(289_000_000 / 2 ** 20),
			cached: undefined
		});

		// A model the kit does not list stays "not known": no size is made up.
		settings.models.webgpu.generatorKey.current = 'qwen3-0.6b';
		expect(p.downloads[0]).toMatchObject({ download_MB: null });
		expect(p.estimate.unknown_sizes).toContain(p.downloads[0].id);
		// Back to Hugging Face: the mirror's sizes are no longer its word.
		settings.mirror.set('');
		expect(p.classroomEstimate('same-model')?.unknown_sizes).toEqual([gpuModel]);
	});

	it('a server suggests no classroom model', () => {
		const { plan: p, settings } = plan();
		settings.engine.current = 'server';
		expect(p.classroom).toBeNull();
		expect(p.classroomEstimate('rules')).toBeNull();
	});
});

describe('SetupPlan: a sweep', () => {
	it('sweeps on every engine: a server over its models, this device over its catalog', () => {
		const { plan: p, settings } = plan();
		for (const kind of ['server', 'webgpu', 'cpu'] as const) {
			settings.engine.current = kind;
			expect(p.canSweep).toBe(true);
		}
	});

	it('hands the sweep its estimate input and each model’s measured speed', () => {
		const history = [
			{
				engine: 'wllama',
				model_id: 'https://h/b.gguf',
				created_at: '2026-01-01',
				results: { decode_tps: 9 }
			}
		];
		const { plan: p, settings } = plan({ history: () => history });
		settings.engine.current = 'cpu';
		expect(p.estimateInput.models).toEqual(p.downloads);
		expect(p.speedOf('https://h/b.gguf')?.tokens_per_second).toBe(9);
		expect(p.speedOf('https://h/a.gguf')).toBeUndefined();
	});

	it('asks the cache about a sweep’s own models too', async () => {
		const { plan: p, settings, cpu, deps } = plan();
		settings.engine.current = 'cpu';
		p.refreshCached(['https://h/b.gguf']);
		await vi.waitFor(() => expect(deps.cache.cached['https://h/b.gguf']).toBe(false));
		expect(cpu.isCached).toHaveBeenCalledWith('https://h/b.gguf');
	});
});

describe('SetupPlan: each model’s context window before start', () => {
	beforeEach(() => vi.useFakeTimers());
	afterEach(() => vi.useRealTimers());

	/** vLLM serving models with their own windows; one it does not report. */
	const vllm = vi.fn(async (model: string) =>
		model === 'unlisted'
			? undefined
			: { tokens: model === 'small' ? 2048 : 40960, source: 'max_model_len in /v1/models' }
	);

	it('asks the server for each further model of a sweep, as the start asks it', async () => {
		const { plan: p, settings } = plan({ context: vllm });
		settings.engine.current = 'server';
		settings.models.server.baseUrl.current = 'http://127.0.0.1:8000/v1';
		settings.models.server.modelId.current = 'big';
		const stopMain = p.askContextWindow();
		const stopSweep = p.askSweepWindows(['big', 'small', 'unlisted']);
		expect(p.windowOf('small')).toEqual({ state: 'asking' });
		expect(p.windowOf('big')).toEqual({ state: 'asking' });
		await vi.advanceTimersByTimeAsync(400);
		expect(p.windowOf('big')).toEqual({
			state: 'known',
			tokens: 40960,
			source: 'max_model_len in /v1/models'
		});
		expect(p.windowOf('small')).toMatchObject({ state: 'known', tokens: 2048 });
		expect(p.windowOf('unlisted')).toEqual({ state: 'not reported' });
		// The chosen model is asked once, by its own ask, not again for the sweep.
		expect(vllm.mock.calls.map((c) => c[0]).sort()).toEqual(['big', 'small', 'unlisted']);
		stopMain();
		stopSweep();
	});

	it('drops answers for a list that changed, and asks nothing of an engine that never tells', async () => {
		let answer: (v: ServerContextWindow) => void = () => {};
		const context = () => new Promise<ServerContextWindow>((resolve) => (answer = resolve));
		const { plan: p, settings } = plan({ context });
		settings.engine.current = 'server';
		settings.models.server.modelId.current = 'big';
		const stop = p.askSweepWindows(['big', 'other']);
		await vi.advanceTimersByTimeAsync(400);
		stop();
		answer({ tokens: 4096, source: 'late' });
		await vi.advanceTimersByTimeAsync(0);
		expect(p.windowOf('other')).toEqual({ state: 'asking' });
		p.askSweepWindows(['big']);
		expect(p.windowOf('other')).toEqual({ state: 'asking' });

		settings.engine.current = 'cpu';
		expect(p.asksContext).toBe(false);
		expect(p.windowOf('https://h/x.gguf')).toEqual({ state: 'not reported' });
	});

	it('hands the estimate the last measured download speed, and none before one', () => {
		const { plan: p, settings, deps } = plan({ values: { judge_mode: 'llm' } });
		settings.engine.current = 'cpu';
		settings.models.cpu.judgeKey.current = CUSTOM_GGUF;
		settings.models.cpu.judgeUrl.current = 'https://example.org/own.gguf';
		deps.sizes.record('https://example.org/own.gguf', 300 * 1024 * 1024);
		expect(p.estimateInput.download_speed).toBeUndefined();
		expect(p.estimate.download_seconds).toBeNull();
		deps.sizes.recordSpeed({ model: 'm', bytes: 50 * 1024 * 1024, ms: 5_000 }, '2026-11-01');
		expect(p.estimateInput.download_speed).toEqual({ MB_per_s: 10, at: '2026-11-01' });
		// The judge's file, not cached: its measured size at 10 MB/s.
		expect(p.estimate.download_MB).toBeGreaterThanOrEqual(300);
		expect(p.estimate.download_seconds).toBeCloseTo(p.estimate.download_MB / 10);
	});
});
