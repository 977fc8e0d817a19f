/**
 * Paged, filtered reads of one run's records for the results and annotation views.
 *
 * Works on primary keys, not cursors: every column filter has a compound index, so a filter is
 * "fetch the matching keys (getAllKeys), intersect, slice, bulkGet the page". Cursor-based
 * offset()/and() walks one record per step, which costs seconds at 10,000 records in
 * fake-indexeddb and is needlessly slow in browsers too. Only the text search reads records.
 */
import { Dexie } from 'dexie';
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

type PrimaryKey = [string, string];

/** Keys of the run's records matching every indexed filter, in key order. */
async function matchingKeys(db: ProbeDB, runId: string, f: RecordFilter): Promise<PrimaryKey[]> {
	const t = db.records;
	const lookups: Promise<PrimaryKey[]>[] = [];
	if (f.label !== undefined && f.label !== 'pending') {
		lookups.push(t.where('[run_id+label]').equals([runId, f.label]).primaryKeys());
	}
	if (f.temperature !== undefined) {
		lookups.push(t.where('[run_id+temperature]').equals([runId, f.temperature]).primaryKeys());
	}
	if (f.perturbation !== undefined) {
		lookups.push(t.where('[run_id+perturbation]').equals([runId, f.perturbation]).primaryKeys());
	}
	if (f.item_id !== undefined) {
		lookups.push(t.where('[run_id+item_id]').equals([runId, f.item_id]).primaryKeys());
	}
	if (lookups.length === 0) lookups.push(t.where('run_id').equals(runId).primaryKeys());
	// Within one index value IndexedDB orders entries by primary key, so each list is in key order.
	const [first, ...rest] = await Promise.all(lookups);
	let keys = first;
	for (const other of rest) {
		const inOther = new Set(other.map((k) => k[1]));
		keys = keys.filter((k) => inOther.has(k[1]));
	}
	if (f.label === 'pending') {
		// null is not a valid IndexedDB key, so pending records are exactly those missing from the
		// [run_id+label] index.
		const labelled = await t
			.where('[run_id+label]')
			.between([runId, Dexie.minKey], [runId, Dexie.maxKey])
			.primaryKeys();
		const done = new Set(labelled.map((k) => k[1]));
		keys = keys.filter((k) => !done.has(k[1]));
	}
	return keys;
}

/**
 * The run's first `limit` records in key order, read straight off the primary-key range: no keys,
 * no count. What the results view paints its first sample rows from (it knows the total already).
 */
export function firstRecords(db: ProbeDB, runId: string, limit: number): Promise<ProbeRecord[]> {
	if (limit <= 0) return Promise.resolve([]);
	return db.records
		.where('[run_id+key]')
		.between([runId, Dexie.minKey], [runId, Dexie.maxKey])
		.limit(limit)
		.toArray();
}

/**
 * How many of the run's records match. No filter, a label, or 'pending' are answered from index
 * counts alone (Chromium counts 10,000 index entries in ~100 ms, and a keys read costs more);
 * other filters fall back to intersecting keys.
 */
export async function countRecords(
	db: ProbeDB,
	runId: string,
	filter: RecordFilter = {}
): Promise<number> {
	const { label, ...rest } = filter;
	if (!Object.values(rest).every((v) => v === undefined || v === '')) {
		return (await recordsPage(db, runId, { offset: 0, limit: 0, filter })).total;
	}
	const t = db.records;
	if (label === undefined) return t.where('run_id').equals(runId).count();
	if (label !== 'pending') return t.where('[run_id+label]').equals([runId, label]).count();
	// Pending records (label null) are exactly those missing from the [run_id+label] index.
	return db.transaction('r', t, async () => {
		const [all, labelled] = await Promise.all([
			t.where('run_id').equals(runId).count(),
			t.where('[run_id+label]').between([runId, Dexie.minKey], [runId, Dexie.maxKey]).count()
		]);
		return all - labelled;
	});
}

/**
 * The first page without a filter needs no keys: count from the index, read the rows straight off
 * the primary-key range. Only the first: a deep offset would walk a cursor one record per step.
 */
async function firstPage(db: ProbeDB, runId: string, limit: number): Promise<RecordPage> {
	return db.transaction('r', db.records, async () => {
		const [total, rows] = await Promise.all([
			db.records.where('run_id').equals(runId).count(),
			firstRecords(db, runId, limit)
		]);
		return { rows, total };
	});
}

/** One page of a run's records in key order, and how many records match in total. */
export async function recordsPage(
	db: ProbeDB,
	runId: string,
	req: PageRequest
): Promise<RecordPage> {
	const f = req.filter ?? {};
	const end = req.offset + req.limit;
	const noFilter = Object.values(f).every((v) => v === undefined || v === '');
	if (noFilter && req.offset === 0) return firstPage(db, runId, req.limit);
	return db.transaction('r', db.records, async () => {
		const keys = await matchingKeys(db, runId, f);
		const text = f.text?.toLowerCase();
		if (text) {
			const candidates = await db.records.bulkGet(keys);
			const hits = candidates.filter(
				(r): r is ProbeRecord => r !== undefined && r.user_turn.toLowerCase().includes(text)
			);
			return { rows: hits.slice(req.offset, end), total: hits.length };
		}
		const rows = await db.records.bulkGet(keys.slice(req.offset, end));
		return { rows: rows.filter((r): r is ProbeRecord => r !== undefined), total: keys.length };
	});
}
