/**
 * A sweep on the WebGPU engine, through the worker protocol against the fake of web-llm's narrow
 * surface: one generator in memory at a time, the judge kept beside them when both fit the VRAM
 * budget (loaded once; only the generator changes between runs), and let go when it cannot stay.
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { continueSweep } from '../../../src/lib/app/sweepLaunch.ts';
import { createWebgpuDevice } from '../../../src/lib/app/deviceEngine.ts';
import { createAppServices } from '../../../src/lib/app/services.ts';
import { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { saveSweep } from '../../../src/lib/setup/sweeps.ts';
import { deviceLostError, fakeEngine } from '../../helpers/fakeWebLLM.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';
import { storeSweep } from '../../helpers/sweepRuns.ts';

const SMALL = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
const MEDIUM = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
/** 2.5 GB: fits beside either generator in the 4 GB budget. */
const JUDGE = 'Qwen2.5-3B-Instruct-q4f16_1-MLC';
const LARGER = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
/** 0.9 GB: a third generator the judge fits beside. */
const THIRD = 'Llama-3.2-1B-Instruct-q4f16_1-MLC';
/** 3.7 GB: fits beside neither MEDIUM nor LARGER. */
const BIG_JUDGE = 'Phi-3.5-mini-instruct-q4f16_1-MLC';

function harness() {
	const made = fakeEngine();
	const services = createAppServices({
		makeDevice: { webgpu: () => createWebgpuDevice(() => made.engine) }
	});
	return { ...made, services };
}

/** The loads and unloads the page asked the worker for, in order. */
function memoryOps(received: readonly { kind: string; models?: string[] }[]): string[] {
	return received
		.filter((m) => m.kind === 'load' || m.kind === 'unload')
		.map((m) => (m.kind === 'load' ? `load ${m.models?.join('+')}` : 'unload'));
}

async function sweepOf(
	h: ReturnType<typeof harness>,
	prefix: string,
	judge: string,
	generators = [SMALL, MEDIUM]
) {
	const ids = await storeSweep(h.services, {
		prefix,
		generators,
		judge,
		choice: { engine: 'webgpu' },
		values: { temperatures: [0] }
	});
	return saveSweep(memoryStorage(), ids);
}

describe('a sweep on the WebGPU engine', () => {
	let close: (() => void) | undefined;
	afterEach(() => close?.());

	it('loads a judge that fits beside each generator once, and swaps only the generator', async () => {
		const h = harness();
		close = h.close;
		const sweep = await sweepOf(h, 'kept', JUDGE, [SMALL, MEDIUM, THIRD]);
		const runner = new RunController({ schedule: (fn) => void fn() });
		expect(await continueSweep(h.services, runner, sweep, { engine: 'webgpu' })).toEqual({
			failed: []
		});
		expect(memoryOps(h.worker.received)).toEqual([
			`load ${SMALL}+${JUDGE}`,
			`load ${MEDIUM}+${JUDGE}`,
			`load ${THIRD}+${JUDGE}`
		]);
		// web-llm's reload frees every model of its engine: the judge has an engine of its own.
		expect(h.fake.reloads).toEqual([[SMALL], [JUDGE], [MEDIUM], [THIRD]]);
		expect(h.fake.engines.map((e) => [e.reloads, e.resident])).toEqual([
			[[[SMALL]], []],
			[[[JUDGE]], [JUDGE]],
			[[[MEDIUM]], []],
			[[[THIRD]], [THIRD]]
		]);
		for (const id of sweep.run_ids)
			expect((await h.services.runStore().getManifest(id))?.status).toBe('done');
	});

	it('goes on with the judge still loaded when the next generator runs out of memory', async () => {
		const h = harness();
		close = h.close;
		const sweep = await sweepOf(h, 'oom', JUDGE, [SMALL, MEDIUM, THIRD]);
		h.fake.failLoadOf[MEDIUM] = deviceLostError();
		const runner = new RunController({ schedule: (fn) => void fn() });
		expect(await continueSweep(h.services, runner, sweep, { engine: 'webgpu' })).toEqual({
			failed: [sweep.run_ids[1]]
		});
		expect(h.fake.reloads).toEqual([[SMALL], [JUDGE], [MEDIUM], [THIRD]]);
		expect(h.fake.resident).toEqual([JUDGE, THIRD]);
		const statuses = await Promise.all(
			sweep.run_ids.map(async (id) => (await h.services.runStore().getManifest(id))?.status)
		);
		// A lost device pauses the run (the same config resumes it); the sweep goes on.
		expect(statuses).toEqual(['done', 'paused', 'done']);
	});

	it('lets everything go between runs when the judge takes turns with each generator', async () => {
		const h = harness();
		close = h.close;
		const sweep = await sweepOf(h, 'phased', BIG_JUDGE, [MEDIUM, LARGER]);
		const runner = new RunController({ schedule: (fn) => void fn() });
		expect(await continueSweep(h.services, runner, sweep, { engine: 'webgpu' })).toEqual({
			failed: []
		});
		expect(memoryOps(h.worker.received)).toEqual([
			`load ${MEDIUM}`,
			'unload',
			`load ${BIG_JUDGE}`,
			'unload',
			`load ${LARGER}`,
			'unload',
			`load ${BIG_JUDGE}`
		]);
	});
});
