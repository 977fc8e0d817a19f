import { afterEach, describe, expect, it } from 'vitest';
import { createDB, DB_NAME, ProbeDB } from '../../../src/lib/db/schema.ts';
import { testDB } from './helpers.ts';

let open: ProbeDB[] = [];
afterEach(() => {
	open.forEach((db) => db.close());
	open = [];
});

describe('ProbeDB schema', () => {
	it('uses its own database name by default', () => {
		const db = createDB();
		expect(db.name).toBe(DB_NAME);
		expect(DB_NAME).toBe('user-turn-probe');
	});

	it('does not open anything until first used', async () => {
		const { db } = testDB();
		open.push(db);
		expect(db.isOpen()).toBe(false);
		await db.runs.count();
		expect(db.isOpen()).toBe(true);
	});

	it('opens at version 5 with every table and its primary key', async () => {
		const { db } = testDB();
		open.push(db);
		await db.open();
		expect(db.verno).toBe(6);
		const keys = Object.fromEntries(db.tables.map((t) => [t.name, t.schema.primKey.keyPath]));
		expect(keys).toEqual({
			runs: 'run_id',
			records: ['run_id', 'key'],
			facts: ['run_id', 'key'],
			factPacks: 'run_id',
			answers: ['run_id', 'item_id'],
			annotations: 'id',
			datasets: 'key',
			templates: 'repo',
			benchmarks: 'id',
			runInputs: 'run_id'
		});
	});

	it('keeps only the label index on records and facts: a run is their primary key prefix', async () => {
		const { db } = testDB();
		open.push(db);
		await db.open();
		expect(db.records.schema.indexes.map((i) => i.name)).toEqual(['[run_id+label]']);
		expect(db.facts.schema.indexes).toEqual([]);
		const annotationIndexes = db.annotations.schema.indexes.map((i) => i.name);
		expect(annotationIndexes).toEqual(
			expect.arrayContaining(['[run_id+key]', 'annotator', '[run_id+key+annotator]'])
		);
	});

	it('numbers annotations and benchmarks itself', async () => {
		const { db } = testDB();
		open.push(db);
		const id = await db.benchmarks.add({
			created_at: '2026-05-01T00:00:00Z',
			model_id: 'Qwen3-0.6B-q4f16_1-MLC',
			engine: 'webllm',
			results: { decode_tps: 41.5, prefill_tps: 900 }
		});
		expect(typeof id).toBe('number');
		expect((await db.benchmarks.get(id))?.results.decode_tps).toBe(41.5);
	});

	it('keeps databases with different names apart', async () => {
		const { deps } = testDB();
		const a = new ProbeDB('a', deps);
		const b = new ProbeDB('b', deps);
		open.push(a, b);
		await a.templates.put({ repo: 'Qwen/Qwen3-0.6B', template: 't', sha256: 's', fetched_at: 'f' });
		expect(await b.templates.count()).toBe(0);
	});
});
