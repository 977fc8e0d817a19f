/**
 * Sweeps in the browser: several generator models from one set-up, stored as one run each and run
 * one after another in this tab (setup/sweeps.ts keeps their order), one generator in memory at a
 * time; a reload of the tab driving one goes on with it.
 */
import { forgetLaunch } from '../setup/runInputs.ts';
import { judgeBetweenRuns } from '../setup/sweepPlan.ts';
import {
	clearDriving,
	isDriving,
	markDriving,
	saveSweep,
	sweepOfRun,
	type SweepRecord
} from '../setup/sweeps.ts';
import { providerOf } from '../engines/registry.ts';
import type { RunManifest } from '../probe/types.ts';
import type { RunController } from '../state/runner.svelte.ts';
import { RunActiveError } from '../state/runner.svelte.ts';
import { resumeRun } from './resume.ts';
import {
	createStored,
	startRuns,
	storage,
	type EngineChoice,
	type NewRun,
	type NewRunRequest
} from './launch.ts';
import { heldRuns, RunElsewhereError, type LocksLike } from './runLocks.ts';
import type { AppServices } from './services.ts';

/**
 * A sweep from set-up: one stored run per generator model, then run one after another in this
 * tab. Resolves once every run is stored and the first has started.
 * @returns the sweep, whose first run the caller shows.
 * @throws as startFromSetup, before anything is stored.
 */
export async function startSweepFromSetup(
	r: NewRunRequest,
	generators: readonly string[],
	on: SweepEvents
): Promise<SweepRecord> {
	return startRuns(r, generators, async ({ runs, skipped }) => {
		const ids = await storeSweepRuns(r.services, runs);
		const sweep = saveSweep(storage(), ids, skipped);
		void driveSweep(r.services, r.runner, sweep, runs[0].choice, on);
		return sweep;
	});
}

/**
 * Stores every run of a sweep, or none: a store that fails midway (storage full) removes the runs
 * it had stored, so no part of a sweep that never started is left in Runs.
 * @returns their ids in order.
 * @throws the store's error, once the stored runs are removed.
 */
export async function storeSweepRuns(
	services: AppServices,
	runs: readonly NewRun[]
): Promise<string[]> {
	const ids: string[] = [];
	try {
		for (const run of runs) ids.push((await createStored(services, run)).config.run_id);
	} catch (err) {
		for (const id of ids) {
			await services
				.runStore()
				.deleteRun(id)
				.catch(() => {});
			forgetLaunch(storage(), id);
		}
		throw err;
	}
	return ids;
}

export interface SweepEvents {
	/** A run of the sweep starts (or resumes): the view follows it. */
	onRun(runId: string): void;
	/** Every run was tried: the study is ready (`failed`: runs an error stopped, to resume later). */
	onDone(sweep: SweepRecord, failed: string[]): void;
	/** A run could not start (another tab holds it, its server is gone): it waits for Resume. */
	onError?(err: unknown): void;
}

/**
 * Sweeps this page load has driven: their mark is this page's own, not one a reload left (the
 * run view of the sweep's next run opens while the sweep drives it).
 */
const drivenHere = new Set<string>();

/** continueSweep in the background, its end reported through `on`. */
export async function driveSweep(
	services: AppServices,
	runner: RunController,
	sweep: SweepRecord,
	choice: EngineChoice,
	on: SweepEvents
): Promise<void> {
	// Marked while it drives: a reload of this tab ends this call without a word, so the mark
	// stays and the reloaded tab goes on (sweepToContinue). Any other end clears it.
	markDriving(session(), sweep.id);
	drivenHere.add(sweep.id);
	try {
		const end = await continueSweep(services, runner, sweep, choice, on.onRun);
		clearDriving(session(), sweep.id);
		if (!('stopped' in end)) on.onDone(sweep, end.failed);
	} catch (err) {
		clearDriving(session(), sweep.id);
		on.onError?.(err);
	}
}

/**
 * The sweep to go on with by itself when this run's view opens: this tab was driving it when it
 * was reloaded (a mark only this tab's sessionStorage holds), and no other tab runs the run now.
 * Another tab, a fresh visit, or a sweep that was paused, failed or finished waits for Resume.
 */
export async function sweepToContinue(
	runId: string,
	locks?: LocksLike
): Promise<SweepRecord | undefined> {
	const sweep = storedSweep(runId);
	if (!sweep || drivenHere.has(sweep.id) || !isDriving(session(), sweep.id)) return undefined;
	if ((await heldRuns(locks)).includes(runId)) return undefined;
	return sweep;
}

/** The sweep a stored run belongs to, if it was started as one. */
export function storedSweep(runId: string): SweepRecord | undefined {
	return sweepOfRun(storage(), runId);
}

/**
 * Runs the sweep's runs that are not done, in order, each resumed as Resume would (its stored
 * work kept), one at a time so one generator is in memory at a time. A run an error stops (a
 * model that cannot download, a server gone) is reported and the next one runs, as the CLI's
 * sweep goes on; a run the user pauses or cancels, or another tab holds, stops the sweep there.
 * The same call later continues from where it stopped.
 * @returns the runs an error stopped once every run was tried; else the run it stopped at.
 */
export async function continueSweep(
	services: AppServices,
	runner: RunController,
	sweep: SweepRecord,
	choice: EngineChoice,
	onRun: (runId: string) => void = () => {}
): Promise<{ failed: string[] } | { stopped: string }> {
	const failed: string[] = [];
	let previous: RunManifest | undefined;
	for (const runId of sweep.run_ids) {
		const manifest = await services.runStore().getManifest(runId);
		if (manifest?.status === 'done') continue;
		if (previous && manifest) await betweenRuns(services, choice, previous, manifest);
		onRun(runId);
		try {
			await resumeRun(services, runner, runId, choice);
		} catch (err) {
			if (err instanceof RunActiveError || err instanceof RunElsewhereError) throw err;
			failed.push(runId);
			continue;
		}
		await runner.finished;
		if (runner.phase !== 'done') {
			if (!runner.fatal) return { stopped: runId };
			failed.push(runId);
		}
		previous = manifest;
	}
	return { failed };
}

/**
 * Between two runs on this device: the generator is let go before the next one loads. The judge
 * stays when it fits beside both (the next run's load swaps only the generator; judgeBetweenRuns);
 * otherwise everything is let go, and the next run loads what it needs.
 */
async function betweenRuns(
	services: AppServices,
	choice: EngineChoice,
	done: RunManifest,
	next: RunManifest
): Promise<void> {
	const provider = providerOf(choice.engine);
	const device = provider.device?.(services);
	if (!device) return;
	const judge = next.config.judge_mode === 'rules' ? null : next.config.judge.id;
	// The engine's own memory rule, as the run applies it (web-llm's budget, one wasm model).
	const { can_co_load } = device.engine.capabilities();
	const generators = [done.config.generator.id, next.config.generator.id];
	// An engine that cannot let go (its worker died) is made anew by the next run's start.
	if (judgeBetweenRuns(generators, judge, can_co_load) !== 'kept')
		await device.unload().catch(() => {});
}

/** This tab's own storage, which a reload keeps and another tab never sees. */
function session(): Storage | undefined {
	try {
		return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
	} catch {
		return undefined;
	}
}
