/**
 * A run's paired perturbation effects as a job a worker can run: what crosses the boundary and
 * what comes back. The computation is perturbationDeltas, the one owner (resultsData.ts); this file
 * only carries it, so in a worker or inline the numbers are equal.
 *
 * The records cross as columns (each field's distinct values plus one index per record, in typed
 * arrays): 10,000 objects cost the page ~15-20 ms to clone into a message, the columns ~1 ms.
 */
import type { CountedRecord } from '../stats/aggregate.ts';
import { perturbationDeltas, type PairedDelta } from './resultsData.ts';

/** The fields the paired count reads (CountedRecord's). */
const FIELDS = [
	'item_id',
	'temperature',
	'perturbation',
	'sample',
	'label',
	'verdict',
	'label_source',
	'correct'
] as const satisfies readonly (keyof CountedRecord)[];

type Field = (typeof FIELDS)[number];

export interface PairedJob {
	n: number;
	columns: Record<Field, { values: unknown[]; index: Uint32Array }>;
	seed: number;
	/** Item ids left out of follow-up counts (Exclusions.unprobed). */
	unprobed: string[];
}

export type PairedReply = { deltas: PairedDelta[] } | { error: string };

/** The job for these records, in columns. */
export function pairedJob(
	records: readonly CountedRecord[],
	seed: number,
	unprobed: ReadonlySet<string>
): PairedJob {
	const n = records.length;
	const columns = {} as PairedJob['columns'];
	for (const field of FIELDS) {
		const values: unknown[] = [];
		const seen = new Map<unknown, number>();
		const index = new Uint32Array(n);
		for (let i = 0; i < n; i++) {
			const v = records[i][field];
			let k = seen.get(v);
			if (k === undefined) {
				k = values.push(v) - 1;
				seen.set(v, k);
			}
			index[i] = k;
		}
		columns[field] = { values, index };
	}
	return { n, columns, seed, unprobed: [...unprobed] };
}

/** The job's buffers, to transfer rather than copy. */
export function jobBuffers(job: PairedJob): ArrayBuffer[] {
	return FIELDS.map((f) => job.columns[f].index.buffer as ArrayBuffer);
}

/** The records back from their columns: a field missing from the record stays missing. */
export function jobRecords(job: PairedJob): CountedRecord[] {
	const out = new Array<CountedRecord>(job.n);
	const c = job.columns;
	const at = (field: Field, i: number) => c[field].values[c[field].index[i]];
	for (let i = 0; i < job.n; i++) {
		const r = {} as Record<Field, unknown>;
		for (const field of FIELDS) {
			const v = at(field, i);
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
			deltas: perturbationDeltas(jobRecords(job), job.seed, new Set(job.unprobed))
		};
	} catch (err) {
		return { error: err instanceof Error ? err.message : String(err) };
	}
}
