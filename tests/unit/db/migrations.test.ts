import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import {
	deriveLabelSource,
	SCHEMA_V1,
	SCHEMA_V4,
	type ProbeRecordV1,
	type RunRowV1
} from '../../../src/lib/db/migrations.ts';
import { ofRun } from '../../../src/lib/db/ranges.ts';
import { createDB } from '../../../src/lib/db/schema.ts';
import type { IndexedDBDeps } from '../../../src/lib/db/schema.ts';
import { makeManifest, makeRecord } from '../../helpers/factories.ts';
import { testDB } from './helpers.ts';

/** A v1 record as the prototype wrote it: no label_source field at all. */
function v1Record(overrides: Partial<ProbeRecordV1>): ProbeRecordV1 {
	const { label_source: _drop, ...rest } = makeRecord();
	return { ...rest, ...overrides };
}

/** Writes rows with the v1 schema, exactly as an old tab would have, then closes. */
async function seedV1(
	name: string,
	deps: IndexedDBDeps,
	runs: RunRowV1[],
	records: ProbeRecordV1[]
) {
	const old = new Dexie(name, deps);
	old.version(1).stores(SCHEMA_V1);
	await old.table('runs').bulkAdd(runs);
	await old.table('records').bulkAdd(records);
	await old.table('answers').add({ run_id: 'old', item_id: 'gsm8k-0', answer: '72' });
	await old
		.table('templates')
		.put({ repo: 'Qwen/Qwen3-0.6B', template: '{{x}}', sha256: 'h', fetched_at: 'f' });
	old.close();
}

describe('version 1 → 2 migration', () => {
	it('lifts run status out of the manifest and stamps updated_at', async () => {
		const { deps } = testDB();
		await seedV1(
			'mig',
			deps,
			[
				{
					run_id: 'old',
					manifest: makeManifest({ run_id: 'old', status: 'paused' }),
					created_at: '2026-01-01'
				},
				{ run_id: 'done', manifest: makeManifest({ run_id: 'done' }), created_at: '2026-01-02' }
			],
			[]
		);
		const db = createDB('mig', deps);
		const runs = await db.runs.orderBy('created_at').toArray();
		expect(db.verno).toBe(6);
		expect(runs.map((r) => [r.run_id, r.status, r.updated_at])).toEqual([
			['old', 'paused', '2026-01-01'],
			['done', 'done', '2026-01-02']
		]);
		// The new status index works on migrated rows.
		expect(await db.runs.where('status').equals('paused').primaryKeys()).toEqual(['old']);
		db.close();
	});

	it('fills in label_source on every old record and keeps everything else', async () => {
		const { deps } = testDB();
		const records = [
			v1Record({ run_id: 'old', key: 'judged', label: 'degenerate', judge_label: 'degenerate' }),
			v1Record({ run_id: 'old', key: 'ruled', label: 'prompt_restatement', judge_label: null }),
			v1Record({ run_id: 'old', key: 'pending', label: null, judge_label: null })
		];
		await seedV1('mig', deps, [], records);
		const db = createDB('mig', deps);
		const migrated = await ofRun(db.records, 'old').toArray();
		const byKey = Object.fromEntries(migrated.map((r) => [r.key, r]));
		expect(byKey.judged.label_source).toBe('judge');
		expect(byKey.ruled.label_source).toBe('rules');
		expect(byKey.pending.label_source).toBeNull();
		expect(byKey.judged.user_turn).toBe(records[0].user_turn);
		// And the new [run_id+label] index now finds them.
		expect(await db.records.where('[run_id+label]').equals(['old', 'degenerate']).count()).toBe(1);
		db.close();
	});

	it('keeps answers and cached templates, and adds an empty annotations table', async () => {
		const { deps } = testDB();
		await seedV1('mig', deps, [], []);
		const db = createDB('mig', deps);
		expect((await db.answers.get(['old', 'gsm8k-0']))?.answer).toBe('72');
		expect(await db.answers.where('run_id').equals('old').count()).toBe(1);
		expect((await db.templates.get('Qwen/Qwen3-0.6B'))?.template).toBe('{{x}}');
		expect(await db.annotations.count()).toBe(0);
		await db.annotations.add({
			run_id: 'old',
			key: 'k',
			annotator: 'a',
			label: 'degenerate',
			created_at: 'c'
		});
		expect(await db.annotations.count()).toBe(1);
		db.close();
	});

	it('leaves a record that already had label_source alone', async () => {
		const { deps } = testDB();
		const odd = {
			...makeRecord({ run_id: 'old', label: 'degenerate', judge_label: 'degenerate' }),
			label_source: 'rules' as const
		};
		await seedV1('mig', deps, [], [odd]);
		const db = createDB('mig', deps);
		expect((await db.records.get(['old', odd.key]))?.label_source).toBe('rules');
		db.close();
	});
});

describe('deriveLabelSource', () => {
	const CASES: [string, Partial<ProbeRecordV1>, ReturnType<typeof deriveLabelSource>][] = [
		['pending record', { label: null, judge_label: null }, null],
		[
			'label equal to the judge label',
			{ label: 'meta_planning', judge_label: 'meta_planning' },
			'judge'
		],
		['label without a judge label', { label: 'degenerate', judge_label: null }, 'rules'],
		[
			'label that overrides the judge',
			{ label: 'degenerate', judge_label: 'genuine_followup' },
			'rules'
		],
		['judge_error from the judge', { label: 'judge_error', judge_label: 'judge_error' }, 'judge']
	];
	it.each(CASES)('%s', (_name, patch, expected) => {
		expect(deriveLabelSource(v1Record(patch))).toBe(expected);
	});
});

describe('version 4 → 5 migration', () => {
	it("moves each run's items and template out of the caches into runInputs", async () => {
		const { deps } = testDB();
		const old = new Dexie('mig5', deps);
		old.version(4).stores(SCHEMA_V4);
		const items = [{ id: 'i1', task: 'none', prompt: 'Hi?' }];
		await old.table('datasets').bulkPut([
			{ key: 'run:r1', items, fetched_at: '2026-11-01T00:00:00.000Z' },
			{ key: 'run:half', items, fetched_at: '2026-11-01T00:00:00.000Z' },
			{ key: 'gsm8k/test@v1', items: [], fetched_at: 'f' }
		]);
		await old.table('templates').bulkPut([
			{ repo: 'run:r1', template: '{"chat_template":"x"}', sha256: 'h', fetched_at: 'f' },
			{ repo: 'Qwen/Qwen3-0.6B', template: '{{x}}', sha256: 'h2', fetched_at: 'f' }
		]);
		old.close();

		const db = createDB('mig5', deps);
		expect(db.verno).toBe(6);
		expect(await db.runInputs.toArray()).toEqual([
			{
				run_id: 'r1',
				items,
				template: '{"chat_template":"x"}',
				created_at: '2026-11-01T00:00:00.000Z'
			}
		]);
		// The caches keep only cache entries; a half pair (never written by the app) is dropped.
		expect((await db.datasets.toArray()).map((d) => d.key)).toEqual(['gsm8k/test@v1']);
		expect((await db.templates.toArray()).map((t) => t.repo)).toEqual(['Qwen/Qwen3-0.6B']);
		db.close();
	});
});
