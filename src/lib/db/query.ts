/**
 * Paged, filtered reads of one run's records for the results and annotation views. The most
 * selective filter picks a compound index; the others are applied while iterating.
 */
import type { Collection } from 'dexie';
import type { Label, Perturbation, ProbeRecord } from '../probe/types.ts';
import type { ProbeDB } from './schema.ts';

export interface RecordFilter {
	/** A label, or 'pending' for records the judge has not labelled yet (label null). */
	label?: Label | 'pending';
	temperature?: number;
	perturbation?: Perturbation;
	item_id?: string;
	/** Case-insensitive substring of the generated user turn. */
	text?: string;
}

export interface PageRequest {
	offset: number;
	limit: number;
	filter?: RecordFilter;
}

export interface RecordPage {
	rows: ProbeRecord[];
	/** Matching records in the whole run, for the pager. */
	total: number;
}

type RecordCollection = Collection<ProbeRecord, [string, string]>;

function indexed(db: ProbeDB, runId: string, f: RecordFilter): RecordCollection {
	// null is not a valid IndexedDB key, so pending records are absent from [run_id+label].
	if (f.label !== undefined && f.label !== 'pending') {
		return db.records.where('[run_id+label]').equals([runId, f.label]);
	}
	if (f.temperature !== undefined) {
		return db.records.where('[run_id+temperature]').equals([runId, f.temperature]);
	}
	if (f.perturbation !== undefined) {
		return db.records.where('[run_id+perturbation]').equals([runId, f.perturbation]);
	}
	if (f.item_id !== undefined)
		return db.records.where('[run_id+item_id]').equals([runId, f.item_id]);
	return db.records.where('run_id').equals(runId);
}

function matches(f: RecordFilter): ((r: ProbeRecord) => boolean) | undefined {
	const text = f.text?.toLowerCase();
	const checks: ((r: ProbeRecord) => boolean)[] = [];
	if (f.label === 'pending') checks.push((r) => r.label === null);
	else if (f.label !== undefined) checks.push((r) => r.label === f.label);
	if (f.temperature !== undefined) checks.push((r) => r.temperature === f.temperature);
	if (f.perturbation !== undefined) checks.push((r) => r.perturbation === f.perturbation);
	if (f.item_id !== undefined) checks.push((r) => r.item_id === f.item_id);
	if (text) checks.push((r) => r.user_turn.toLowerCase().includes(text));
	return checks.length === 0 ? undefined : (r) => checks.every((c) => c(r));
}

/**
 * One page of a run's records in key order within the chosen index, and the matching total.
 * @note Dexie collections are mutated by offset()/limit(), so each read builds a fresh one.
 */
export async function recordsPage(
	db: ProbeDB,
	runId: string,
	req: PageRequest
): Promise<RecordPage> {
	const f = req.filter ?? {};
	const test = matches(f);
	const collection = () => {
		const c = indexed(db, runId, f);
		return test ? c.and(test) : c;
	};
	return db.transaction('r', db.records, async () => {
		const [total, rows] = await Promise.all([
			collection().count(),
			collection().offset(req.offset).limit(req.limit).toArray()
		]);
		return { rows, total };
	});
}
