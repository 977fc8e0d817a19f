/**
 * Read the app's IndexedDB ('user-turn-probe') straight from the page, without Dexie: what the UI
 * shows is checked against what is actually stored.
 */

/**
 * What reading the database needs of a page: a Playwright Page, or a cross-browser driver
 * (tests/browsers) for Firefox and WebKit.
 */
export interface PageEvaluator {
	evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}

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
export async function storedRuns(page: PageEvaluator): Promise<StoredRun[]> {
	const runs = await readStore<{ run_id: string; status: string }>(page, 'runs', [
		'run_id',
		'status'
	]);
	if (runs.length === 0) return [];
	const records = await readStore<{ run_id: string; key: string; label: string | null }>(
		page,
		'records',
		['run_id', 'key', 'label']
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
}

/** Each stored run's generator and the chat template it was made with (its manifest's). */
export async function storedTemplates(
	page: PageEvaluator
): Promise<{ generator: string; template_repo?: string; template_sha256?: string }[]> {
	const runs = await readStore<{
		manifest: {
			config: { generator: { id: string; template_repo?: string } };
			template_sha256?: string;
		};
	}>(page, 'runs', ['manifest']);
	return runs.map(({ manifest }) => ({
		generator: manifest.config.generator.id,
		template_repo: manifest.config.generator.template_repo,
		template_sha256: manifest.template_sha256
	}));
}

export async function storedRun(
	page: PageEvaluator,
	runId: string
): Promise<StoredRun | undefined> {
	return (await storedRuns(page)).find((r) => r.run_id === runId);
}

/** Poll until `until` holds for the stored run (or time runs out, returning the last reading). */
export async function pollRun(
	page: PageEvaluator,
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

/**
 * The given fields of every row of one store of the page's database, or of one run's rows (none
 * when the database or the store does not exist yet: it is never created here, under the app).
 */
async function readStore<T extends object>(
	page: PageEvaluator,
	store: string,
	fields: readonly (keyof T & string)[],
	runId?: string
): Promise<T[]> {
	const rows = await page.evaluate(
		async ({ store, fields, runId }) => {
			const db = await new Promise<IDBDatabase | null>((resolve) => {
				const req = indexedDB.open('user-turn-probe');
				req.onsuccess = () => resolve(req.result);
				req.onerror = () => resolve(null);
				req.onupgradeneeded = () => {
					req.transaction?.abort();
				};
			});
			if (!db) return [];
			try {
				if (!Array.from(db.objectStoreNames).includes(store)) return [];
				const all = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
					const req = db.transaction(store, 'readonly').objectStore(store).getAll();
					req.onsuccess = () => resolve(req.result);
					req.onerror = () => reject(req.error);
				});
				return all
					.filter((r) => runId === undefined || r.run_id === runId)
					.map((r) => Object.fromEntries(fields.map((f) => [f, r[f]])));
			} finally {
				db.close();
			}
		},
		{ store, fields: [...fields] as string[], runId }
	);
	return rows as T[];
}

/** The given fields of a run's stored records, e.g. to check what a run wrote. */
export function storedRecords<T extends object>(
	page: PageEvaluator,
	runId: string,
	fields: readonly (keyof T & string)[]
): Promise<T[]> {
	return readStore<T>(page, 'records', fields, runId);
}

/** key → created_at of a run's stored records: a record written twice gets a new stamp. */
export async function recordStamps(
	page: PageEvaluator,
	runId: string
): Promise<Record<string, string>> {
	const rows = await storedRecords<{ key: string; created_at: string }>(page, runId, [
		'key',
		'created_at'
	]);
	return Object.fromEntries(rows.map((r) => [r.key, r.created_at]));
}
