/**
 * The browser's Resume refuses things in the start's one order (probe/start.ts), as a new start
 * and the CLI's `run` do: the run's lock (this tab's one run, another tab holding it), then the
 * server, then the stored template and items, then the identity. Each case has two faults, so
 * only the order decides which one is said; and a refused resume lets the run's lock go.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createAndStart, storedLaunch } from '../../../src/lib/app/launch.ts';
import { ResumeError, resumeRun } from '../../../src/lib/app/resume.ts';
import { lockName, RunElsewhereError, type LocksLike } from '../../../src/lib/app/runLocks.ts';
import type { StartStep } from '../../../src/lib/probe/start.ts';
import { RunActiveError, type RunController } from '../../../src/lib/state/runner.svelte.ts';
import { appAgainstMock } from '../../helpers/appAgainstMock.ts';
import type { MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { runValues } from '../../helpers/factories.ts';

/** Web Locks as a browser keeps them: `ifAvailable` gets null while another holder has the name. */
function fakeLocks(): LocksLike & { held: Set<string> } {
	const held = new Set<string>();
	return {
		held,
		async request(name, options, callback) {
			if (held.has(name)) return callback(null);
			held.add(name);
			try {
				return await callback({ name });
			} finally {
				held.delete(name);
			}
		},
		query: async () => ({ held: [...held].map((name) => ({ name })) })
	};
}

/** A runner whose run lasts until the test ends it. */
function fakeRunner(active = false) {
	let end = () => {};
	const start = vi.fn(() => new Promise<void>((done) => (end = done)));
	const runner = { active, runId: active ? 'other' : null, start } as unknown as RunController;
	return { runner, start, end: () => end() };
}

describe('Resume refuses in the start’s order', () => {
	const app = appAgainstMock();
	const { services, template } = app;
	let mock: MockOpenAI;
	beforeAll(() => {
		mock = app.mock();
		mock.modelFields = { gen: { root: '/models/a', owned_by: 'vllm' } };
	});
	const up = () => ({ engine: 'server' as const, base_url: mock.url });
	/** Nothing listens on port 9: the server check fails as a server that is down does. */
	const down = { engine: 'server' as const, base_url: 'http://127.0.0.1:9/v1' };
	const answersOpaque = async () => false;

	async function storedRun(run_id: string) {
		const { runner } = fakeRunner();
		await createAndStart(services, runner, {
			values: runValues({ run_id, generator: { id: 'gen' }, judge: { id: 'gen' } }),
			template: template(),
			choice: up()
		});
	}

	/** Resume with the steps logged; what it threw, if anything. */
	async function resume(
		runId: string,
		choice: { engine: 'server'; base_url: string },
		runner: RunController,
		locks: LocksLike
	) {
		const steps: StartStep[] = [];
		try {
			await resumeRun(services, runner, runId, choice, {
				locks,
				answersOpaque,
				startPorts: (ports) => {
					const logged = { ...ports };
					for (const step of ['lock', 'server', 'template', 'dataset', 'store'] as const) {
						const port = ports[step] as ((...a: never[]) => unknown) | undefined;
						if (port)
							(logged as Record<string, unknown>)[step] = (...a: never[]) => {
								steps.push(step);
								return port(...a);
							};
					}
					return logged;
				}
			});
			return { steps };
		} catch (error) {
			return { steps, error };
		}
	}

	it('a run active in this tab is refused before the server is asked', async () => {
		await storedRun('order-1');
		const asked = mock.requests.length;
		const end = await resume('order-1', down, fakeRunner(true).runner, fakeLocks());
		expect(end.error).toBeInstanceOf(RunActiveError);
		expect(end.steps).toEqual(['lock']);
		expect(mock.requests.length).toBe(asked);
	});

	it('a run another tab holds is refused before the server is asked, and its lock stays there', async () => {
		await storedRun('order-2');
		const locks = fakeLocks();
		locks.held.add(lockName('order-2'));
		const { runner, start } = fakeRunner();
		const end = await resume('order-2', down, runner, locks);
		expect(end.error).toBeInstanceOf(RunElsewhereError);
		expect(end.steps).toEqual(['lock']);
		expect(start).not.toHaveBeenCalled();
		expect(locks.held.has(lockName('order-2'))).toBe(true);
	});

	it('a server that is down is said before the stored inputs are missed, and the lock is let go', async () => {
		await storedRun('order-3');
		// As an imported run is kept: its manifest, without the items and template it was made from.
		const manifest = await services.runStore().getManifest('order-3');
		if (!manifest) throw new Error('not stored');
		await services.runStore().putManifest({ ...manifest, run_id: 'order-3-imported' });
		const locks = fakeLocks();
		const downEnd = await resume('order-3-imported', down, fakeRunner().runner, locks);
		expect(downEnd.steps).toEqual(['lock', 'server']);
		expect(downEnd.error).not.toBeInstanceOf(ResumeError);
		expect(String(downEnd.error)).toContain('127.0.0.1:9');
		expect(locks.held.size).toBe(0);
		// With the server up, the missing inputs are said at the template step.
		const upEnd = await resume('order-3-imported', up(), fakeRunner().runner, locks);
		expect(upEnd.steps).toEqual(['lock', 'server', 'template']);
		expect(upEnd.error).toBeInstanceOf(ResumeError);
		expect(String(upEnd.error)).toMatch(/imported or made by the CLI/);
		expect(locks.held.size).toBe(0);
	});

	it('a run whose model changed is refused at the store step, after every other step, unstarted', async () => {
		await storedRun('order-4');
		mock.modelFields = { gen: { root: '/models/b', owned_by: 'vllm' } };
		try {
			const locks = fakeLocks();
			const { runner, start } = fakeRunner();
			const end = await resume('order-4', up(), runner, locks);
			expect(end.steps).toEqual(['lock', 'server', 'template', 'dataset', 'store']);
			expect(end.error).toBeInstanceOf(ResumeError);
			expect(String(end.error)).toMatch(/generator\.root/);
			expect(start).not.toHaveBeenCalled();
			expect(locks.held.size).toBe(0);
		} finally {
			mock.modelFields = { gen: { root: '/models/a', owned_by: 'vllm' } };
		}
	});

	it('a run deleted meanwhile is refused at the lock step', async () => {
		const end = await resume('order-none', up(), fakeRunner().runner, fakeLocks());
		expect(end.steps).toEqual(['lock']);
		expect(end.error).toBeInstanceOf(ResumeError);
		expect(String(end.error)).toMatch(/No run "order-none"/);
	});

	it('a resumed run holds its lock from the lock step until it stops', async () => {
		await storedRun('order-5');
		const locks = fakeLocks();
		const { runner, start, end } = fakeRunner();
		const done = await resume('order-5', up(), runner, locks);
		expect(done.error).toBeUndefined();
		expect(done.steps).toEqual(['lock', 'server', 'template', 'dataset', 'store']);
		expect(start).toHaveBeenCalledTimes(1);
		expect(locks.held.has(lockName('order-5'))).toBe(true);
		expect(storedLaunch('order-5')).toEqual({ engine: 'server', base_url: mock.url });
		// A second tab's Resume meanwhile is refused at its lock step.
		const second = await resume('order-5', up(), fakeRunner().runner, locks);
		expect(second.error).toBeInstanceOf(RunElsewhereError);
		end();
		await vi.waitFor(() => expect(locks.held.has(lockName('order-5'))).toBe(false));
	});
});
