/**
 * The browser applies the CLI's resume rule: a run stores what its records mean (config, template,
 * dataset, judge prompt, and the models as far as the engine can tell), and Resume refuses when the
 * server now serves other weights under the same model id.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAndStart } from '../../../src/lib/app/launch.ts';
import { ResumeError, resumeRun } from '../../../src/lib/app/resume.ts';
import { datasetSha256, identityHash } from '../../../src/lib/probe/identity.ts';
import { createAppServices } from '../../../src/lib/app/services.ts';
import type { RunController, RunSetup } from '../../../src/lib/state/runner.svelte.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { runValues } from '../../helpers/factories.ts';
import { hashedFixtureTemplate } from '../../helpers/fixtures.ts';

interface StartArgs {
	prepare: () => Promise<RunSetup>;
}

function fakeRunner() {
	const start = vi.fn(async (_args: StartArgs) => {});
	return { runner: { active: false, runId: null, start } as unknown as RunController, start };
}

describe('browser resume and the run identity', () => {
	let mock: MockOpenAI;
	beforeAll(async () => {
		mock = await startMockOpenAI({ models: ['gen'] });
		mock.modelFields = { gen: { root: '/models/a', owned_by: 'vllm' } };
	});
	afterAll(async () => mock.close());

	/** The template as the app holds it: hashed, as decoding it back on resume hashes it again. */
	const template = hashedFixtureTemplate;
	// One tab's services over fake-indexeddb: the run is stored and resumed in the same browser.
	const services = createAppServices();
	const choice = () => ({ engine: 'server' as const, base_url: mock.url });
	const values = (run_id: string) =>
		runValues({ run_id, generator: { id: 'gen' }, judge: { id: 'gen' }, judge_mode: 'llm' });

	it("stores the identity with the server's fingerprint, and resumes while it holds", async () => {
		const { runner, start } = fakeRunner();
		await createAndStart(services, runner, {
			values: values('id-1'),
			template: template(),
			choice: choice()
		});
		const manifest = await services.runStore().getManifest('id-1');
		expect(manifest?.identity?.['generator.root']).toBe('/models/a');
		expect(manifest?.identity?.template_sha256).toBe(template().sha256);
		expect(manifest?.config_hash).toMatch(/^[0-9a-f]{64}$/);
		// The pipeline keeps writing it: the run's own setup carries it.
		const setup = await start.mock.calls[0][0].prepare();
		expect(setup.manifestExtras?.identity).toEqual(manifest?.identity);

		const again = fakeRunner();
		await resumeRun(services, again.runner, 'id-1', choice());
		expect(again.start).toHaveBeenCalledTimes(1);
	});

	it('refuses to resume when other weights are served under the same id', async () => {
		const { runner } = fakeRunner();
		await createAndStart(services, runner, {
			values: values('id-2'),
			template: template(),
			choice: choice()
		});
		mock.modelFields = { gen: { root: '/models/b', owned_by: 'vllm' } };
		const again = fakeRunner();
		const attempt = resumeRun(services, again.runner, 'id-2', choice());
		await expect(attempt).rejects.toBeInstanceOf(ResumeError);
		await expect(attempt).rejects.toThrow(/generator\.root \("\/models\/a" → "\/models\/b"\)/);
		expect(again.start).not.toHaveBeenCalled();
	});

	it('resumes a run stored under the old rule, which hashed only the drawn items', async () => {
		const { runner } = fakeRunner();
		const v = values('id-3');
		const { config } = await createAndStart(services, runner, {
			values: { ...v, limit: 3 },
			template: template(),
			choice: choice()
		});
		const store = services.runStore();
		const manifest = await store.getManifest('id-3');
		if (!manifest?.identity) throw new Error('no identity stored');
		const drawn = await datasetSha256(config.items);
		expect(manifest.identity.dataset_sha256).toBe(await datasetSha256(v.items));
		expect(drawn).not.toBe(manifest.identity.dataset_sha256);
		// As the browser stored it before: the hash of the three drawn items only.
		const identity = { ...manifest.identity, dataset_sha256: drawn };
		await store.putManifest({ ...manifest, identity, config_hash: await identityHash(identity) });
		const again = fakeRunner();
		await resumeRun(services, again.runner, 'id-3', choice());
		expect(again.start).toHaveBeenCalledTimes(1);
		const setup = await again.start.mock.calls[0][0].prepare();
		expect(setup.manifestExtras?.identity).toEqual(identity);
	});
});
