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

/** A view's paired effects and the worker behind them. */
export interface PairedEffects {
	deltas: PairedDeltas;
	/** Ends the worker (the view is gone): a computation still waiting gives null. */
	close(): void;
}

/** A reply that no longer gets a computation: the worker was closed under it. */
const CLOSED = Symbol('closed');

/**
 * In one worker from `spawn`, made on the first computation and reused by every later one (a
 * toggle or a reload posts to it; the worker answers in order, each reply naming its job) until
 * `close`. When the worker cannot be made or fails before answering, `fallback` computes the
 * waiting ones instead and the next computation makes a fresh worker. An error the computation
 * itself throws is thrown here, as the inline path would.
 */
export function pairedInWorker(
	spawn: () => PairedWorker,
	fallback: PairedDeltas = pairedInline
): PairedEffects {
	let worker: PairedWorker | null = null;
	let closed = false;
	let nextId = 0;
	const waiting = new Map<number, (reply: PairedReply | null | typeof CLOSED) => void>();

	/** Ends this worker and answers everything it owed with `answer`. */
	const drop = (w: PairedWorker, answer: null | typeof CLOSED) => {
		if (worker === w) worker = null;
		w.terminate();
		for (const resolve of waiting.values()) resolve(answer);
		waiting.clear();
	};

	const started = (): PairedWorker => {
		if (worker !== null) return worker;
		const w = spawn();
		w.onMessage((reply) => {
			// A worker script from another version may not name the job: it answers in order.
			const id = waiting.has(reply.id) ? reply.id : waiting.keys().next().value;
			if (id === undefined) return;
			waiting.get(id)?.(reply);
			waiting.delete(id);
		});
		w.onError(() => drop(w, null));
		worker = w;
		return w;
	};

	const deltas: PairedDeltas = async (records, seed, unprobed, stale) => {
		if (closed) return null;
		let w: PairedWorker;
		try {
			w = started();
		} catch {
			return fallback(records, seed, unprobed, stale);
		}
		const id = nextId++;
		const reply = await new Promise<PairedReply | null | typeof CLOSED>((resolve) => {
			waiting.set(id, resolve);
			try {
				w.post(pairedJob(records, seed, unprobed, id));
			} catch {
				drop(w, null); // a job it cannot take: as a crash, the page computes it
			}
		});
		if (reply === CLOSED) return null;
		if (reply === null) return fallback(records, seed, unprobed, stale);
		if ('error' in reply) throw new Error(reply.error);
		return stale() ? null : reply.deltas;
	};

	return {
		deltas,
		close() {
			closed = true;
			if (worker !== null) drop(worker, CLOSED);
		}
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

/** A view's paired effects: in a worker of its own where the browser has one, else inline. */
export function pairedOffThread(): PairedEffects {
	if (typeof Worker === 'undefined') return { deltas: pairedInline, close: () => undefined };
	return pairedInWorker(spawnBrowserWorker);
}
