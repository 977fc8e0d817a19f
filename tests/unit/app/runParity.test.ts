/**
 * One config means the same run in both shells: the same plain values, given to the browser's
 * Start (set-up form → createAndStart) and to the CLI's `run`, store the same config, identity,
 * config hash and judge prompt hash, against the same server.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliRunValues } from '../../../src/cli/startPorts.ts';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { readManifest, sidecarPaths } from '../../../src/cli/jsonlStore.ts';
import { createAndStart } from '../../../src/lib/app/launch.ts';
import { createAppServices } from '../../../src/lib/app/services.ts';
import { parseUserDataset } from '../../../src/lib/datasets/importFile.ts';
import { prepareRun } from '../../../src/lib/probe/prepare.ts';
import { thinkingDefault } from '../../../src/lib/probe/template.ts';
import { templateFromFile } from '../../../src/lib/probe/templateSource.ts';
import { DEFAULT_FORM, formRunValues } from '../../../src/lib/setup/runForm.ts';
import { version } from '../../../package.json';
import type { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { QWEN, runMain, startCli, type Cli } from '../cli/harness.ts';

/** The set-up form that says what the CLI flags below say. */
const FORM = {
	...DEFAULT_FORM,
	n: 2,
	seed: 7,
	temperatures: '0, 1',
	perturbations: ['none' as const, 'truncate' as const],
	judge_mode: 'llm' as const
};
const FLAGS = ['--limit', '2', '--seed', '7', '--run-id', 'same-run'];

describe('the browser and the CLI prepare the same run from the same values', () => {
	let cli: Cli;
	beforeAll(async () => {
		cli = await startCli(6);
		// vLLM tells its context window in /v1/models: both shells size the answer limit from it.
		cli.server.modelFields = { gen: { root: '/models/gen', max_model_len: 4096 } };
	});
	afterAll(() => cli.close());

	const template = () => templateFromFile(readFileSync(QWEN, 'utf8'), { eos_token: '<|im_end|>' });
	const items = () => parseUserDataset(readFileSync(cli.dataset, 'utf8'), cli.dataset);

	it('stores identical config, identity and hashes through each shell', async () => {
		const out = join(cli.dir, 'parity.jsonl');
		const code = (await runMain(cli.args(out, FLAGS))).code;
		expect(code).toBe(0);
		const fromCli = readManifest(sidecarPaths(out).manifest);

		const services = createAppServices();
		const t = await template();
		const start = vi.fn(async () => {});
		const runner = { active: false, runId: null, start } as unknown as RunController;
		const server = await services.serverEngine(cli.server.url);
		await createAndStart(services, runner, {
			values: formRunValues(FORM, {
				run_id: 'same-run',
				dataset: cli.dataset,
				items: await items(),
				generator: { id: 'gen', template_repo: t.repo },
				judge: { id: 'judge' },
				thinking_default: thinkingDefault(t),
				context_window: (await server.contextWindow('gen'))?.tokens
			}),
			template: t,
			choice: { engine: 'server', base_url: cli.server.url }
		});
		const fromApp = await services.runStore().getManifest('same-run');

		expect(fromApp?.config).toEqual(fromCli?.config);
		expect(fromApp?.config.answer_max_tokens).toBe(4096 - 256 - 512);
		expect(fromApp?.config.item_ids).toHaveLength(2);
		expect(fromApp?.identity).toEqual(fromCli?.identity);
		expect(fromApp?.identity?.['generator.root']).toBe('/models/gen');
		expect(fromApp?.config_hash).toBe(fromCli?.config_hash);
		expect(fromApp?.template_sha256).toBe(fromCli?.template_sha256);
		expect(fromApp?.judge_prompt_hash).toBe(fromCli?.judge_prompt_hash);
		// One version, from package.json; the prefix says which shell made the run.
		expect(fromApp?.app_version).toBe(`web-${version}`);
		expect(fromCli?.app_version).toBe(`cli-${version}`);
	});

	it('maps the form and the flags onto the same prepared run, item draw included', async () => {
		const t = await template();
		const all = await items();
		const models = { generator: { id: 'gen', root: '/m' }, judge: { id: 'judge' } };
		const app = await prepareRun(
			formRunValues(FORM, {
				run_id: 'r',
				dataset: 'd.jsonl',
				items: all,
				generator: { id: 'gen', template_repo: t.repo },
				judge: { id: 'judge' },
				thinking_default: thinkingDefault(t),
				template_sha256: t.sha256,
				context_window: 8192,
				models
			})
		);
		const opts = parseRunArgs([...cli.flags('o.jsonl', FLAGS), '--dataset', 'd.jsonl']);
		const fromCli = await prepareRun(
			cliRunValues(opts, { run_id: 'r', template: t, items: all, context_window: 8192, models })
		);
		expect(app).toEqual(fromCli);
		expect(app.needs).toEqual({ nlp: false, judge: true });
	});
});
