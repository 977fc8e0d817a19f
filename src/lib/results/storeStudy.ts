/**
 * Storing a study's runs (a study file imported, or opened by link): each run as Import stores
 * one, all of them or none. A run this browser holds already (the same study imported again)
 * stands in for itself, as its own results page would show it; a store that fails midway (storage
 * full) removes the runs it had added, so no part of the study is left behind.
 */
import type { RunBundle } from '../probe/exchange.ts';
import type { ImportConflict } from '../db/transfer.ts';
import { RunExistsError } from '../db/errors.ts';

export interface StudyStore {
	importRun(bundle: RunBundle, opts?: { onConflict?: ImportConflict }): Promise<string>;
	deleteRun(runId: string): Promise<void>;
}

export interface StoredStudy {
	/** The study's runs in order, as stored here. */
	run_ids: string[];
	/** Those that were here before and were kept as stored. */
	already: string[];
}

/** @throws the store's error (quota) after removing what this call added. */
export async function storeStudy(
	store: StudyStore,
	bundles: readonly RunBundle[]
): Promise<StoredStudy> {
	const out: StoredStudy = { run_ids: [], already: [] };
	const added: string[] = [];
	try {
		for (const bundle of bundles) {
			try {
				const id = await store.importRun(bundle, { onConflict: 'refuse' });
				added.push(id);
				out.run_ids.push(id);
			} catch (e) {
				if (!(e instanceof RunExistsError)) throw e;
				out.run_ids.push(e.run_id);
				out.already.push(e.run_id);
			}
		}
	} catch (e) {
		for (const id of added) await store.deleteRun(id).catch(() => undefined);
		throw e;
	}
	return out;
}
