/**
 * One start use case: the CLI's `run`, the set-up view's Start and the run view's Resume take
 * the start's steps (probe/start.ts) in the same order against the same fake ports, and a failing
 * step stops each at that step with the same error: the server unreachable, the template missing,
 * the dataset unreadable, the store locked. (The CLI resumes by the same command, its store step
 * checking --out's run; resumeOrder.test.ts runs the app's resume on its real ports.)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { RunLockedError } from '../../../src/cli/lock.ts';
import { runCommand } from '../../../src/cli/run.ts';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { startFromSetup } from '../../../src/lib/app/launch.ts';
import { resumeRun } from '../../../src/lib/app/resume.ts';
import type { AppServices } from '../../../src/lib/app/services.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { START_STEPS, type StartPorts, type StartStep } from '../../../src/lib/probe/start.ts';
import { TemplateError } from '../../../src/lib/probe/templateError.ts';
import type { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

/** Where each step fails as users meet it. */
const FAULTS: Record<Exclude<StartStep, 'lock'> | 'lock', () => Error> = {
	lock: () =>
		new RunLockedError('runs/a.jsonl', 'runs/a.jsonl.lock', {
			pid: 4242,
			host: 'here',
			since: '2026-01-01T00:00:00Z'
		}),
	server: () =>
		new EngineError('network', 'Could not reach http://127.0.0.1:9/v1 (connection refused).'),
	template: () => new TemplateError('No chat template found for acme/none.', { missing: true }),
	dataset: () => new DatasetError('gsm8k.jsonl line 3 is not JSON', {}),
	store: () =>
		new RunLockedError('runs/a.jsonl', 'runs/a.jsonl.lock', {
			pid: 4343,
			host: 'here',
			since: '2026-01-01T00:00:00Z'
		})
};

/** The end of the steps in this test: the store refuses, so neither shell goes on to run. */
class StopHere extends Error {}

/** Fake ports that log their calls; `fail` throws at its step, else the store stops the start. */
function fakePorts(fail?: { step: StartStep; error: Error }) {
	const calls: StartStep[] = [];
	const port = (step: StartStep) => async () => {
		calls.push(step);
		if (fail?.step === step) throw fail.error;
		if (step === 'store') throw new StopHere('stored');
		return undefined;
	};
	const ports = Object.fromEntries(START_STEPS.map((s) => [s, port(s)])) as unknown as StartPorts<
		unknown,
		unknown,
		unknown,
		unknown
	>;
	return { ports, calls };
}

/** The CLI's `run` on these ports; what it threw, or its exit code and stderr. */
async function cliStart(ports: StartPorts<unknown, unknown, unknown, unknown>) {
	const dir = mkdtempSync(join(tmpdir(), 'utp-start-'));
	const opts = parseRunArgs([
		'--base-url',
		'http://127.0.0.1:9/v1',
		'--model',
		'gen',
		'--judge-model',
		'judge',
		'--dataset',
		'gsm8k',
		'--out',
		join(dir, 'a.jsonl')
	]);
	let stderr = '';
	try {
		const code = await runCommand(opts, {
			stderr: { write: (s: string) => (stderr += s) },
			startPorts: () => ports as never
		});
		return { code, stderr };
	} catch (error) {
		return { error, stderr };
	}
}

/** The set-up view's Start on these ports (a server engine, so it has a server step). */
async function appStart(ports: StartPorts<unknown, unknown, unknown, unknown>) {
	const settings = new EngineSettings(memoryStorage());
	settings.engine.current = 'server';
	const step = vi.fn();
	const runner = { active: false, runId: null, start: vi.fn() } as unknown as RunController;
	try {
		await startFromSetup({
			services: {} as AppServices,
			runner,
			settings,
			setup: new SetupState(memoryStorage()),
			gpu: { canRunModels: false, shaderF16: false },
			step,
			signal: new AbortController().signal,
			startPorts: () => ports as never
		});
		return { steps: step.mock.calls.map(([s]) => s) };
	} catch (error) {
		return { error, steps: step.mock.calls.map(([s]) => s) };
	}
}

/** The run view's Resume on these ports (a run on a server, so it has a server step). */
async function appResume(ports: StartPorts<unknown, unknown, unknown, unknown>) {
	const start = vi.fn();
	const runner = { active: false, runId: null, start } as unknown as RunController;
	try {
		await resumeRun(
			{} as AppServices,
			runner,
			'run-1',
			{ engine: 'server', base_url: 'http://127.0.0.1:9/v1' },
			{ startPorts: () => ports as never }
		);
		return { started: start.mock.calls.length };
	} catch (error) {
		return { error, started: start.mock.calls.length };
	}
}

describe('the CLI and the app start a run by the same steps', () => {
	it('take the steps in the same order', async () => {
		const cli = fakePorts();
		const app = fakePorts();
		const cliEnd = await cliStart(cli.ports);
		const appEnd = await appStart(app.ports);
		expect(cli.calls).toEqual([...START_STEPS]);
		expect(app.calls).toEqual(cli.calls);
		expect(cliEnd.error).toBeInstanceOf(StopHere);
		expect(appEnd.error).toBeInstanceOf(StopHere);
		// The set-up view shows every step but the lock, which is taken at once.
		expect(appEnd.steps).toEqual(['server', 'template', 'dataset', 'storing']);
	});

	it('a resume takes them in the same order', async () => {
		const cli = fakePorts();
		const resume = fakePorts();
		await cliStart(cli.ports);
		const end = await appResume(resume.ports);
		expect(resume.calls).toEqual(cli.calls);
		expect(end.error).toBeInstanceOf(StopHere);
		expect(end.started).toBe(0);
	});

	for (const step of START_STEPS) {
		it(`stop both at a failing ${step} step with its typed error, taking no later step`, async () => {
			const error = FAULTS[step]();
			const cli = fakePorts({ step, error });
			const app = fakePorts({ step, error });
			const cliEnd = await cliStart(cli.ports);
			const appEnd = await appStart(app.ports);
			const upTo = START_STEPS.slice(0, START_STEPS.indexOf(step) + 1);
			expect(cli.calls).toEqual(upTo);
			expect(app.calls).toEqual(upTo);
			expect(appEnd.error).toBe(error);
			const resume = fakePorts({ step, error });
			const resumeEnd = await appResume(resume.ports);
			expect(resume.calls).toEqual(upTo);
			expect(resumeEnd).toEqual({ error, started: 0 });
			if (step === 'server') {
				// The CLI says a server that does not answer as it says a failed run: exit 1.
				expect(cliEnd).toMatchObject({ code: 1 });
				expect(cliEnd.stderr).toContain(error.message);
			} else {
				expect(cliEnd.error).toBe(error);
			}
		});
	}
});
