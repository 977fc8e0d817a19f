/**
 * A sweep in the browser: stored runs, one per generator model, run one after another by one
 * RunController against a scripted server; stopped midway, the same call goes on where it stopped
 * (the finished run untouched, the stopped one resumed, the rest after it).
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { continueSweep, driveSweep, sweepToContinue } from '../../../src/lib/app/sweepLaunch.ts';
import type { LocksLike } from '../../../src/lib/app/runLocks.ts';
import { createAppServices } from '../../../src/lib/app/services.ts';
import { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { isDriving, markDriving, saveSweep, sweepOfRun } from '../../../src/lib/setup/sweeps.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';
import { storeSweep } from '../../helpers/sweepRuns.ts';

const MODELS = ['small', 'medium', 'large'];

describe('a sweep in the browser', () => {
	let mock: MockOpenAI;
	beforeAll(async () => {
		mock = await startMockOpenAI({ models: MODELS });
	});
	afterAll(async () => mock.close());

	const services = createAppServices();
	const choice = () => ({ engine: 'server' as const, base_url: mock.url });

	/** Stored, not started (as set-up stores every run first). */
	const storeRuns = (prefix: string) =>
		storeSweep(services, {
			prefix,
			generators: MODELS,
			judge: null,
			choice: choice(),
			values: { temperatures: [0, 1] }
		});

	const generatorCalls = (model: string) =>
		mock.requests.filter((r) => (r.body as { model?: string } | null)?.model === model).length;

	it('runs each model’s run in order, one at a time, until all are done', async () => {
		const ids = await storeRuns('all');
		const storage = memoryStorage();
		const sweep = saveSweep(storage, ids);
		expect(sweepOfRun(storage, ids[1])).toEqual(sweep);
		const runner = new RunController({ schedule: (fn) => void fn() });
		const shown: string[] = [];
		const end = await continueSweep(services, runner, sweep, choice(), (id) => shown.push(id));
		expect(end).toEqual({ failed: [] });
		expect(shown).toEqual(ids);
		for (const id of ids) {
			const m = await services.runStore().getManifest(id);
			expect(m?.status).toBe('done');
			expect((await services.runStore().getRecords(id)).length).toBe(10);
		}
	});

	it('stopped midway, goes on where it stopped', async () => {
		const ids = await storeRuns('stop');
		const sweep = saveSweep(memoryStorage(), ids);
		const runner = new RunController({ schedule: (fn) => void fn() });
		mock.tokenDelayMs = 5;
		const first = await continueSweep(services, runner, sweep, choice(), (id) => {
			if (id !== ids[1]) return;
			// Pause the second run once it runs: the first is done by then.
			const timer = setInterval(() => {
				if (runner.phase !== 'running') return;
				clearInterval(timer);
				runner.pause();
			}, 1);
		});
		mock.tokenDelayMs = 0;
		expect(first).toEqual({ stopped: ids[1] });
		expect((await services.runStore().getManifest(ids[0]))?.status).toBe('done');
		expect((await services.runStore().getManifest(ids[2]))?.status).toBe('paused');
		const smallCalls = generatorCalls('small');

		const shown: string[] = [];
		const end = await continueSweep(services, runner, sweep, choice(), (id) => shown.push(id));
		expect(end).toEqual({ failed: [] });
		expect(shown).toEqual(ids.slice(1));
		expect(generatorCalls('small')).toBe(smallCalls);
		for (const id of ids) expect((await services.runStore().getManifest(id))?.status).toBe('done');
	});

	it('reports a model that fails and goes on with the next, as the CLI does', async () => {
		const ids = await storeRuns('fail');
		const sweep = saveSweep(memoryStorage(), ids);
		const runner = new RunController({ schedule: (fn) => void fn() });
		mock.faultPlan = (_n, req) =>
			(req.body as { model?: string } | null)?.model === 'medium'
				? { status: 404, body: JSON.stringify({ error: { message: 'model medium not found' } }) }
				: undefined;
		const end = await continueSweep(services, runner, sweep, choice());
		mock.faultPlan = undefined;
		expect(end).toEqual({ failed: [ids[1]] });
		const status = async (id: string) => (await services.runStore().getManifest(id))?.status;
		expect([await status(ids[0]), await status(ids[2])]).toEqual(['done', 'done']);
		expect(await status(ids[1])).not.toBe('done');
		// The same call later resumes only the failed one.
		const shown: string[] = [];
		expect(await continueSweep(services, runner, sweep, choice(), (id) => shown.push(id))).toEqual({
			failed: []
		});
		expect(shown).toEqual([ids[1]]);
	});

	describe('after a reload', () => {
		/** Locks as another tab holding these runs leaves them. */
		const heldBy = (...ids: string[]): LocksLike => ({
			request: async () => undefined,
			query: async () => ({ held: ids.map((id) => ({ name: `utp-run:${id}` })) })
		});
		function tab(): {
			local: ReturnType<typeof memoryStorage>;
			session: ReturnType<typeof memoryStorage>;
		} {
			const local = memoryStorage();
			const session = memoryStorage();
			vi.stubGlobal('localStorage', local);
			vi.stubGlobal('sessionStorage', session);
			return { local, session };
		}

		it('the tab that was driving the sweep goes on with it by itself', async () => {
			const { local, session } = tab();
			const sweep = saveSweep(local, ['r1', 'r2', 'r3']);
			markDriving(session, sweep.id);
			expect(await sweepToContinue('r2', heldBy())).toEqual(sweep);
			vi.unstubAllGlobals();
		});

		it('another tab or a fresh visit, without the mark, waits for Resume', async () => {
			const { local } = tab();
			saveSweep(local, ['r1', 'r2', 'r3']);
			expect(await sweepToContinue('r2', heldBy())).toBeUndefined();
			vi.unstubAllGlobals();
		});

		it('a run another tab holds is never taken over, mark or not', async () => {
			const { local, session } = tab();
			const sweep = saveSweep(local, ['r1', 'r2', 'r3']);
			markDriving(session, sweep.id);
			expect(await sweepToContinue('r2', heldBy('r2'))).toBeUndefined();
			vi.unstubAllGlobals();
		});

		it('a sweep that ended (paused here) clears its mark: a reload then waits for Resume', async () => {
			const { session } = tab();
			const ids = await storeRuns('mark');
			const sweep = saveSweep(localStorage, ids);
			const runner = new RunController({ schedule: (fn) => void fn() });
			mock.tokenDelayMs = 5;
			let marked = false;
			await driveSweep(services, runner, sweep, choice(), {
				onRun: () => {
					marked = isDriving(session, sweep.id);
					const timer = setInterval(() => {
						if (runner.phase !== 'running') return;
						clearInterval(timer);
						runner.pause();
					}, 1);
				},
				onDone: () => {}
			});
			mock.tokenDelayMs = 0;
			expect(marked).toBe(true);
			expect(isDriving(session, sweep.id)).toBe(false);
			// This page drove it: its own view of the next run never starts it a second time.
			markDriving(session, sweep.id);
			expect(await sweepToContinue(ids[0], heldBy())).toBeUndefined();
			vi.unstubAllGlobals();
		});
	});
});
