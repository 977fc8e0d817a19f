/**
 * A run's paired perturbation effects as a job a worker can run: what crosses the boundary and
 * what comes back. The computation is perturbationDeltas, the one owner (resultsData.ts); this file
 * only carries it, so in a worker or inline the numbers are equal.
 *
 * The records cross as columns (stats/columns.ts, typed index arrays): 10,000 objects cost the page
 * ~15-20 ms to clone into a message, the columns ~1 ms. The fields are the ones the count reads,
 * COUNTED_FIELDS, the list CountedRecord is derived from.
 */
import { COUNTED_FIELDS, type CountedRecord } from '../stats/aggregate.ts';
import { columnsOf, valueAt, type Columns } from '../stats/columns.ts';
import { perturbationDeltas, type PairedDelta } from './resultsData.ts';

type Field = (typeof COUNTED_FIELDS)[number];

export interface PairedJob {
	/** Which computation this is: one worker serves a view's every computation. */
	id: number;
	n: number;
	columns: Columns<Field>;
	seed: number;
	/** Item ids left out of follow-up counts (Exclusions.unprobed). */
	unprobed: string[];
}

export type PairedReply = { id: number } & ({ deltas: PairedDelta[] } | { error: string });

/** The job for these records, in columns. */
export function pairedJob(
	records: readonly CountedRecord[],
	seed: number,
	unprobed: ReadonlySet<string>,
	id = 0
): PairedJob {
	const columns = columnsOf(records, COUNTED_FIELDS);
	return { id, n: records.length, columns, seed, unprobed: [...unprobed] };
}

/** The job's buffers, to transfer rather than copy. */
export function jobBuffers(job: PairedJob): ArrayBuffer[] {
	return COUNTED_FIELDS.map((f) => job.columns[f].index.buffer as ArrayBuffer);
}

/** The records back from their columns: a field missing from the record stays missing. */
export function jobRecords(job: PairedJob): CountedRecord[] {
	const out = new Array<CountedRecord>(job.n);
	for (let i = 0; i < job.n; i++) {
		const r = {} as Record<Field, unknown>;
		for (const field of COUNTED_FIELDS) {
			const v = valueAt(job.columns[field], i);
			if (v !== undefined) r[field] = v;
		}
		out[i] = r as unknown as CountedRecord;
	}
	return out;
}

/** The worker's side: the job's deltas, or what went wrong as text. */
export function pairedReply(job: PairedJob): PairedReply {
	try {
		return {
			id: job.id,
			deltas: perturbationDeltas(jobRecords(job), job.seed, new Set(job.unprobed))
		};
	} catch (err) {
		return { id: job.id, error: err instanceof Error ? err.message : String(err) };
	}
}
