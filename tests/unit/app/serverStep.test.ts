/**
 * The start's server step, as each shell really takes it (not fake ports): the set-up view's Start
 * and the CLI's `run` against the same real servers on 127.0.0.1 stop at the server step with the
 * same typed error, an EngineError of the same code, for a port where nothing listens, a URL that
 * answers without a model list, and a generator or judge model the server does not list. So the
 * set-up view and the CLI classify the fault alike, and neither goes on to the template.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { errorLines } from '../../../src/cli/progress.ts';
import { runCommand } from '../../../src/cli/run.ts';
import type { CliStartPorts } from '../../../src/cli/startPorts.ts';
import { startFromSetup, type AppStartPorts } from '../../../src/lib/app/launch.ts';
import { createAppServices } from '../../../src/lib/app/services.ts';
import { describeError } from '../../../src/lib/errors/describe.ts';
import { APP_CHOICES, errorTextWithFix } from '../../../src/lib/setup/fixes.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import type { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';

/** Thrown by the template step: the server step passed, which no case here should. */
class PastTheServer extends Error {}

const pastTheServer = () => {
	throw new PastTheServer('the start went on past the server step');
};

/** Node has no CORS: any answer at all counts, as no-cors does in a browser. */
const nodeOpaque = (url: string) =>
	fetch(url).then(
		() => true,
		() => false
	);

/** What the app's Start threw, with the set-up view's own ports but the template. */
async function appStart(baseUrl: string, model: string, judge: string): Promise<unknown> {
	const settings = new EngineSettings(memoryStorage());
	settings.engine.current = 'server';
	settings.models.server.baseUrl.current = baseUrl;
	settings.models.server.modelId.current = model;
	settings.models.server.judgeModelId.current = judge;
	const runner = { active: false, runId: null } as unknown as RunController;
	try {
		await startFromSetup({
			services: createAppServices({}),
			runner,
			settings,
			setup: new SetupState(memoryStorage()),
			gpu: { canRunModels: false, shaderF16: false },
			step: () => {},
			signal: new AbortController().signal,
			answersOpaque: nodeOpaque,
			startPorts: <S>(ports: AppStartPorts<S>) => ({ ...ports, template: pastTheServer })
		});
	} catch (err) {
		return err;
	}
	throw new Error('the app started a run');
}

/** What the CLI's server step threw (run prints it and exits 1), with its printed lines. */
async function cliStart(baseUrl: string, model: string, judge: string) {
	const dir = mkdtempSync(join(tmpdir(), 'utp-server-step-'));
	const opts = parseRunArgs(
		['--base-url', baseUrl, '--model', model, '--judge-model', judge, '--dataset', 'demo'].concat([
			'--out',
			join(dir, 'run.jsonl')
		])
	);
	let stderr = '';
	let error: unknown;
	const code = await runCommand(opts, {
		stderr: { write: (s: string) => (stderr += s) },
		startPorts: (ports: CliStartPorts): CliStartPorts => {
			const server = ports.server;
			if (!server) throw new Error('the CLI has no server step');
			return {
				...ports,
				server: async () => {
					try {
						return await server();
					} catch (err) {
						error = err;
						throw err;
					}
				},
				template: pastTheServer
			};
		}
	});
	return { code, stderr, error };
}

async function closedPortUrl(): Promise<string> {
	const s = createServer();
	await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
	const { port } = s.address() as AddressInfo;
	await new Promise<void>((r) => s.close(() => r()));
	return `http://127.0.0.1:${port}/v1`;
}

describe('the server step stops both shells with the same typed error', () => {
	let mock: MockOpenAI;
	beforeAll(async () => {
		mock = await startMockOpenAI({ models: ['gen', 'judge'] });
	});
	afterAll(async () => mock.close());

	/** Both shells against one fault: the same class and code, each in its own words. */
	async function both(baseUrl: string, model: string, judge: string) {
		const app = await appStart(baseUrl, model, judge);
		const cli = await cliStart(baseUrl, model, judge);
		expect(app).toBeInstanceOf(EngineError);
		expect(cli.error).toBeInstanceOf(EngineError);
		// The code is what both shells classify by (the CLI's may be a subclass, HttpError).
		expect((app as EngineError).code).toBe((cli.error as EngineError).code);
		// The set-up view words it as any typed engine error: its message, no fix of a template or
		// a dataset's (setup/fixes.ts) beside it.
		expect(errorTextWithFix(app, APP_CHOICES)).toBe(describeError(app).message);
		expect(cli.code).toBe(1);
		expect(cli.stderr).toContain(errorLines(cli.error));
		return { app: app as EngineError, cli: cli.error as EngineError };
	}

	it('a port where nothing listens: network, said as nothing answering', async () => {
		const url = await closedPortUrl();
		const { app, cli } = await both(url, 'gen', 'judge');
		expect(app.code).toBe('network');
		expect(app.message).toContain(`Nothing answered at ${url}`);
		expect(cli.message).toContain('127.0.0.1');
	});

	it('a URL that answers without a model list (a wrong path): http', async () => {
		const url = `${mock.url}/wrong`;
		const { app } = await both(url, 'gen', 'judge');
		expect(app.code).toBe('http');
		expect(app.message).toContain('answered, but not with a model list');
	});

	it('a generator the server does not list: bad_model, naming what it serves', async () => {
		const url = `${mock.url}/v1`;
		const { app, cli } = await both(url, 'Qwen/Qwen3-4B', 'judge');
		expect(app.code).toBe('bad_model');
		expect(app.message).toContain("Model 'Qwen/Qwen3-4B' is not served here (served: gen, judge)");
		expect(cli.message).toBe(`Model 'Qwen/Qwen3-4B' is not served at ${url}. Served: gen, judge`);
	});

	it('a judge the server does not list: bad_model too', async () => {
		const url = `${mock.url}/v1`;
		const { app, cli } = await both(url, 'gen', 'gone');
		expect(app.code).toBe('bad_model');
		expect(app.message).toContain("Judge 'gone' is not served here");
		expect(cli.message).toContain("Model 'gone' is not served at");
	});
});
