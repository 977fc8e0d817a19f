/**
 * A reference workload that calibrates the per-record overhead to the machine it runs on.
 *
 * The overhead (overhead.ts) is wall time per record of JavaScript, promises and fake-indexeddb.
 * How fast a machine runs that moves with the host: the same code measured 0.45 ms per record on
 * one CI host and 0.93–1.12 ms on another machine of the same kind, so a budget in bare
 * milliseconds failed good work on a slow host and would pass a regression on a fast one.
 *
 * The reference does, per record, what any app must at the least: clone the stored record as
 * JSON and put it into a bare IndexedDB object store (fake-indexeddb, the same library, no Dexie,
 * none of the app's code), awaiting each write as the pipeline does. The budget is then the ratio
 * overhead / reference: how many bare writes' worth of time the app spends per record.
 */
import { IDBFactory } from 'fake-indexeddb';
import type { ProbeRecord } from '../../src/lib/probe/types.ts';
import { median } from './stats.ts';

const STORE = 'records';
/** Puts per timed unit: one alone is a few hundredths of a millisecond, too short to time well. */
const PUTS_PER_UNIT = 10;

function request<T>(req: IDBRequest<T>): Promise<T> {
	return new Promise((resolve, reject) => {
		req.onsuccess = () => resolve(req.result);
		req.onerror = () => reject(req.error);
	});
}

async function openStore(): Promise<IDBDatabase> {
	const open = new IDBFactory().open('bench-reference', 1);
	open.onupgradeneeded = () => {
		// Indexed as the app's records are (by run, by run and label), so a put maintains indexes too.
		const store = open.result.createObjectStore(STORE, { keyPath: ['run_id', 'key'] });
		store.createIndex('run', 'run_id');
		store.createIndex('label', ['run_id', 'label']);
	};
	return request(open);
}

/**
 * The reference, run in short bursts between the overhead run's records so it meets the same
 * machine at the same moment: a loaded host slows both, and their ratio stays.
 */
export class ReferenceSampler {
	readonly wallMs: number[] = [];
	readonly cpuMs: number[] = [];
	#db: IDBDatabase | undefined;

	async open(): Promise<void> {
		this.#db = await openStore();
	}

	/** `units` bare clone-and-puts of `record`, each timed in wall and process CPU time. */
	async burst(record: ProbeRecord, units: number): Promise<void> {
		const db = this.#db;
		if (!db) throw new Error('ReferenceSampler.burst before open()');
		for (let u = 0; u < units; u++) {
			const c0 = process.cpuUsage();
			const t0 = performance.now();
			for (let i = 0; i < PUTS_PER_UNIT; i++) {
				const copy = JSON.parse(JSON.stringify(record)) as ProbeRecord;
				copy.key = `${record.key}#${i}`;
				const tx = db.transaction(STORE, 'readwrite');
				await request(tx.objectStore(STORE).put(copy));
			}
			this.wallMs.push(performance.now() - t0);
			const c = process.cpuUsage(c0);
			this.cpuMs.push((c.user + c.system) / 1000);
		}
	}

	close(): void {
		this.#db?.close();
	}

	get wallMedian(): number {
		return median(this.wallMs);
	}

	get cpuMedian(): number {
		return median(this.cpuMs);
	}
}
