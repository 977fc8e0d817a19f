/**
 * The app's IndexedDB database, typed. One database ('user-turn-probe') for runs, their records,
 * answers and annotations, plus caches of datasets and chat templates and device benchmarks.
 * Nothing opens at import time: `createDB()` builds an instance, Dexie opens it on first use.
 */
import { Dexie } from 'dexie';
import type { EntityTable, Table } from 'dexie';
import type { Annotation } from '../probe/exchange.ts';
import type { AnswerRecord, DatasetItem, ProbeRecord, RunManifest } from '../probe/types.ts';
import type { FactsPackRow, RecordFacts } from './facts.ts';
import {
	SCHEMA_V1,
	SCHEMA_V2,
	SCHEMA_V3,
	SCHEMA_V4,
	SCHEMA_V5,
	SCHEMA_V6,
	upgradeToV2,
	upgradeToV3,
	upgradeToV5,
	upgradeToV6
} from './migrations.ts';

export const DB_NAME = 'user-turn-probe';

export type RunStatus = RunManifest['status'];

/** A run: its manifest, with status and timestamps lifted out so the runs list can index them. */
export interface RunRow {
	run_id: string;
	manifest: RunManifest;
	/** Always equal to manifest.status; DexieRunStore keeps the two in step. */
	status: RunStatus;
	created_at: string;
	updated_at: string;
}

export interface AnnotationRow extends Annotation {
	/** Auto-increment: insertion order, which is what "undo the last one" means. */
	id: number;
}

export interface DatasetRow {
	/** The dataset loader's cache key, e.g. "gsm8k/test@v1". */
	key: string;
	items: DatasetItem[];
	fetched_at: string;
}

export interface TemplateRow {
	/** Hugging Face repo whose chat template this is, e.g. "Qwen/Qwen3-0.6B". */
	repo: string;
	template: string;
	sha256: string;
	fetched_at: string;
}

/** A run's own items and chat template, stored when it is created so it resumes offline. */
export interface RunInputsRow {
	run_id: string;
	items: DatasetItem[];
	/** The template as the app encodes it (tokenizer_config JSON); the app decodes and checks it. */
	template: string;
	created_at: string;
}

/** One measured model on this device: the bench view's history. */
export interface BenchmarkRow {
	id: number;
	created_at: string;
	model_id: string;
	engine: string;
	/** GPU adapter info as reported by WebGPU (vendor, architecture, …). */
	device?: Record<string, string>;
	/** Named measurements with units in the name: prefill_tps, decode_tps, load_ms, … */
	results: Record<string, number>;
}

/** Where Dexie finds IndexedDB: the browser's by default, fake-indexeddb in tests. */
export interface IndexedDBDeps {
	indexedDB: IDBFactory;
	IDBKeyRange: typeof IDBKeyRange;
}

export class ProbeDB extends Dexie {
	// `declare`: class fields would shadow the table properties Dexie defines in `stores()`.
	declare runs: EntityTable<RunRow, 'run_id'>;
	declare records: Table<ProbeRecord, [string, string]>;
	/** One row per record, written in the record's transaction: see facts.ts. */
	declare facts: Table<RecordFacts, [string, string]>;
	/** A run's facts in one row, while its records are unchanged: see facts.ts. */
	declare factPacks: EntityTable<FactsPackRow, 'run_id'>;
	declare answers: Table<AnswerRecord, [string, string]>;
	declare annotations: EntityTable<AnnotationRow, 'id'>;
	declare datasets: EntityTable<DatasetRow, 'key'>;
	declare templates: EntityTable<TemplateRow, 'repo'>;
	declare benchmarks: EntityTable<BenchmarkRow, 'id'>;
	/** What a run needs to resume offline: see runInputs.ts. */
	declare runInputs: EntityTable<RunInputsRow, 'run_id'>;

	constructor(name: string = DB_NAME, deps?: IndexedDBDeps) {
		super(name, {
			...deps,
			// A finished item must survive a crash or a closed tab: ask Chrome to flush on commit.
			chromeTransactionDurability: 'strict'
		});
		this.version(1).stores(SCHEMA_V1);
		this.version(2).stores(SCHEMA_V2).upgrade(upgradeToV2);
		this.version(3).stores(SCHEMA_V3).upgrade(upgradeToV3);
		this.version(4).stores(SCHEMA_V4);
		this.version(5).stores(SCHEMA_V5).upgrade(upgradeToV5);
		this.version(6).stores(SCHEMA_V6).upgrade(upgradeToV6);
	}
}

/** A database handle; opens lazily. Pass fake-indexeddb's objects as `deps` in tests. */
export function createDB(name: string = DB_NAME, deps?: IndexedDBDeps): ProbeDB {
	return new ProbeDB(name, deps);
}
