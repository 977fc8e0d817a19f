import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CpuEngine, type CpuWorkerLike } from '../../../src/lib/engines/cpu/client.ts';
import { createCpuHandler } from '../../../src/lib/engines/cpu/worker/handler.ts';
import type { CpuRuntime, OpenOptions } from '../../../src/lib/engines/cpu/worker/surface.ts';
import { CpuWorkerSilentError, SILENCE_LIMIT_MS } from '../../../src/lib/engines/cpu/watchdog.ts';
import { AbortError, AppError } from '../../../src/lib/errors/appError.ts';
import type { LoadProgress } from '../../../src/lib/probe/engine.ts';
import { FakeWllama } from '../../helpers/fakeWllama.ts';

const MODEL = 'https://example.test/qwen.gguf';

/**
 * How a spawned worker behaves: "works" runs the real handler over a FakeWllama; "blocked" is a
 * worker whose thread never runs again (nothing answers); "stuck" downloads the whole file, then
 * never finishes opening it (Firefox's nested-worker hang at "26 MB of 26 MB").
 */
type Behaviour = 'works' | 'blocked' | 'stuck';

interface Spawned {
	behaviour: Behaviour;
	terminated: boolean;
	/** Workers not yet terminated when this one started. */
	aliveAtSpawn: number;
}

function spawner(behaviours: Behaviour[], fake = new FakeWllama()) {
	const spawned: Spawned[] = [];
	const stuck: CpuRuntime = Object.assign(Object.create(fake) as FakeWllama, {
		open: (_url: string, opts: OpenOptions) => {
			opts.onProgress({ loaded: fake.fileBytes, total: fake.fileBytes });
			return new Promise<never>(() => {});
		}
	});
	const spawn = (): CpuWorkerLike => {
		const behaviour = behaviours[spawned.length] ?? 'works';
		const me: Spawned = {
			behaviour,
			terminated: false,
			aliveAtSpawn: spawned.filter((s) => !s.terminated).length
		};
		spawned.push(me);
		const listeners: ((event: { data: unknown }) => void)[] = [];
		const toPage = (msg: unknown) => {
			if (me.terminated) return;
			queueMicrotask(() => listeners.forEach((l) => l({ data: structuredClone(msg) })));
		};
		const handle =
			behaviour === 'blocked'
				? () => {}
				: createCpuHandler(behaviour === 'stuck' ? stuck : fake, toPage, () => 1);
		return {
			postMessage: (msg) => {
				if (!me.terminated) queueMicrotask(() => handle(structuredClone(msg)));
			},
			addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
				if (type === 'message') listeners.push(listener as (event: { data: unknown }) => void);
			},
			terminate: () => {
				me.terminated = true;
			}
		};
	};
	return { spawn, spawned, fake };
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
	vi.useRealTimers();
});

/** Settle `promise` while fake time runs on; its outcome, never an unhandled rejection. */
async function outcome<T>(promise: Promise<T>, ms: number): Promise<T | unknown> {
	const result = promise.then(
		(value) => value,
		(err: unknown) => err
	);
	await vi.advanceTimersByTimeAsync(ms);
	return result;
}

describe('CPU engine load watchdog', () => {
	it('restarts a worker that never answers the load, once, and the run proceeds on the new one', async () => {
		const { spawn, spawned } = spawner(['blocked']);
		const engine = new CpuEngine(spawn, { n_threads: 1 });
		const result = await outcome(engine.load([MODEL]), SILENCE_LIMIT_MS + 1_000);
		expect(result).toBeUndefined();
		expect(spawned.map((s) => [s.behaviour, s.terminated])).toEqual([
			['blocked', true],
			['works', false]
		]);
		const done = await outcome(
			engine.complete({
				model: MODEL,
				prompt: '<|im_start|>user\n',
				temperature: 0,
				top_p: 1,
				seed: 1,
				max_tokens: 8,
				stop: []
			}),
			1_000
		);
		expect(done).toMatchObject({ text: expect.any(String) });
	});

	it('does not restart before the limit: a worker silent for just under it is still waited on', async () => {
		const { spawn, spawned } = spawner(['blocked']);
		const engine = new CpuEngine(spawn);
		const pending = engine.load([MODEL]).catch((e: unknown) => e);
		await vi.advanceTimersByTimeAsync(SILENCE_LIMIT_MS - 1_000);
		expect(spawned).toHaveLength(1);
		expect(spawned[0].terminated).toBe(false);
		engine.terminate();
		expect(await pending).toBeInstanceOf(AbortError);
	});

	it('fails with CpuWorkerSilentError when the fresh worker goes silent too, and keeps one worker alive', async () => {
		const { spawn, spawned } = spawner(['blocked', 'stuck']);
		const engine = new CpuEngine(spawn);
		const progress: LoadProgress[] = [];
		const err = await outcome(
			engine.load([MODEL], { onProgress: (p) => progress.push(p) }),
			2 * SILENCE_LIMIT_MS + 2_000
		);
		expect(err).toBeInstanceOf(CpuWorkerSilentError);
		expect(err).toBeInstanceOf(AppError);
		expect(err).toMatchObject({
			name: 'CpuWorkerSilentError',
			code: 'timeout',
			recovery: expect.stringMatching(/reload the page.*chromium/i)
		});
		// The stuck worker's last word reached the page before it went quiet.
		expect(progress.at(-1)).toMatchObject({ phase: 'loading', fraction: expect.any(Number) });
		expect(spawned.map((s) => s.terminated)).toEqual([true, true, false]);
		expect(spawned.every((s) => s.aliveAtSpawn === 0)).toBe(true);
	});

	it('never kills a slow load that keeps reporting progress', async () => {
		const fake = new FakeWllama();
		// Ten minutes of download, a chunk every 90 s: longer in total, never silent for the limit.
		fake.progressSteps = 10;
		fake.progressDelayMs = 90_000;
		const { spawn, spawned } = spawner([], fake);
		const engine = new CpuEngine(spawn);
		const result = await outcome(engine.load([MODEL]), 10 * 90_000 + 1_000);
		expect(result).toBeUndefined();
		expect(spawned).toHaveLength(1);
		expect(spawned[0].terminated).toBe(false);
	});

	it('an abort during the retried load is an abort, and no third worker starts', async () => {
		const { spawn, spawned } = spawner(['blocked', 'blocked']);
		const engine = new CpuEngine(spawn);
		const ctrl = new AbortController();
		const pending = engine.load([MODEL], { signal: ctrl.signal }).catch((e: unknown) => e);
		await vi.advanceTimersByTimeAsync(SILENCE_LIMIT_MS + 1_000);
		expect(spawned).toHaveLength(2);
		ctrl.abort();
		expect(await pending).toBeInstanceOf(AbortError);
		await vi.advanceTimersByTimeAsync(SILENCE_LIMIT_MS + 1_000);
		expect(spawned).toHaveLength(2);
		expect(spawned.map((s) => s.terminated)).toEqual([true, false]);
	});

	it('an abort while the first worker is silent rejects at once, without a restart', async () => {
		const { spawn, spawned } = spawner(['blocked']);
		const engine = new CpuEngine(spawn);
		const ctrl = new AbortController();
		const pending = engine.load([MODEL], { signal: ctrl.signal }).catch((e: unknown) => e);
		await vi.advanceTimersByTimeAsync(10_000);
		ctrl.abort();
		expect(await pending).toBeInstanceOf(AbortError);
		await vi.advanceTimersByTimeAsync(SILENCE_LIMIT_MS);
		expect(spawned).toHaveLength(1);
	});

	it('a single port that cannot be restarted fails with CpuWorkerSilentError and is stopped', async () => {
		const { spawn, spawned } = spawner(['blocked']);
		const engine = new CpuEngine(spawn());
		const err = await outcome(engine.load([MODEL]), SILENCE_LIMIT_MS + 1_000);
		expect(err).toBeInstanceOf(CpuWorkerSilentError);
		expect(spawned.map((s) => s.terminated)).toEqual([true]);
	});
});
