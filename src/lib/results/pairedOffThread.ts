/**
 * The paired effects computed off the tab. At 10,000 records the cluster bootstraps take ~75 ms of
 * main-thread CPU, a third of what opening the results view costs; in a worker the page paints
 * and scrolls while they run. A worker that cannot load (a blocked script, no Worker) leaves the
 * work to the page, one pair per task, as before; the numbers are the same either way
 * (pairedJob.ts carries perturbationDeltas, the one owner).
 */
import type { CountedRecord } from '../stats/aggregate.ts';
import { jobBuffers, pairedJob, type PairedJob, type PairedReply } from './pairedJob.ts';
import { pairedDelta, perturbationPairs, withHolm, type PairedDelta } from './resultsData.ts';

/**
 * A run's paired effects, Holm-adjusted together; null when `stale()` turned true before they were
 * done (a newer load or toggle wins, and nothing more is spent on the old one).
 */
export type PairedDeltas = (
	records: readonly CountedRecord[],
	seed: number,
	unprobed: ReadonlySet<string>,
	stale: () => boolean
) => Promise<PairedDelta[] | null>;

/** A worker as the caller sees it, whatever the platform's API. */
export interface PairedWorker {
	post(job: PairedJob): void;
	onMessage(fn: (reply: PairedReply) => void): void;
	/** The worker failed to load or crashed. */
	onError(fn: () => void): void;
	terminate(): void;
}

/** Lets the browser paint and handle input between two slices of deferred work. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** On the page: one bootstrap per task, so it stays responsive between them. */
export const pairedInline: PairedDeltas = async (records, seed, unprobed, stale) => {
	const deltas: Omit<PairedDelta, 'p_adjusted'>[] = [];
	for (const pair of perturbationPairs(records)) {
		await nextTask();
		if (stale()) return null;
		deltas.push(pairedDelta(records, pair, seed, unprobed));
	}
	// Adjusted over the whole family at once, as perturbationDeltas does for a study and the CLI.
	return withHolm(deltas);
};

/**
 * In a worker from `spawn`, one per call (it ends with its answer); when the worker cannot be made
 * or fails before answering, `fallback` computes them instead. An error the computation itself
 * throws is thrown here, as the inline path would.
 */
export function pairedInWorker(
	spawn: () => PairedWorker,
	fallback: PairedDeltas = pairedInline
): PairedDeltas {
	return async (records, seed, unprobed, stale) => {
		let worker: PairedWorker;
		try {
			worker = spawn();
		} catch {
			return fallback(records, seed, unprobed, stale);
		}
		const reply = await new Promise<PairedReply | null>((resolve) => {
			worker.onMessage(resolve);
			worker.onError(() => resolve(null));
			worker.post(pairedJob(records, seed, unprobed));
		});
		worker.terminate();
		if (reply === null) return fallback(records, seed, unprobed, stale);
		if ('error' in reply) throw new Error(reply.error);
		return stale() ? null : reply.deltas;
	};
}

function spawnBrowserWorker(): PairedWorker {
	const w = new Worker(new URL('../../workers/paired.worker.ts', import.meta.url), {
		type: 'module',
		name: 'paired-effects'
	});
	return {
		post: (job) => w.postMessage(job, jobBuffers(job)),
		onMessage: (fn) => w.addEventListener('message', (e: MessageEvent<PairedReply>) => fn(e.data)),
		onError: (fn) => {
			w.addEventListener('error', () => fn());
			w.addEventListener('messageerror', () => fn());
		},
		terminate: () => w.terminate()
	};
}

/** The page's paired effects: in a worker where the browser has one, else inline. */
export const pairedOffThread: PairedDeltas =
	typeof Worker === 'undefined' ? pairedInline : pairedInWorker(spawnBrowserWorker);
