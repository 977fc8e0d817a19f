/**
 * Paged, filtered reads and counts of one run's records.
 *
 * A filter is decided on the run's facts (db/facts.ts: a dozen small fields per record, read as one
 * packed row), which gives the matching keys in key order; only the page itself, or a text
 * search, reads records. Label and pending counts come from the [run_id+label] index, and an
 * unfiltered first page straight off the primary-key range.
 */
import { Dexie } from 'dexie';
import type { Label, Perturbation, ProbeRecord } from '../probe/types.ts';
import type { RecordFacts } from './facts.ts';
import { ofRun } from './ranges.ts';
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

/** The run's facts in key order (DexieRunStore.getFacts: packed when current). */
export type FactsReader = () => Promise<RecordFacts[]>;

const isSet = (v: unknown) => v !== undefined && v !== '';

/** Does one record's facts pass every filter but the text search? */
export function matchesFacts(f: RecordFacts, filter: RecordFilter): boolean {
	const { label, temperature, perturbation, item_id } = filter;
	if (label !== undefined && (label === 'pending' ? f.label !== null : f.label !== label)) {
		return false;
	}
	return (
		(temperature === undefined || f.temperature === temperature) &&
		(perturbation === undefined || f.perturbation === perturbation) &&
		(item_id === undefined || f.item_id === item_id)
	);
}

/**
 * The run's first `limit` records in key order, read straight off the primary-key range: no keys,
 * no count. What the results view paints its first sample rows from (it knows the total already).
 */
export function firstRecords(db: ProbeDB, runId: string, limit: number): Promise<ProbeRecord[]> {
	if (limit <= 0) return Promise.resolve([]);
	return ofRun(db.records, runId).limit(limit).toArray();
}

/** The run's records labelled with anything (pending ones are missing from the label index). */
function labelled(db: ProbeDB, runId: string) {
	return db.records.where('[run_id+label]').between([runId, Dexie.minKey], [runId, Dexie.maxKey]);
}

/**
 * How many of the run's records match. No filter, a label, or 'pending' are answered from key and
 * index counts alone (no values read); any other filter from the facts.
 */
export async function countRecords(
	db: ProbeDB,
	runId: string,
	filter: RecordFilter,
	facts: FactsReader
): Promise<number> {
	const { label, ...rest } = filter;
	if (Object.values(rest).some(isSet)) {
		return (await recordsPage(db, runId, { offset: 0, limit: 0, filter }, facts)).total;
	}
	const t = db.records;
	if (label === undefined) return ofRun(t, runId).count();
	if (label !== 'pending') return t.where('[run_id+label]').equals([runId, label]).count();
	return db.transaction('r', t, async () => {
		const [all, done] = await Promise.all([ofRun(t, runId).count(), labelled(db, runId).count()]);
		return all - done;
	});
}

/** One page of a run's records in key order, and how many records match in total. */
export async function recordsPage(
	db: ProbeDB,
	runId: string,
	req: PageRequest,
	facts: FactsReader
): Promise<RecordPage> {
	const f = req.filter ?? {};
	const end = req.offset + req.limit;
	if (!Object.values(f).some(isSet) && req.offset === 0) {
		// The first page needs no keys: count from the key range, read the rows straight off it.
		return db.transaction('r', db.records, async () => {
			const [total, rows] = await Promise.all([
				ofRun(db.records, runId).count(),
				firstRecords(db, runId, req.limit)
			]);
			return { rows, total };
		});
	}
	const keys = (await facts())
		.filter((x) => matchesFacts(x, f))
		.map((x): [string, string] => [runId, x.key]);
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
}
