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

/** A worker that answers as the real one does, on a later task; it records what was done to it. */
function fakeWorker(answer: (job: PairedJob) => PairedReply | 'crash') {
	const log: string[] = [];
	const worker: PairedWorker = {
		post(job) {
			const copy = sent(job);
			log.push('post');
			setTimeout(() => {
				const reply = answer(copy);
				if (reply === 'crash') onError?.();
				else onMessage?.(structuredClone(reply));
			}, 0);
		},
		onMessage: (fn) => (onMessage = fn),
		onError: (fn) => (onError = fn),
		terminate: () => log.push('terminate')
	};
	let onMessage: ((reply: PairedReply) => void) | undefined;
	let onError: (() => void) | undefined;
	return { worker, log };
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
		expect(reply).toEqual({ deltas: perturbationDeltas(records, 42, unprobed) });
		if (!('deltas' in reply)) throw new Error('no deltas');
		expect(reply.deltas).toHaveLength(4);
	});

	it('answers a job it cannot read with a message, not a throw across the boundary', () => {
		// A page and a worker script from different versions (one of them cached) disagree on the
		// columns: the worker says what failed instead of dying silently.
		const job = pairedJob(records, 1, new Set());
		const partial = { ...job, columns: { ...job.columns } } as Partial<PairedJob> & PairedJob;
		delete (partial.columns as Partial<PairedJob['columns']>).label;
		expect(pairedReply(partial)).toEqual({ error: expect.stringMatching(/\S/) });
	});
});

describe('pairedInWorker', () => {
	it('returns what the worker computed, equal to the inline path, and ends the worker', async () => {
		const { worker, log } = fakeWorker(pairedReply);
		const inWorker = await pairedInWorker(() => worker)(records, 7, unprobed, fresh);
		expect(inWorker).toEqual(await pairedInline(records, 7, unprobed, fresh));
		expect(inWorker).toEqual(perturbationDeltas(records, 7, unprobed));
		expect(log).toEqual(['post', 'terminate']);
	});

	it('computes on the page when no worker can be made (a blocked script, no Worker)', async () => {
		const fallback = vi.fn(pairedInline);
		const deltas = await pairedInWorker(() => {
			throw new Error('Worker is not defined');
		}, fallback)(records, 7, unprobed, fresh);
		expect(fallback).toHaveBeenCalledOnce();
		expect(deltas).toEqual(perturbationDeltas(records, 7, unprobed));
	});

	it('computes on the page when the worker fails before answering', async () => {
		const { worker, log } = fakeWorker(() => 'crash');
		const fallback = vi.fn(pairedInline);
		const deltas = await pairedInWorker(() => worker, fallback)(records, 7, unprobed, fresh);
		expect(fallback).toHaveBeenCalledOnce();
		expect(deltas).toEqual(perturbationDeltas(records, 7, unprobed));
		expect(log).toEqual(['post', 'terminate']);
	});

	it("throws the computation's own error, as the inline path would", async () => {
		const { worker, log } = fakeWorker(() => ({ error: 'signFlipP needs integer sums' }));
		await expect(pairedInWorker(() => worker)(records, 7, unprobed, fresh)).rejects.toThrow(
			'signFlipP needs integer sums'
		);
		expect(log).toEqual(['post', 'terminate']);
	});

	it('gives null when a newer load made the answer stale', async () => {
		const { worker } = fakeWorker(pairedReply);
		let stale = false;
		const pending = pairedInWorker(() => worker)(records, 7, unprobed, () => stale);
		stale = true;
		expect(await pending).toBeNull();
	});
});

describe('pairedInline', () => {
	it('stops at the next pair once stale, computing nothing more', async () => {
		expect(await pairedInline(records, 7, unprobed, () => true)).toBeNull();
	});
});
