/**
 * Read the app's IndexedDB ('user-turn-probe') straight from the page, without Dexie: what the UI
 * shows is checked against what is actually stored.
 */
import type { Page } from 'playwright-core';

export interface StoredRun {
	run_id: string;
	status: string;
	/** Records of this run. */
	records: number;
	/** Distinct record keys: equal to `records` unless something was stored twice. */
	distinctKeys: number;
	/** Records that carry a label (judging finished for them). */
	labelled: number;
}

/** Every run in the page's database, with its record counts. */
export async function storedRuns(page: Page): Promise<StoredRun[]> {
	return page.evaluate(async () => {
		const open = () =>
			new Promise<IDBDatabase | null>((resolve) => {
				const req = indexedDB.open('user-turn-probe');
				req.onsuccess = () => resolve(req.result);
				req.onerror = () => resolve(null);
				// The database does not exist yet: do not create an empty version 1 under the app.
				req.onupgradeneeded = () => {
					req.transaction?.abort();
				};
			});
		const all = <T>(db: IDBDatabase, store: string) =>
			new Promise<T[]>((resolve, reject) => {
				const req = db.transaction(store, 'readonly').objectStore(store).getAll();
				req.onsuccess = () => resolve(req.result as T[]);
				req.onerror = () => reject(req.error);
			});
		const db = await open();
		if (!db) return [];
		try {
			const names = Array.from(db.objectStoreNames);
			if (!names.includes('runs') || !names.includes('records')) return [];
			const runs = await all<{ run_id: string; status: string }>(db, 'runs');
			const records = await all<{ run_id: string; key: string; label: string | null }>(
				db,
				'records'
			);
			return runs.map((run) => {
				const mine = records.filter((r) => r.run_id === run.run_id);
				return {
					run_id: run.run_id,
					status: run.status,
					records: mine.length,
					distinctKeys: new Set(mine.map((r) => r.key)).size,
					labelled: mine.filter((r) => r.label !== null).length
				};
			});
		} finally {
			db.close();
		}
	});
}

export async function storedRun(page: Page, runId: string): Promise<StoredRun | undefined> {
	return (await storedRuns(page)).find((r) => r.run_id === runId);
}

/** Poll until `until` holds for the stored run (or time runs out, returning the last reading). */
export async function pollRun(
	page: Page,
	runId: string,
	until: (run: StoredRun) => boolean,
	timeoutMs: number,
	intervalMs = 100
): Promise<StoredRun | undefined> {
	const end = Date.now() + timeoutMs;
	let last: StoredRun | undefined;
	while (Date.now() < end) {
		last = await storedRun(page, runId).catch(() => last);
		if (last && until(last)) return last;
		await new Promise((r) => setTimeout(r, intervalMs));
	}
	return last;
}

/** key → created_at of a run's stored records: a record written twice gets a new stamp. */
export async function recordStamps(page: Page, runId: string): Promise<Record<string, string>> {
	return page.evaluate(async (id) => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const req = indexedDB.open('user-turn-probe');
			req.onsuccess = () => resolve(req.result);
			req.onerror = () => reject(req.error);
		});
		try {
			const rows = await new Promise<{ run_id: string; key: string; created_at: string }[]>(
				(resolve, reject) => {
					const req = db.transaction('records', 'readonly').objectStore('records').getAll();
					req.onsuccess = () => resolve(req.result);
					req.onerror = () => reject(req.error);
				}
			);
			return Object.fromEntries(
				rows.filter((r) => r.run_id === id).map((r) => [r.key, r.created_at])
			);
		} finally {
			db.close();
		}
	}, runId);
}
