/** A private in-memory IndexedDB per test, so tests never see each other's data. */
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createDB } from '../../../src/lib/db/schema.ts';
import type { IndexedDBDeps, ProbeDB } from '../../../src/lib/db/schema.ts';

export interface TestDB {
	db: ProbeDB;
	deps: IndexedDBDeps;
	/** A second, independent connection to the same database: what a reloaded page would see. */
	reopen: () => ProbeDB;
}

export function testDB(name = 'user-turn-probe-test'): TestDB {
	const deps: IndexedDBDeps = { indexedDB: new IDBFactory(), IDBKeyRange };
	return { db: createDB(name, deps), deps, reopen: () => createDB(name, deps) };
}

/** A clock that advances one second per call, for ordered timestamps. */
export function steppingClock(start = Date.parse('2026-05-01T00:00:00Z')): () => Date {
	let t = start;
	return () => new Date((t += 1000));
}
