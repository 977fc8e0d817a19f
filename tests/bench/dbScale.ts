/**
 * A run of the paper's size (about 10,000 records) in the browser's store: one import, pages at the
 * start, deep in and filtered, a full read (what resume does), an export and a delete. DexieRunStore
 * over fake-indexeddb in Node, so the figures say how the store's own work grows, not a browser's.
 * Was a timed unit test (tests/unit/db/scale.test.ts), which now checks only what the store returns.
 */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { DexieRunStore } from '../../src/lib/db/runs.ts';
import { createDB } from '../../src/lib/db/schema.ts';
import { makeManifest, makeRecords } from '../helpers/factories.ts';

export const DB_SCALE_RECORDS = 10_000;
export const DB_SCALE_METHOD =
	`${DB_SCALE_RECORDS.toLocaleString('en')} records (tests/helpers/factories.ts makeRecords) in ` +
	'DexieRunStore over fake-indexeddb: importRun once; pages of 50 at offset 0, 9,900 and a ' +
	'label-filtered one at 2,000 (the slowest counts); getRecords, exportRun and deleteRun (the slowest counts). ' +
	'Each step in CPU time of the bench process (user + system; wall time in the detail): a loaded ' +
	'host stretches the wall clock, not the work.';

export interface DbScaleResult {
	importMs: number;
	pageMaxMs: number;
	readAllMaxMs: number;
	detail: string;
}

interface Timed {
	cpuMs: number;
	wallMs: number;
}

/**
 * One step's CPU and wall time. fake-indexeddb does its work in this process, between its own
 * setImmediate turns; nothing else runs in the bench meanwhile, so the process's CPU is the step's.
 */
async function timed<T>(fn: () => Promise<T>): Promise<Timed> {
	const cpu = process.cpuUsage();
	const start = performance.now();
	await fn();
	const { user, system } = process.cpuUsage(cpu);
	return {
		cpuMs: Math.round((user + system) / 1000),
		wallMs: Math.round(performance.now() - start)
	};
}

const cpuOf = (steps: Timed[]) => steps.map((s) => s.cpuMs);
const wallOf = (steps: Timed[]) => steps.map((s) => s.wallMs).join('/');

export async function measureDbScale(): Promise<DbScaleResult> {
	const db = createDB('bench-db-scale', { indexedDB: new IDBFactory(), IDBKeyRange });
	try {
		const store = new DexieRunStore(db);
		// makeRecords repeats keys across its conditions; every record gets its own.
		const records = makeRecords(DB_SCALE_RECORDS).map((r, i) => ({ ...r, key: `${r.key}#${i}` }));
		const imported = await timed(() => store.importRun({ manifest: makeManifest(), records }));
		const pages = [
			await timed(() => store.recordsPage('run-a', { offset: 0, limit: 50 })),
			await timed(() => store.recordsPage('run-a', { offset: 9_900, limit: 50 })),
			await timed(() =>
				store.recordsPage('run-a', { offset: 2_000, limit: 50, filter: { label: 'degenerate' } })
			)
		];
		const reads = [
			await timed(() => store.getRecords('run-a')),
			await timed(() => store.exportRun('run-a')),
			await timed(() => store.deleteRun('run-a'))
		];
		return {
			importMs: imported.cpuMs,
			pageMaxMs: Math.max(...cpuOf(pages)),
			readAllMaxMs: Math.max(...cpuOf(reads)),
			detail:
				`CPU: pages ${cpuOf(pages).join('/')} ms; getRecords/export/delete ${cpuOf(reads).join('/')} ms; ` +
				`wall: import ${imported.wallMs} ms, pages ${wallOf(pages)} ms, reads ${wallOf(reads)} ms`
		};
	} finally {
		db.close();
	}
}
