/**
 * A new run that made nothing is removed when its start fails (launch.ts discardEmptyRun): Runs
 * lists no empty paused run, and nothing of it is left in IndexedDB or localStorage. A run that
 * holds work is kept for resume.
 */
import { describe, expect, it } from 'vitest';
import { createAndStart, discardEmptyRun, storedLaunch } from '../../../src/lib/app/launch.ts';
import { storeSweepRuns } from '../../../src/lib/app/sweepLaunch.ts';
import { loadRunInputs } from '../../../src/lib/setup/runInputs.ts';
import type { RunController, RunStart } from '../../../src/lib/state/runner.svelte.ts';
import { appAgainstMock } from '../../helpers/appAgainstMock.ts';
import { makeAnswer, runValues } from '../../helpers/factories.ts';
import { hashedFixtureTemplate } from '../../helpers/fixtures.ts';

describe('a failed start leaves no run', () => {
	const app = appAgainstMock();
	const { services, template } = app;
	async function stored(run_id: string) {
		const starts: RunStart[] = [];
		const runner = {
			active: false,
			runId: null,
			start: async (r: RunStart) => void starts.push(r)
		} as unknown as RunController;
		const { config } = await createAndStart(services, runner, {
			values: runValues({ run_id, generator: { id: 'gen' }, judge: { id: 'gen' } }),
			template: template(),
			choice: { engine: 'server', base_url: app.mock().url }
		});
		return { config, start: starts[0] };
	}

	it('hands the runner a discard that removes the run, its inputs and its launch', async () => {
		const { start } = await stored('empty-1');
		expect(await services.runStore().getManifest('empty-1')).toBeDefined();
		expect(storedLaunch('empty-1')).toBeDefined();
		expect(await start.discardIfEmpty?.()).toBe(true);
		expect(await services.runStore().getManifest('empty-1')).toBeUndefined();
		expect(await loadRunInputs(services.runInputStore(), 'empty-1')).toBeUndefined();
		expect(storedLaunch('empty-1')).toBeUndefined();
	});

	it('keeps a run that stored an answer: resume continues it', async () => {
		const { config } = await stored('worked-1');
		const item = config.items[0];
		await services.runStore().putAnswer(makeAnswer({ run_id: 'worked-1', item_id: item.id }));
		expect(await discardEmptyRun(services, 'worked-1', config.items)).toBe(false);
		expect(await services.runStore().getManifest('worked-1')).toBeDefined();
	});
});

describe('a sweep that cannot be stored whole', () => {
	const app = appAgainstMock(['a', 'b', 'c']);

	it('removes the runs it had stored when storage fills up midway', async () => {
		const { services } = app;
		const real = services.runInputStore();
		let puts = 0;
		const full = new Proxy(real, {
			get(target, key, receiver) {
				const value = Reflect.get(target, key, receiver) as unknown;
				if (typeof value !== 'function') return value;
				return (...args: unknown[]) => {
					if (key === 'createRun' && ++puts === 3)
						throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
					return (value as (...a: unknown[]) => unknown).apply(target, args);
				};
			}
		});
		const withFull = { ...services, runInputStore: () => full };
		const template = hashedFixtureTemplate();
		const runs = ['a', 'b', 'c'].map((m) => ({
			values: runValues({ run_id: `full-${m}`, generator: { id: m }, judge: { id: m } }),
			template,
			choice: { engine: 'server' as const, base_url: app.mock().url }
		}));
		await expect(storeSweepRuns(withFull, runs)).rejects.toThrow(/quota/);
		for (const m of ['a', 'b', 'c']) {
			expect(await services.runStore().getManifest(`full-${m}`)).toBeUndefined();
			expect(storedLaunch(`full-${m}`)).toBeUndefined();
		}
	});
});
