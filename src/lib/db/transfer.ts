/**
 * Moving whole runs in and out of the database as RunBundles (the exchange format's in-memory
 * form). Import is one transaction: either the whole run is stored or nothing is.
 */
import { ExchangeError, validateAnnotation, validateBundle } from '../probe/exchange.ts';
import { mergeLabels, type LabelMerge } from '../annotate/merge.ts';
import type { Annotation, RunBundle } from '../probe/exchange.ts';
import { RunExistsError, RunNotFoundError } from './errors.ts';
import { packFacts, recordFacts } from './facts.ts';
import { ofRun } from './ranges.ts';
import type { ProbeDB } from './schema.ts';

/**
 * What to do when the bundle's run_id is already stored:
 * - 'refuse' (default): throw RunExistsError and change nothing;
 * - 'replace': delete the stored run (records, answers, annotations) and store the bundle;
 * - 'rename': store the bundle as a copy under the first free id "<run_id>-2", "<run_id>-3", …
 */
export type ImportConflict = 'refuse' | 'replace' | 'rename';

/** Same-run copy of a bundle under another id: every row and the config carry the run_id. */
export function withRunId(b: RunBundle, runId: string): RunBundle {
	return {
		manifest: { ...b.manifest, run_id: runId, config: { ...b.manifest.config, run_id: runId } },
		records: b.records.map((r) => ({ ...r, run_id: runId })),
		answers: b.answers?.map((a) => ({ ...a, run_id: runId })),
		annotations: b.annotations?.map((a) => ({ ...a, run_id: runId }))
	};
}

/** Every table holding a run's rows: what deleting or importing a run writes. */
export function runTables(db: ProbeDB) {
	return [db.runs, db.records, db.facts, db.factPacks, db.answers, db.annotations, db.runInputs];
}

/** Removes a run and everything that belongs to it. Call inside a rw transaction on runTables(db). */
export async function deleteRunRows(db: ProbeDB, runId: string): Promise<void> {
	await Promise.all([
		db.runs.delete(runId),
		ofRun(db.records, runId).delete(),
		ofRun(db.facts, runId).delete(),
		db.factPacks.delete(runId),
		db.answers.where('run_id').equals(runId).delete(),
		db.annotations.where('run_id').equals(runId).delete(),
		db.runInputs.delete(runId)
	]);
}

async function freeRunId(db: ProbeDB, runId: string): Promise<string> {
	for (let n = 2; ; n++) {
		const candidate = `${runId}-${n}`;
		if ((await db.runs.get(candidate)) === undefined) return candidate;
	}
}

/**
 * Stores a bundle, all-or-nothing. Returns the run_id it was stored under (differs only on rename).
 * @throws ExchangeError if the bundle is invalid (nothing is written);
 * @throws RunExistsError if the run exists and onConflict is 'refuse'.
 */
export async function importRun(
	db: ProbeDB,
	bundle: RunBundle,
	onConflict: ImportConflict = 'refuse',
	now: () => Date = () => new Date()
): Promise<string> {
	const problems = validateBundle(bundle);
	if (problems.length > 0) throw new ExchangeError(problems);
	return db.transaction('rw', runTables(db), async () => {
		let b = bundle;
		if ((await db.runs.get(b.manifest.run_id)) !== undefined) {
			if (onConflict === 'refuse') throw new RunExistsError(b.manifest.run_id);
			if (onConflict === 'replace') await deleteRunRows(db, b.manifest.run_id);
			else b = withRunId(b, await freeRunId(db, b.manifest.run_id));
		}
		const m = b.manifest;
		await db.runs.add({
			run_id: m.run_id,
			manifest: m,
			status: m.status,
			created_at: m.created_at,
			updated_at: now().toISOString()
		});
		await db.records.bulkAdd(b.records);
		const facts = b.records.map(recordFacts).sort((x, y) => (x.key < y.key ? -1 : 1));
		await db.facts.bulkAdd(facts);
		await db.factPacks.put(packFacts(m.run_id, facts));
		await db.answers.bulkAdd(b.answers ?? []);
		// An `id` from another database would collide with ours: let this one number them.
		const annotations = (b.annotations ?? []).map((a) => {
			const { id: _id, ...rest } = a as Annotation & { id?: unknown };
			return rest;
		});
		await db.annotations.bulkAdd(annotations);
		return m.run_id;
	});
}

/**
 * A run as a bundle: records sorted by key, answers by item, annotations in the order made.
 * @throws RunNotFoundError if no such run is stored.
 */
export async function exportRun(db: ProbeDB, runId: string): Promise<RunBundle> {
	const tables = [db.runs, db.records, db.answers, db.annotations];
	return db.transaction('r', tables, async () => {
		const row = await db.runs.get(runId);
		if (row === undefined) throw new RunNotFoundError(runId);
		const [records, answers, rows] = await Promise.all([
			ofRun(db.records, runId).toArray(), // in key order: the key is the primary key's tail
			db.answers.where('run_id').equals(runId).sortBy('item_id'),
			db.annotations.where('run_id').equals(runId).sortBy('id')
		]);
		const annotations: Annotation[] = rows.map(({ id: _id, ...a }) => a);
		return { manifest: row.manifest, records, answers, annotations };
	});
}

/**
 * Adds human labels to a stored run, per annotator and beside the labels there (merge.ts), in one
 * transaction. Labels of records the run lacks are left out and counted.
 * @throws ExchangeError if an annotation is malformed; RunNotFoundError if no such run is stored.
 */
export async function mergeRunLabels(
	db: ProbeDB,
	runId: string,
	incoming: readonly Annotation[]
): Promise<LabelMerge> {
	const problems = incoming.flatMap((a, i) =>
		validateAnnotation(a).map((p) => `label ${i + 1}: ${p}`)
	);
	if (problems.length > 0) throw new ExchangeError(problems);
	return db.transaction('rw', [db.runs, db.facts, db.annotations], async () => {
		if ((await db.runs.get(runId)) === undefined) throw new RunNotFoundError(runId);
		const keys = new Set((await ofRun(db.facts, runId).toArray()).map((f) => f.key));
		const stored = await db.annotations.where('run_id').equals(runId).sortBy('id');
		const merge = mergeLabels(stored, incoming, keys);
		await db.annotations.bulkAdd(merge.added.map((a) => ({ ...a, run_id: runId })));
		return merge;
	});
}
