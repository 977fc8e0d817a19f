import { describe, expect, it } from 'vitest';
import { DexieDatasetCache, DexieTemplateCache } from '../../../src/lib/db/caches.ts';
import { DexieRunInputs } from '../../../src/lib/db/runInputs.ts';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import type { ProbeDB } from '../../../src/lib/db/schema.ts';
import {
	configFromManifest,
	createRun,
	initialManifest,
	loadRunInputs,
	readLaunch,
	RunInputsError,
	saveLaunch
} from '../../../src/lib/setup/runInputs.ts';
import { probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';
import { testDB } from '../db/helpers.ts';

const inputsOf = (db: ProbeDB) => new DexieRunInputs(db, new DexieRunStore(db));

describe('run inputs', () => {
	it('stores a new run whole, and a reloaded page rebuilds the exact config and template', async () => {
		const { db, reopen } = testDB('inputs-1');
		const config = probeConfig({ run_id: 'r1' });
		const template = { ...fixtureTemplate(), sha256: 'abc' };
		const manifest = await initialManifest(config, {
			engine: 'openai',
			template,
			appVersion: 'web-test',
			now: () => new Date(0)
		});
		expect(manifest.status).toBe('paused');
		expect(manifest.config.item_ids).toEqual(config.items.map((i) => i.id));
		expect(manifest.template_sha256).toBe('abc');
		expect(JSON.stringify(manifest)).not.toContain('"items"');
		await createRun(inputsOf(db), manifest, { items: config.items, template });

		const again = reopen();
		const stored = await new DexieRunStore(again).getManifest('r1');
		const inputs = await loadRunInputs(inputsOf(again), 'r1');
		expect(stored && inputs).toBeTruthy();
		if (!stored || !inputs) return;
		expect(configFromManifest(stored, inputs.items)).toEqual(config);
		expect(inputs.template.source).toBe(template.source);
		expect(inputs.template.eos_token).toBe(template.eos_token);

		// Clearing the dataset and template caches leaves a stored run's inputs alone.
		await new DexieDatasetCache(again).clear();
		await new DexieTemplateCache(again).clear();
		expect((await loadRunInputs(inputsOf(again), 'r1'))?.items).toEqual(config.items);

		// Deleting the run deletes them with it.
		await new DexieRunStore(again).deleteRun('r1');
		expect(await loadRunInputs(inputsOf(again), 'r1')).toBeUndefined();
	});

	it('writes nothing when the manifest cannot be stored', async () => {
		const { db } = testDB('inputs-fail');
		const config = probeConfig({ run_id: 'r4' });
		const manifest = await initialManifest(config, {
			engine: 'openai',
			template: fixtureTemplate(),
			appVersion: 't'
		});
		const runs = new DexieRunStore(db);
		runs.putManifest = async () => {
			throw new Error('disk full');
		};
		await expect(
			createRun(new DexieRunInputs(db, runs), manifest, {
				items: config.items,
				template: fixtureTemplate()
			})
		).rejects.toThrow('disk full');
		expect(await db.runInputs.count()).toBe(0);
	});

	it('refuses to rebuild a config whose items do not cover the manifest', async () => {
		const config = probeConfig({ run_id: 'r2' });
		const manifest = await initialManifest(config, {
			engine: 'webllm',
			template: fixtureTemplate(),
			appVersion: 't'
		});
		expect(() => configFromManifest(manifest, config.items.slice(1))).toThrow(RunInputsError);
	});

	it('keeps items in the manifest order whatever order they were stored in', async () => {
		const config = probeConfig({ run_id: 'r3' });
		const manifest = await initialManifest(config, {
			engine: 'webllm',
			template: fixtureTemplate(),
			appVersion: 't'
		});
		const rebuilt = configFromManifest(manifest, [...config.items].reverse());
		expect(rebuilt.items.map((i) => i.id)).toEqual(config.items.map((i) => i.id));
	});

	it('remembers the engine and server of a run, never a key, and ignores junk', () => {
		const memory = memoryStorage();
		const storage = memory as unknown as Storage;
		saveLaunch(storage, 'r', { engine: 'server', base_url: 'http://127.0.0.1:8000/v1' });
		expect(readLaunch(storage, 'r')).toEqual({
			engine: 'server',
			base_url: 'http://127.0.0.1:8000/v1'
		});
		// A CPU-engine run resumes on the CPU engine.
		saveLaunch(storage, 'cpu', { engine: 'cpu' });
		expect(readLaunch(storage, 'cpu')).toEqual({ engine: 'cpu', base_url: undefined });
		// Launches saved before the webgpu/cpu/server names hold the runtime's name.
		memory.data.set('utp:run-launch:old', '{"engine":"openai","base_url":"http://h/v1"}');
		expect(readLaunch(storage, 'old')).toEqual({ engine: 'server', base_url: 'http://h/v1' });
		memory.data.set('utp:run-launch:old-cpu', '{"engine":"wllama"}');
		expect(readLaunch(storage, 'old-cpu')?.engine).toBe('cpu');
		memory.data.set('utp:run-launch:old-gpu', '{"engine":"webllm"}');
		expect(readLaunch(storage, 'old-gpu')?.engine).toBe('webgpu');
		memory.data.set('utp:run-launch:bad', '{"engine":"other"}');
		expect(readLaunch(storage, 'bad')).toBeUndefined();
		expect(readLaunch(undefined, 'r')).toBeUndefined();
	});
});
