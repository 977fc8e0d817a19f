/**
 * Resuming a stored run in the browser: the start's steps (probe/start.ts) in their one order,
 * with the stored run's own ports, so a resume refuses things in the order a new start and the
 * CLI's `run` do:
 *
 *   lock      this tab runs no other run, the run is here, and no other tab holds it (its lock is
 *             taken and kept until the run stops)
 *   server    the server answers and serves the run's models (an engine elsewhere only)
 *   template  the template stored with the run
 *   dataset   the items stored with the run, in the order it drew them
 *   store     the models as the engine tells them, checked against the stored identity
 */
import { AppError } from '../errors/appError.ts';
import { providerOf } from '../engines/registry.ts';
import { describeVanished } from '../probe/identity.ts';
import { prepareConfig, type PreparedRun } from '../probe/prepare.ts';
import { driveStart, type StartPorts } from '../probe/start.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { ProbeConfig, RunManifest } from '../probe/types.ts';
import type { RunController } from '../state/runner.svelte.ts';
import { RunActiveError } from '../state/runner.svelte.ts';
import {
	configFromManifest,
	loadRunInputs,
	saveLaunch,
	type RunInputs
} from '../setup/runInputs.ts';
import {
	checkServed,
	launchOf,
	modelsOf,
	startPrepared,
	storage,
	type EngineChoice
} from './launch.ts';
import { takeRunLock, type HeldRunLock, type LocksLike } from './runLocks.ts';
import type { ServerCheckDeps } from './serverCheck.ts';
import type { AppServices } from './services.ts';

export class ResumeError extends AppError {
	constructor(message: string) {
		super(message, { code: 'resume' });
		this.name = 'ResumeError';
	}
}

/** What a resume's steps get: its template and its items as the run drew them (its config). */
export type ResumePorts = StartPorts<void, ChatTemplate, ProbeConfig, PreparedRun>;

export interface ResumeOptions {
	/** Stops the server check. */
	signal?: AbortSignal;
	/** The server check's opaque probe (tests inject one); defaults to the browser's fetch. */
	answersOpaque?: ServerCheckDeps['answersOpaque'];
	/** This browser's Web Locks (tests pass their own); none in Node. */
	locks?: LocksLike;
	/** Set by a test: the start's ports, given the resume's own (to log or fail one). */
	startPorts?: (ports: ResumePorts) => ResumePorts;
}

/**
 * Resume a stored run with exactly its config (the pipeline skips every stored key), through the
 * start's steps. Resolves once the run has started.
 * @throws RunActiveError; ResumeError when the run or its stored inputs are missing, or it was
 *   made with another setup; RunElsewhereError when another tab is running it; the server
 *   check's failure.
 */
export async function resumeRun(
	services: AppServices,
	runner: RunController,
	runId: string,
	choice: EngineChoice,
	options: ResumeOptions = {}
): Promise<void> {
	const held: { lock?: HeldRunLock } = {};
	const ports = resumeStartPorts(services, runner, runId, choice, held, options);
	try {
		const started = await driveStart(options.startPorts?.(ports) ?? ports, () => {});
		await startPrepared(services, runner, started.stored, started.template, choice, {
			held: held.lock
		});
	} catch (err) {
		held.lock?.release();
		throw err;
	}
	saveLaunch(storage(), runId, launchOf(choice));
}

/**
 * The resume's side of the start. The lock step reads the stored manifest (every later step asks
 * it: the models to check, the items' order, the identity), and `held` gets the run's lock, for
 * the caller to hand to the run or let go.
 */
export function resumeStartPorts(
	services: AppServices,
	runner: RunController,
	runId: string,
	choice: EngineChoice,
	held: { lock?: HeldRunLock },
	options: Pick<ResumeOptions, 'signal' | 'answersOpaque' | 'locks'> = {}
): ResumePorts {
	let manifest: RunManifest | undefined;
	const stored = (): RunManifest => {
		if (!manifest) throw new ResumeError(`No run "${runId}" in this browser.`);
		return manifest;
	};
	let inputs: Promise<RunInputs | undefined> | undefined;
	/** The row stored with the run (its items and template), read once for both steps. */
	const storedInputs = async (): Promise<RunInputs> => {
		inputs ??= loadRunInputs(services.runInputStore(), runId);
		const got = await inputs;
		if (!got) {
			throw new ResumeError(
				'This run was imported or made by the CLI: its items and template are not stored here, so it cannot be resumed in the browser.'
			);
		}
		return got;
	};
	return {
		lock: async () => {
			if (runner.active) throw new RunActiveError(runner.runId ?? '?');
			manifest = await services.runStore().getManifest(runId);
			stored();
			held.lock = await takeRunLock(runId, options.locks);
		},
		server: providerOf(choice.engine).onDevice
			? undefined
			: () => {
					const { config } = stored();
					return checkServed(services, choice.engine, choice, {
						generators: [config.generator.id],
						judge: config.judge_mode === 'rules' ? undefined : config.judge.id,
						signal: options.signal,
						answersOpaque: options.answersOpaque
					});
				},
		template: async () => (await storedInputs()).template,
		dataset: async () => configFromManifest(stored(), (await storedInputs()).items),
		store: async ({ template, data: config }) => {
			const run = stored();
			// Its items are stored with it and cannot change, so the dataset's hash is the one it was
			// made with (identity.ts: the rule, and why runs hashed the old way resume).
			const dataset = run.identity?.dataset_sha256;
			const prepared = await prepareConfig({
				config,
				template_sha256: template.sha256,
				dataset_sha256: typeof dataset === 'string' ? dataset : undefined,
				models: await modelsOf(services, config.generator.id, config.judge.id, choice),
				stored: run
			});
			refuseChanged(run, prepared);
			return prepared;
		}
	};
}

/**
 * The same rule as the CLI's, on the check prepare.ts made: other weights behind the same model
 * id, another runtime or judge prompt would mix records that mean different things into one run.
 * @throws ResumeError naming what changed, or the fingerprint the server no longer reports.
 */
function refuseChanged(manifest: RunManifest, prepared: PreparedRun): void {
	const check = prepared.resume;
	if (!check) return;
	if (check.conflict !== null) {
		throw new ResumeError(
			`This run was made with another setup: ${check.conflict}. Its records would mix with new ones that mean something else; start a new run from set-up instead.`
		);
	}
	// Refused, never resumed without it: the stored identity keeps every fingerprint (identity.ts).
	if (check.vanished.length > 0) {
		throw new ResumeError(
			`This run was made with ${describeVanished(manifest, check.vanished)}, which the server no longer reports, so it cannot be checked that the same weights answer; start a new run from set-up instead.`
		);
	}
}
