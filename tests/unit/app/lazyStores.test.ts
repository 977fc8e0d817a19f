/**
 * The services hand out their stores before the database exists: holding one opens nothing, the
 * first call opens the database once for every store, and a failed open is tried again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../src/lib/app/services.ts';
import { deferred } from '../../../src/lib/app/deferred.ts';
import { RunNotFoundError } from '../../../src/lib/db/errors.ts';
import type { ProbeDB } from '../../../src/lib/db/schema.ts';
import type { RunStore } from '../../../src/lib/probe/store.ts';
import { makeManifest } from '../../helpers/factories.ts';
import { testDB } from '../db/helpers.ts';

let opened: ProbeDB[] = [];
afterEach(() => {
	opened.forEach((db) => db.close());
	opened = [];
});

/** Services over a private database, counting how often it is opened. */
function countingServices(failFirst = 0, painted?: () => Promise<void>) {
	const t = testDB(`lazy-stores-${Math.random()}`);
	opened.push(t.db);
	const calls = { open: 0 };
	const services = createAppServices({
		openDb: async () => {
			calls.open++;
			if (calls.open <= failFirst)
				throw new TypeError('Failed to fetch dynamically imported module');
			return t.db;
		},
		painted
	});
	return { services, calls, t };
}

describe('the app services stores', () => {
	it('open no database while a view only holds them', async () => {
		const { services, calls } = countingServices();
		services.runStore();
		services.runInputStore();
		services.benchmarkStore();
		services.annotationBackend();
		services.templateCache();
		services.datasetCache();
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(calls.open).toBe(0);
	});

	it('open the database once, on the first call, and share it between stores', async () => {
		const { services, calls, t } = countingServices();
		const manifest = makeManifest({ run_id: 'r1' });
		await Promise.all([
			services.runStore().putManifest(manifest),
			services.benchmarkStore().latest(5)
		]);
		expect(calls.open).toBe(1);
		expect((await services.runStore().getManifest('r1'))?.run_id).toBe('r1');
		expect(await services.db()).toBe(t.db);
		expect(await t.reopen().runs.get('r1')).toMatchObject({ run_id: 'r1' });
		expect(calls.open).toBe(1);
	});

	it('wait for the page to paint before opening, so a view that reads one as it mounts paints first', async () => {
		let paint = () => {};
		const frame = new Promise<void>((resolve) => (paint = resolve));
		const { services, calls } = countingServices(0, () => frame);
		const listed = services.runStore().listRuns();
		await new Promise((resolve) => setTimeout(resolve, 10));
		expect(calls.open).toBe(0);
		paint();
		expect(await listed).toEqual([]);
		expect(calls.open).toBe(1);
	});

	it("reject with the store's own errors, as the store itself does", async () => {
		const { services } = countingServices();
		await expect(services.annotationBackend().load('missing')).rejects.toBeInstanceOf(
			RunNotFoundError
		);
	});

	it('try a failed open again on the next call (a chunk that did not load offline)', async () => {
		const { services, calls } = countingServices(1);
		await expect(services.runStore().listRuns()).rejects.toThrow(/dynamically imported/);
		expect(await services.runStore().listRuns()).toEqual([]);
		expect(calls.open).toBe(2);
	});
});

describe('deferred', () => {
	it('loads nothing until a method is called, then calls the real one', async () => {
		let loads = 0;
		const store = deferred(
			async () => {
				loads++;
				return { get: async (k: string) => k.toUpperCase() };
			},
			{ get: true }
		);
		expect(Object.keys(store)).toEqual(['get']);
		expect(loads).toBe(0);
		expect(await store.get('a')).toBe('A');
		expect(loads).toBe(1);
	});

	it('the run store stand-in has no getResumeRecords, as DexieRunStore has none', async () => {
		// The pipeline resumes through getResumeRecords when a store has it (the CLI's files).
		const { services } = countingServices();
		const store: RunStore = services.runStore();
		expect(store.getResumeRecords).toBeUndefined();
		const manifest = makeManifest({ run_id: 'r2' });
		await store.putManifest(manifest);
		expect(await (store.getResumeRecords?.('r2') ?? store.getRecords('r2'))).toEqual([]);
	});
});
