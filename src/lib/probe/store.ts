/**
 * Where the pipeline puts what it makes, the moment it exists. Dexie implements it in the browser,
 * JSONL files in the CLI, a Map in the tests. The pipeline never reads storage any other way.
 */
import type { AnswerRecord, Label, ProbeRecord, RunManifest } from './types.ts';

/**
 * A stored record as resume sees it: a labeled one may be only its key and label (all resume needs
 * of it, so a store need not hold 100k whole records in memory); one waiting for its label is whole.
 */
export type StoredRecord = ProbeRecord | { key: string; label: Label };

/**
 * The records a run already stored, as resume asks for them: one planned key at a time. A Map of
 * the records by key is one; the CLI's store answers from its index without a string per record.
 */
export interface StoredRecords {
	get(key: string): StoredRecord | undefined;
}

export interface RunStore {
	putManifest(manifest: RunManifest): Promise<void>;
	getManifest(runId: string): Promise<RunManifest | undefined>;
	getAnswer(runId: string, itemId: string): Promise<AnswerRecord | undefined>;
	/** Must be durable when the promise resolves: a reload right after loses nothing. */
	putAnswer(answer: AnswerRecord): Promise<void>;
	/** Insert or replace by (run_id, key): judging fills in a record written before it. */
	putRecord(record: ProbeRecord): Promise<void>;
	/** All records of a run, any order. Resume reads keys and pending judgments from here. */
	getRecords(runId: string): Promise<ProbeRecord[]>;
	/** What resume reads, when the store can give less than getRecords (the CLI's files). */
	getResumeRecords?(runId: string): Promise<StoredRecords>;
}

/** The simplest correct RunStore; the pipeline tests and the bench use it. */
export class MemoryStore implements RunStore {
	readonly manifests = new Map<string, RunManifest>();
	readonly answers = new Map<string, AnswerRecord>();
	readonly records = new Map<string, ProbeRecord>();

	async putManifest(manifest: RunManifest): Promise<void> {
		this.manifests.set(manifest.run_id, structuredClone(manifest));
	}
	async getManifest(runId: string): Promise<RunManifest | undefined> {
		return this.manifests.get(runId);
	}
	async getAnswer(runId: string, itemId: string): Promise<AnswerRecord | undefined> {
		return this.answers.get(`${runId}\u0000${itemId}`);
	}
	async putAnswer(answer: AnswerRecord): Promise<void> {
		this.answers.set(`${answer.run_id}\u0000${answer.item_id}`, structuredClone(answer));
	}
	async putRecord(record: ProbeRecord): Promise<void> {
		this.records.set(`${record.run_id}\u0000${record.key}`, structuredClone(record));
	}
	async getRecords(runId: string): Promise<ProbeRecord[]> {
		return [...this.records.values()].filter((r) => r.run_id === runId);
	}
}
