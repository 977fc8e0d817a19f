/**
 * A run's rows in a table keyed [run_id+key] (records, facts), read off the primary key: the run
 * is a key prefix, so no separate run_id index has to be kept up on every write.
 */
import { Dexie } from 'dexie';
import type { Collection, Table } from 'dexie';

export function ofRun<T>(
	table: Table<T, [string, string]>,
	runId: string
): Collection<T, [string, string]> {
	return table
		.where('[run_id+key]')
		.between([runId, Dexie.minKey], [runId, Dexie.maxKey], true, true);
}
