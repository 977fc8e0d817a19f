import { describe, expect, it, vi } from 'vitest';
import {
	jobBuffers,
	jobRecords,
	pairedJob,
	pairedReply,
	type PairedJob,
	type PairedReply
} from '../../../src/lib/results/pairedJob.ts';
import {
	pairedInline,
	pairedInWorker,
	type PairedWorker
} from '../../../src/lib/results/pairedOffThread.ts';
import { perturbationDeltas } from '../../../src/lib/results/resultsData.ts';
import { makeRecord, makeSyntheticRun } from '../../helpers/factories.ts';

const records = makeSyntheticRun({
	seed: 5,
	items: 30,
	samples: 2,
	temperatures: [0, 1],
	perturbations: ['none', 'truncate', 'append'],
	pending: 0.1
});
const unprobed = new Set(['item-3', 'item-7']);
const fresh = () => false;

/** What postMessage does to a job: a structured clone, its index buffers moved, not copied. */
function sent(job: PairedJob): PairedJob {
	return structuredClone(job, { transfer: jobBuffers(job) });
}

/**
 * Makes workers that answer as the real one does, in order, each on a later task; `answer` may say
 * a worker crashes. It records what was done to each worker, by the worker's number.
 */
function fakeWorkers(answer: (job: PairedJob, worker: number) => PairedReply | 'crash') {
	const log: string[] = [];
	let made = 0;
	const spawn = (): PairedWorker => {
		const n = made++;
		let onMessage: ((reply: PairedReply) => void) | undefined;
		let onError: (() => void) | undefined;
		let ended = false;
		log.push(`spawn ${n}`);
		return {
			post(job) {
				const copy = sent(job);
				log.push(`post ${n}`);
				setTimeout(() => {
					if (ended) return; // a terminated worker answers nothing
					const reply = answer(copy, n);
					if (reply === 'crash') onError?.();
					else onMessage?.(structuredClone(reply));
				}, 0);
			},
			onMessage: (fn) => (onMessage = fn),
			onError: (fn) => (onError = fn),
			terminate: () => {
				ended = true;
				log.push(`terminate ${n}`);
			}
		};
	};
	return { spawn, log };
}

describe('pairedJob', () => {
	it('carries the records through a real structured clone unchanged in what the count reads', () => {
		const mixed = [
			...records.slice(0, 5),
			makeRecord({ item_id: 'x', verdict: 'genuine', label: 'prompt_restatement' }),
			makeRecord({ item_id: 'y', label: null, correct: null })
		];
		const job = pairedJob(mixed, 1, unprobed);
		const back = jobRecords(sent(job));
		expect(back).toEqual(
			mixed.map((r) => ({
				item_id: r.item_id,
				temperature: r.temperature,
				perturbation: r.perturbation,
				sample: r.sample,
				label: r.label,
				...(r.verdict === undefined ? {} : { verdict: r.verdict }),
				label_source: r.label_source,
				correct: r.correct
			}))
		);
	});

	it('moves its buffers: after sending, the page holds none of the columns', () => {
		const job = pairedJob(records, 1, unprobed);
		expect(job.columns.item_id.index.length).toBe(records.length);
		sent(job);
		expect(job.columns.item_id.index.length).toBe(0);
	});

	it("gives the worker's answer equal to perturbationDeltas on the page", () => {
		const reply = pairedReply(sent(pairedJob(records, 42, unprobed)));
		expect(reply).toEqual({ id: 0, deltas: perturbationDeltas(records, 42, unprobed) });
		if (!('deltas' in reply)) throw new Error('no deltas');
		expect(reply.deltas).toHaveLength(4);
	});

	it('answers a job it cannot read with a message, not a throw across the boundary', () => {
		// A page and a worker script from different versions (one of them cached) disagree on the
		// columns: the worker says what failed instead of dying silently.
		const job = pairedJob(records, 1, new Set());
		const partial = { ...job, columns: { ...job.columns } } as Partial<PairedJob> & PairedJob;
		delete (partial.columns as Partial<PairedJob['columns']>).label;
		expect(pairedReply(partial)).toEqual({ id: 0, error: expect.stringMatching(/\S/) });
	});
});

describe('pairedInWorker', () => {
	it('returns what the worker computed, equal to the inline path, keeping the worker', async () => {
		const { spawn, log } = fakeWorkers((job) => pairedReply(job));
		const inWorker = await pairedInWorker(spawn).deltas(records, 7, unprobed, fresh);
		expect(inWorker).toEqual(await pairedInline(records, 7, unprobed, fresh));
		expect(inWorker).toEqual(perturbationDeltas(records, 7, unprobed));
		expect(log).toEqual(['spawn 0', 'post 0']);
	});

	it('makes no worker until the first computation, then one for every later one', async () => {
		const { spawn, log } = fakeWorkers((job) => pairedReply(job));
		const paired = pairedInWorker(spawn);
		expect(log).toEqual([]);
		for (const seed of [1, 2, 3]) {
			expect(await paired.deltas(records, seed, unprobed, fresh)).toEqual(
				perturbationDeltas(records, seed, unprobed)
			);
		}
		expect(log).toEqual(['spawn 0', 'post 0', 'post 0', 'post 0']);
	});

	it('gives each of several computations in flight its own answer', async () => {
		// A toggle while the first load's bootstraps run: both wait on the one worker.
		const { spawn, log } = fakeWorkers((job) => pairedReply(job));
		const paired = pairedInWorker(spawn);
		const [a, b] = await Promise.all([
			paired.deltas(records, 1, unprobed, fresh),
			paired.deltas(records, 2, new Set(), fresh)
		]);
		expect(a).toEqual(perturbationDeltas(records, 1, unprobed));
		expect(b).toEqual(perturbationDeltas(records, 2, new Set()));
		expect(a).not.toEqual(b);
		expect(log).toEqual(['spawn 0', 'post 0', 'post 0']);
	});

	it('ends the worker on close (the view is gone); what was waiting gives null, not a fallback', async () => {
		const { spawn, log } = fakeWorkers((job) => pairedReply(job));
		const fallback = vi.fn(pairedInline);
		const paired = pairedInWorker(spawn, fallback);
		await paired.deltas(records, 1, unprobed, fresh);
		const waiting = paired.deltas(records, 2, unprobed, fresh);
		paired.close();
		expect(await waiting).toBeNull();
		expect(await paired.deltas(records, 3, unprobed, fresh)).toBeNull();
		expect(fallback).not.toHaveBeenCalled();
		expect(log).toEqual(['spawn 0', 'post 0', 'post 0', 'terminate 0']);
	});

	it('closes without a worker when none was ever needed', () => {
		const { spawn, log } = fakeWorkers((job) => pairedReply(job));
		pairedInWorker(spawn).close();
		expect(log).toEqual([]);
	});

	it('computes on the page when no worker can be made (a blocked script, no Worker)', async () => {
		const fallback = vi.fn(pairedInline);
		const deltas = await pairedInWorker(() => {
			throw new Error('Worker is not defined');
		}, fallback).deltas(records, 7, unprobed, fresh);
		expect(fallback).toHaveBeenCalledOnce();
		expect(deltas).toEqual(perturbationDeltas(records, 7, unprobed));
	});

	it('computes on the page when the worker crashes, and makes a fresh worker for the next', async () => {
		const { spawn, log } = fakeWorkers((job, n) => (n === 0 ? 'crash' : pairedReply(job)));
		const fallback = vi.fn(pairedInline);
		const paired = pairedInWorker(spawn, fallback);
		// Both computations waiting on the crashed worker fall back.
		const crashed = await Promise.all([
			paired.deltas(records, 7, unprobed, fresh),
			paired.deltas(records, 8, unprobed, fresh)
		]);
		expect(fallback).toHaveBeenCalledTimes(2);
		expect(crashed).toEqual([
			perturbationDeltas(records, 7, unprobed),
			perturbationDeltas(records, 8, unprobed)
		]);
		expect(log).toEqual(['spawn 0', 'post 0', 'post 0', 'terminate 0']);
		expect(await paired.deltas(records, 9, unprobed, fresh)).toEqual(
			perturbationDeltas(records, 9, unprobed)
		);
		expect(fallback).toHaveBeenCalledTimes(2);
		expect(log.slice(4)).toEqual(['spawn 1', 'post 1']);
	});

	it('computes on the page when the job cannot be posted (a clone error)', async () => {
		const fallback = vi.fn(pairedInline);
		const log: string[] = [];
		const worker: PairedWorker = {
			post: () => {
				throw new DOMException('could not be cloned', 'DataCloneError');
			},
			onMessage: () => undefined,
			onError: () => undefined,
			terminate: () => log.push('terminate')
		};
		const deltas = await pairedInWorker(() => worker, fallback).deltas(records, 7, unprobed, fresh);
		expect(deltas).toEqual(perturbationDeltas(records, 7, unprobed));
		expect(log).toEqual(['terminate']);
	});

	it("throws the computation's own error, as the inline path would, and keeps the worker", async () => {
		const { spawn, log } = fakeWorkers((job) => ({
			id: job.id,
			error: 'signFlipP needs integer sums'
		}));
		await expect(pairedInWorker(spawn).deltas(records, 7, unprobed, fresh)).rejects.toThrow(
			'signFlipP needs integer sums'
		);
		expect(log).toEqual(['spawn 0', 'post 0']);
	});

	it('takes replies in order from a worker script that does not name its job', async () => {
		// A cached worker from before jobs had ids answers without one.
		const { spawn } = fakeWorkers((job) => {
			const { id: _id, ...reply } = pairedReply(job);
			return reply as PairedReply;
		});
		const paired = pairedInWorker(spawn);
		const [a, b] = await Promise.all([
			paired.deltas(records, 1, unprobed, fresh),
			paired.deltas(records, 2, unprobed, fresh)
		]);
		expect(a).toEqual(perturbationDeltas(records, 1, unprobed));
		expect(b).toEqual(perturbationDeltas(records, 2, unprobed));
	});

	it('gives null when a newer load made the answer stale', async () => {
		const { spawn } = fakeWorkers((job) => pairedReply(job));
		let stale = false;
		const pending = pairedInWorker(spawn).deltas(records, 7, unprobed, () => stale);
		stale = true;
		expect(await pending).toBeNull();
	});
});

describe('pairedInline', () => {
	it('stops at the next pair once stale, computing nothing more', async () => {
		expect(await pairedInline(records, 7, unprobed, () => true)).toBeNull();
	});
});
