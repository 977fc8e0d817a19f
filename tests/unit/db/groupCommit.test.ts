import { describe, expect, it } from 'vitest';
import { GroupCommit, MAX_GROUP_WRITES } from '../../../src/lib/db/groupCommit.ts';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { makeRecord } from '../../helpers/factories.ts';
import { testDB } from './helpers.ts';

/** A commit the test finishes by hand, recording each batch it was given. */
function manualCommits() {
	const batches: number[][] = [];
	const finish: ((err?: unknown) => void)[] = [];
	const commits = new GroupCommit<number>(
		(items) =>
			new Promise<void>((resolve, reject) => {
				batches.push([...items]);
				finish.push((err) => (err === undefined ? resolve() : reject(err)));
			})
	);
	return { commits, batches, finish };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe('GroupCommit', () => {
	it('writes the first at once and the rest of a burst together in the next commit', async () => {
		const { commits, batches, finish } = manualCommits();
		const done: number[] = [];
		const writes = [1, 2, 3, 4].map((n) => commits.write(n).then(() => done.push(n)));
		await settled();
		expect(batches).toEqual([[1]]);
		finish[0]();
		await settled();
		expect(done).toEqual([1]);
		expect(batches).toEqual([[1], [2, 3, 4]]);
		finish[1]();
		await Promise.all(writes);
		expect(done).toEqual([1, 2, 3, 4]);
	});

	it('never reports a write stored before its commit finished (a crash then reports nothing)', async () => {
		const { commits, finish } = manualCommits();
		let stored = false;
		void commits.write(1).then(() => (stored = true));
		await settled();
		await settled();
		expect(stored).toBe(false); // the tab dies here: nothing was reported
		finish[0]();
		await settled();
		expect(stored).toBe(true);
	});

	it('fails only the write that cannot be stored when its batch fails', async () => {
		const batches: number[][] = [];
		const commits = new GroupCommit<number>(async (items) => {
			batches.push([...items]);
			if (items.includes(3)) throw new Error('DataError: 3 has no key');
		});
		const results = await Promise.allSettled([1, 2, 3, 4].map((n) => commits.write(n)));
		expect(results.map((r) => r.status)).toEqual([
			'fulfilled',
			'fulfilled',
			'rejected',
			'fulfilled'
		]);
		expect(batches).toEqual([[1], [2, 3, 4], [2], [3], [4]]);
	});

	it(`puts at most ${MAX_GROUP_WRITES} writes in one commit`, async () => {
		const sizes: number[] = [];
		const commits = new GroupCommit<number>(async (items) => void sizes.push(items.length));
		await Promise.all(Array.from({ length: 2 * MAX_GROUP_WRITES + 1 }, (_, i) => commits.write(i)));
		expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_GROUP_WRITES);
		expect(sizes.reduce((a, b) => a + b, 0)).toBe(2 * MAX_GROUP_WRITES + 1);
	});
});

describe('DexieRunStore record writes in groups', () => {
	const records = (n: number) =>
		Array.from({ length: n }, (_, i) => makeRecord({ item_id: `gsm8k-${i}` }));

	it('a second connection reading during a burst sees each record with its facts, never one alone', async () => {
		const { db, reopen } = testDB();
		const store = new DexieRunStore(db);
		const other = reopen();
		const writes = records(40).map((r) => store.putRecord(r));
		const seen: [number, number][] = [];
		for (let i = 0; i < 10; i++) {
			seen.push(
				await other.transaction('r', [other.records, other.facts], async () => [
					await other.records.count(),
					await other.facts.count()
				])
			);
		}
		await Promise.all(writes);
		for (const [recordCount, factCount] of seen) expect(recordCount).toBe(factCount);
		expect(await new DexieRunStore(other).getRecords('run-a')).toHaveLength(40);
	});

	it('stores a burst in fewer transactions than records, each durable once it resolves', async () => {
		const { db, reopen } = testDB();
		let transactions = 0;
		const transaction = db.transaction.bind(db) as (...a: unknown[]) => Promise<unknown>;
		(db as unknown as { transaction: typeof transaction }).transaction = (...a) => {
			transactions++;
			return transaction(...a);
		};
		const store = new DexieRunStore(db);
		await Promise.all(records(30).map((r) => store.putRecord(r)));
		expect(transactions).toBeLessThan(30);
		db.close(); // the tab goes away the moment the last write resolved
		expect(await reopen().records.count()).toBe(30);
	});

	it('rejects only the record IndexedDB refuses; the others of its group are stored', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		const bad = {
			...makeRecord({ item_id: 'gsm8k-x' }),
			run_id: undefined
		} as unknown as ProbeRecord;
		const results = await Promise.allSettled(
			[...records(3), bad, ...records(5).slice(3)].map((r) => store.putRecord(r))
		);
		expect(results.map((r) => r.status)).toEqual([
			'fulfilled',
			'fulfilled',
			'fulfilled',
			'rejected',
			'fulfilled',
			'fulfilled'
		]);
		expect(await store.getRecords('run-a')).toHaveLength(5);
	});

	it('stores the record as it was when put, not a change made while it waited', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		const first = store.putRecord(makeRecord({ item_id: 'gsm8k-0' }));
		const record = makeRecord({ item_id: 'gsm8k-1' });
		const second = store.putRecord(record);
		record.user_turn = 'changed while queued';
		await Promise.all([first, second]);
		const stored = await store.getRecords('run-a');
		expect(stored.map((r) => r.user_turn)).not.toContain('changed while queued');
	});
});
