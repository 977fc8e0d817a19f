import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { FACT_FIELDS, packFacts, recordFacts, unpackFacts } from '../../../src/lib/db/facts.ts';
import { SCHEMA_V2, SCHEMA_V3, SCHEMA_V5 } from '../../../src/lib/db/migrations.ts';
import { answerFacts, resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { ofRun } from '../../../src/lib/db/ranges.ts';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { createDB } from '../../../src/lib/db/schema.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { makeBundle, makeManifest, makeRecord, makeRecords } from '../../helpers/factories.ts';
import { testDB } from './helpers.ts';

describe('recordFacts', () => {
	it('copies exactly the fact fields and nothing else', () => {
		const r = makeRecord({ label: 'degenerate', judge_label: 'degenerate', correct: false });
		const f = recordFacts(r);
		expect(Object.keys(f).sort()).toEqual([...FACT_FIELDS].sort());
		for (const field of FACT_FIELDS) {
			if (field === 'answer_cut') continue; // derived, below
			// Absent stays absent: a record without a reference turn is not one pending comparison.
			const absent = field === 'reference_grounding' ? undefined : null;
			expect(f[field]).toEqual(r[field] ?? absent);
		}
		expect(f.answer_cut).toBeNull();
	});

	it('says whether the answer was cut, and where, from the record’s own answer fields', () => {
		const cut = (patch: Partial<ProbeRecord>) => recordFacts(makeRecord(patch)).answer_cut;
		expect(cut({ answer_finish_reason: 'stop', answer: '18' })).toBeNull();
		expect(cut({ answer_finish_reason: 'length', answer: 'Janet has 16 - 3' })).toBe('answer');
		expect(cut({ answer_finish_reason: 'length', answer: ' \n' })).toBe('reasoning');
		// A record made before answer_finish_reason was kept cannot say: not cut, its answers say.
		expect(cut({ answer_finish_reason: undefined, answer: '' })).toBeNull();
	});

	it('keeps a packed record without a reference apart from one whose comparison is pending', () => {
		const facts = [
			makeRecord({ key: 'a' }),
			makeRecord({ key: 'b', reference_turn: 'And?', reference_grounding: null }),
			makeRecord({ key: 'c', reference_turn: 'And?', reference_grounding: 'tie' })
		].map(recordFacts);
		const back = unpackFacts(packFacts('run-a', facts));
		expect(back?.map((f) => f.reference_grounding)).toEqual([undefined, null, 'tie']);
	});

	it('gives a record stored before verdicts a null verdict, which counts by its label', () => {
		const r = makeRecord({ label: 'genuine_followup', verdict: undefined });
		expect(recordFacts(r).verdict).toBeNull();
		expect(recordFacts({ ...r, verdict: 'not_genuine' }).verdict).toBe('not_genuine');
	});
});

describe('facts beside records', () => {
	it('putRecord writes the facts, and a re-put (judge label arriving) replaces them', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		const r = makeRecord({ run_id: 'a', key: 'k1', label: null, label_source: null });
		await store.putRecord(r);
		expect(await store.getFacts('a')).toEqual([recordFacts(r)]);
		const judged = { ...r, label: 'genuine_followup' as const, label_source: 'judge' as const };
		await store.putRecord(judged);
		expect(await store.getFacts('a')).toEqual([recordFacts(judged)]);
		db.close();
	});

	it('a record whose facts cannot be written is not written either, and the call rejects', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		const first = makeRecord({ run_id: 'a', key: 'k1' });
		await store.putRecord(first);
		await store.getFacts('a'); // packs them
		db.facts.hook('creating', () => {
			throw new Error('disk on fire');
		});
		await expect(store.putRecord(makeRecord({ run_id: 'a', key: 'k2' }))).rejects.toThrow(
			'disk on fire'
		);
		expect((await db.records.toArray()).map((r) => r.key)).toEqual(['k1']);
		expect(await db.factPacks.count()).toBe(1);
		expect(await store.getFacts('a')).toEqual([recordFacts(first)]);
		db.close();
	});

	it('importRun stores one facts row per record, in key order, and deleteRun removes them', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		const bundle = makeBundle(12, 'a');
		await store.importRun(bundle);
		await store.importRun(makeBundle(3, 'b'));
		const sorted = bundle.records.slice().sort((x, y) => (x.key < y.key ? -1 : 1));
		expect(await store.getFacts('a')).toEqual(sorted.map(recordFacts));
		await store.deleteRun('a');
		expect(await store.getFacts('a')).toEqual([]);
		expect(await store.getFacts('b')).toHaveLength(3);
		db.close();
	});

	it('an import replacing a run replaces its facts too', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		await store.importRun(makeBundle(12, 'a'));
		await store.importRun(makeBundle(4, 'a'), { onConflict: 'replace' });
		expect(await store.getFacts('a')).toHaveLength(4);
		expect(await db.facts.count()).toBe(await db.records.count());
		db.close();
	});
});

describe('packed facts', () => {
	it('an import packs the facts; a record write drops the pack and the next read rebuilds it', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		const bundle = makeBundle(6, 'a');
		await store.importRun(bundle);
		const imported = await db.factPacks.get('a');
		expect(imported && unpackFacts(imported)).toEqual(await ofRun(db.facts, 'a').toArray());

		const changed = {
			...bundle.records[0],
			label: 'degenerate' as const,
			label_source: 'judge' as const
		};
		await store.putRecord(changed);
		expect(await db.factPacks.get('a')).toBeUndefined();
		const facts = await store.getFacts('a');
		expect(facts.find((f) => f.key === changed.key)).toEqual(recordFacts(changed));
		const rebuilt = await db.factPacks.get('a');
		expect(rebuilt && unpackFacts(rebuilt)).toEqual(facts);
		// Served from the pack now, and equal to the rows.
		expect(await store.getFacts('a')).toEqual(facts);
		db.close();
	});

	it('deleting a run deletes its pack', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		await store.importRun(makeBundle(3, 'a'));
		await store.deleteRun('a');
		expect(await db.factPacks.count()).toBe(0);
		expect(await store.getFacts('a')).toEqual([]);
		db.close();
	});
});

describe('version 2 → 3 migration', () => {
	it('fills the facts table from every stored record and keeps the records', async () => {
		const { deps } = testDB();
		const old = new Dexie('mig3', deps);
		old.version(2).stores(SCHEMA_V2);
		const records = [...makeRecords(5, 'x'), ...makeRecords(3, 'y')];
		await old.table('runs').add({
			run_id: 'x',
			manifest: makeManifest({ run_id: 'x' }),
			status: 'done',
			created_at: 'c',
			updated_at: 'u'
		});
		await old.table('records').bulkAdd(records);
		old.close();

		const db = createDB('mig3', deps);
		const store = new DexieRunStore(db);
		expect(db.verno).toBe(6);
		const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
		const xs = records.filter((r) => r.run_id === 'x').sort(byKey);
		expect(await store.getFacts('x')).toEqual(xs.map(recordFacts));
		expect(await store.getFacts('y')).toHaveLength(3);
		expect(await store.getRecords('x')).toEqual(xs);
		db.close();
	});
});

describe('the pack format', () => {
	/** Every field varied, nulls and booleans included, as a real run has them. */
	const facts = makeRecords(600, 'a').map((r, i) =>
		recordFacts({
			...r,
			sample: i % 3,
			correct: i % 5 === 0 ? null : i % 2 === 0,
			judge_label: i % 4 === 0 ? null : r.label,
			label: i % 7 === 0 ? null : r.label,
			label_source: i % 7 === 0 ? null : 'judge',
			rule_label: i % 3 === 0 ? 'undecided' : 'degenerate',
			finish_reason: i % 9 === 0 ? 'length' : 'stop',
			answer_finish_reason: i % 11 === 0 ? 'length' : i % 13 === 0 ? undefined : 'stop',
			answer: i % 2 === 0 ? '' : 'The answer is 18.'
		})
	);

	it('round-trips every field of every record, in order', () => {
		expect(unpackFacts(packFacts('a', facts))).toEqual(facts);
		expect(unpackFacts(packFacts('a', []))).toEqual([]);
	});

	it('is much smaller than the facts as plain JSON', () => {
		const plain = JSON.stringify(facts).length;
		expect(packFacts('a', facts).facts.length).toBeLessThan(plain * 0.3);
	});

	it('a pack in an older format counts as absent: getFacts rebuilds it from the rows', async () => {
		const { db } = testDB();
		const store = new DexieRunStore(db);
		const bundle = makeBundle(6, 'a');
		await store.importRun(bundle);
		const rows = await ofRun(db.facts, 'a').toArray();
		// Format 1 (no format field) held the facts array itself, here deliberately wrong.
		await db.factPacks.put({ run_id: 'a', facts: JSON.stringify(rows.slice(0, 1)) });
		expect(unpackFacts({ run_id: 'a', facts: '[]' })).toBeUndefined();
		expect(await store.getFacts('a')).toEqual(rows);
		const rebuilt = await db.factPacks.get('a');
		expect(rebuilt && unpackFacts(rebuilt)).toEqual(rows);
		db.close();
	});
});

describe('version 3 → 4 migration', () => {
	it('drops the run_id and column indexes and keeps every row; filters still work', async () => {
		const { deps } = testDB();
		const old = new Dexie('mig4', deps);
		old.version(3).stores(SCHEMA_V3);
		const records = [...makeRecords(12, 'x'), ...makeRecords(4, 'y')];
		await old.table('records').bulkAdd(records);
		await old.table('facts').bulkAdd(records.map(recordFacts));
		old.close();

		const db = createDB('mig4', deps);
		const store = new DexieRunStore(db);
		expect(await db.records.count()).toBe(16);
		expect(db.verno).toBe(6);
		expect(db.records.schema.indexes.map((i) => i.name)).toEqual(['[run_id+label]']);
		expect((await store.getRecords('x')).map((r) => r.key).sort()).toEqual(
			records
				.filter((r) => r.run_id === 'x')
				.map((r) => r.key)
				.sort()
		);
		const want = records.filter((r) => r.run_id === 'x' && r.temperature === 0);
		const page = await store.recordsPage('x', {
			offset: 0,
			limit: 100,
			filter: { temperature: 0 }
		});
		expect(page.total).toBe(want.length);
		expect(await store.countRecords('y')).toBe(4);
		db.close();
	});
});

describe('version 5 → 6 migration', () => {
	it('gives the stored facts of cut answers their cut, so a run without answers counts them', async () => {
		const { deps } = testDB();
		const old = new Dexie('mig6', deps);
		old.version(5).stores(SCHEMA_V5);
		// Imported as records + manifest only: no answers. Item 1 cut mid-answer, item 2 in reasoning.
		const records = makeRecords(12, 'x').map((r, i) => {
			const item = i % 3;
			return {
				...r,
				item_id: `item-${item}`,
				answer_finish_reason: item === 0 ? ('stop' as const) : ('length' as const),
				answer: item === 2 ? '' : 'Janet has 16 - 3'
			};
		});
		await old.table('runs').add({
			run_id: 'x',
			manifest: makeManifest({ run_id: 'x' }),
			status: 'done',
			created_at: 'c',
			updated_at: 'u'
		});
		await old.table('records').bulkAdd(records);
		// The facts as version 5 wrote them (no answer_cut), and a pack in format 4, which must not
		// be read (here deliberately one fact only).
		const v5Facts = records.map((r) => {
			const { answer_cut: _cut, ...rest } = recordFacts(r);
			return rest;
		});
		await old.table('facts').bulkAdd(v5Facts);
		const stale = packFacts('x', records.slice(0, 1).map(recordFacts));
		await old.table('factPacks').put({ ...stale, format: 4 });
		old.close();

		const db = createDB('mig6', deps);
		const store = new DexieRunStore(db);
		expect(db.verno).toBe(6);
		const facts = await store.getFacts('x');
		const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1);
		expect(facts).toEqual([...records].sort(byKey).map(recordFacts));
		expect(new Set(facts.map((f) => `${f.item_id}:${f.answer_cut}`))).toEqual(
			new Set(['item-0:null', 'item-1:answer', 'item-2:reasoning'])
		);
		// Counted as summarize counts the same records: both cut items out of accuracy, one's
		// probes out of the follow-up rate.
		const table = resultsTable(facts, (await store.getAnswers('x')).map(answerFacts));
		expect([table.cut_answers, table.cut_reasoning_items]).toEqual([2, 1]);
		expect(table).toEqual(resultsTable(records, []));
		// The records themselves are untouched.
		expect(await store.getRecords('x')).toEqual([...records].sort(byKey));
		db.close();
	});

	it('opens a version 5 database whose facts say nothing of cuts, counting by the answers', async () => {
		const { deps } = testDB();
		const old = new Dexie('mig6-plain', deps);
		old.version(5).stores(SCHEMA_V5);
		const records = makeRecords(4, 'y').map((r) => ({ ...r, answer_finish_reason: undefined }));
		await old.table('records').bulkAdd(records);
		await old.table('facts').bulkAdd(
			records.map((r) => {
				const { answer_cut: _cut, ...rest } = recordFacts(r);
				return rest;
			})
		);
		old.close();
		const db = createDB('mig6-plain', deps);
		const facts = await new DexieRunStore(db).getFacts('y');
		expect(facts.map((f) => f.answer_cut)).toEqual([null, null, null, null]);
		expect(resultsTable(facts, []).cut_answers).toBe(0);
		db.close();
	});
});
