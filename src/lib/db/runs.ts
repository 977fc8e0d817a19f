/**
 * The browser's RunStore: the pipeline writes through the RunStore methods, the views read through
 * the queries below. Every write outside importRun is its own IndexedDB transaction (records
 * arriving together share one), and Dexie resolves a write only once its transaction has
 * committed, so a resolved put survives a reload.
 */
import type { Annotation, RunBundle } from '../probe/exchange.ts';
import type { RunStore } from '../probe/store.ts';
import type { AnswerRecord, ProbeRecord, RunManifest } from '../probe/types.ts';
import { RunNotFoundError } from './errors.ts';
import { ofRun } from './ranges.ts';
import { countRecords, firstRecords, recordsPage } from './query.ts';
import type { PageRequest, RecordFilter, RecordPage } from './query.ts';
import type { ProbeDB, RunRow, RunStatus } from './schema.ts';
import { packFacts, recordFacts, unpackFacts } from './facts.ts';
import { GroupCommit } from './groupCommit.ts';
import type { RecordFacts } from './facts.ts';
import { deleteRunRows, exportRun, importRun, mergeRunLabels, runTables } from './transfer.ts';
import type { LabelMerge } from '../annotate/merge.ts';
import type { ImportConflict } from './transfer.ts';

export class DexieRunStore implements RunStore {
	readonly #db: ProbeDB;
	readonly #now: () => Date;

	/** `now` stamps updated_at; tests pin it. */
	constructor(db: ProbeDB, now: () => Date = () => new Date()) {
		this.#db = db;
		this.#now = now;
	}

	// ---- RunStore (the pipeline) ----

	/** Insert or replace; the run keeps its first created_at, and its status follows the manifest. */
	async putManifest(manifest: RunManifest): Promise<void> {
		const db = this.#db;
		await db.transaction('rw', db.runs, async () => {
			const existing = await db.runs.get(manifest.run_id);
			await db.runs.put({
				run_id: manifest.run_id,
				manifest,
				status: manifest.status,
				created_at: existing?.created_at ?? manifest.created_at,
				updated_at: this.#now().toISOString()
			});
		});
	}

	async getManifest(runId: string): Promise<RunManifest | undefined> {
		return (await this.#db.runs.get(runId))?.manifest;
	}

	async getAnswer(runId: string, itemId: string): Promise<AnswerRecord | undefined> {
		return this.#db.answers.get([runId, itemId]);
	}

	async putAnswer(answer: AnswerRecord): Promise<void> {
		await this.#db.answers.put(answer);
	}

	/** A run's answers, one per item (one indexed read). */
	async getAnswers(runId: string): Promise<AnswerRecord[]> {
		return this.#db.answers.where('run_id').equals(runId).toArray();
	}

	/**
	 * The records and their facts in one transaction (a reader never sees one without the other);
	 * the runs' packed facts are dropped in it too, so they are never stale. Records that arrive
	 * while one commits share the next transaction (groupCommit.ts); each promise resolves once
	 * its own record is committed.
	 */
	readonly #records = new GroupCommit<ProbeRecord>((records) => {
		const db = this.#db;
		// Not awaited inside: a failed request aborts the transaction, which rejects the outer await.
		return db.transaction('rw', [db.records, db.facts, db.factPacks], () => {
			void db.records.bulkPut(records);
			void db.facts.bulkPut(records.map(recordFacts));
			for (const runId of new Set(records.map((r) => r.run_id))) void db.factPacks.delete(runId);
		});
	});

	/** Copied now, as a put would: a change the caller makes while it waits is not stored. */
	async putRecord(record: ProbeRecord): Promise<void> {
		return this.#records.write(structuredClone(record));
	}

	async getRecords(runId: string): Promise<ProbeRecord[]> {
		return ofRun(this.#db.records, runId).toArray();
	}

	// ---- Queries and commands for the views ----

	/** Newest first. */
	async listRuns(): Promise<RunRow[]> {
		return this.#db.runs.orderBy('created_at').reverse().toArray();
	}

	async getRun(runId: string): Promise<RunRow | undefined> {
		return this.#db.runs.get(runId);
	}

	/** Removes the run with its records, facts, answers and annotations, in one transaction. */
	async deleteRun(runId: string): Promise<void> {
		const db = this.#db;
		await db.transaction('rw', runTables(db), () => deleteRunRows(db, runId));
	}

	/**
	 * The run's record facts (see facts.ts), in key order: from its packed row when it is current,
	 * else from the facts table, packing them for the next read. One transaction, so no record
	 * write can slip between the read and the pack.
	 */
	async getFacts(runId: string): Promise<RecordFacts[]> {
		const db = this.#db;
		// The common case reads one row without a readwrite transaction (which must wait its turn).
		const current = await db.factPacks.get(runId);
		const unpacked = current && unpackFacts(current);
		if (unpacked !== undefined) return unpacked;
		return db.transaction('rw', [db.facts, db.factPacks], async () => {
			const pack = await db.factPacks.get(runId);
			const again = pack && unpackFacts(pack);
			if (again !== undefined) return again;
			const facts = await ofRun(db.facts, runId).toArray();
			if (facts.length > 0) await db.factPacks.put(packFacts(runId, facts));
			return facts;
		});
	}

	/** How many of the run's records match `filter` (all of them without one); see query.ts. */
	async countRecords(runId: string, filter?: RecordFilter): Promise<number> {
		return countRecords(this.#db, runId, filter ?? {}, () => this.getFacts(runId));
	}

	/** The run's first `limit` records in key order, without counting them. */
	async firstRecords(runId: string, limit: number): Promise<ProbeRecord[]> {
		return firstRecords(this.#db, runId, limit);
	}

	async recordsPage(runId: string, req: PageRequest): Promise<RecordPage> {
		return recordsPage(this.#db, runId, req, () => this.getFacts(runId));
	}

	/**
	 * Sets the status on the row and inside its manifest, so an export carries it.
	 * @throws RunNotFoundError if no such run is stored.
	 */
	async setStatus(runId: string, status: RunStatus): Promise<void> {
		const db = this.#db;
		await db.transaction('rw', db.runs, async () => {
			const row = await db.runs.get(runId);
			if (row === undefined) throw new RunNotFoundError(runId);
			await db.runs.put({
				...row,
				status,
				manifest: { ...row.manifest, status },
				updated_at: this.#now().toISOString()
			});
		});
	}

	/** @throws RunNotFoundError if no such run is stored. */
	async exportRun(runId: string): Promise<RunBundle> {
		return exportRun(this.#db, runId);
	}

	/**
	 * Stores a whole run in one transaction; see ImportConflict for an existing run_id.
	 * Returns the run_id used (a new one only with onConflict 'rename').
	 * @throws ExchangeError (invalid bundle) or RunExistsError; either way nothing is written.
	 */
	async importRun(bundle: RunBundle, opts: { onConflict?: ImportConflict } = {}): Promise<string> {
		return importRun(this.#db, bundle, opts.onConflict, this.#now);
	}

	/**
	 * Pools human labels into a stored run, per annotator, conflicts listed (annotate/merge.ts).
	 * @throws ExchangeError (malformed label) or RunNotFoundError; either way nothing is written.
	 */
	async mergeLabels(runId: string, annotations: readonly Annotation[]): Promise<LabelMerge> {
		return mergeRunLabels(this.#db, runId, annotations);
	}
}
