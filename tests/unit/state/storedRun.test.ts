import { describe, expect, it } from 'vitest';
import { initialManifest } from '../../../src/lib/setup/runInputs.ts';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { StoredRun, summarize, type StoredTurn } from '../../../src/lib/state/storedRun.svelte.ts';
import { resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { probeConfig, makeRecord } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { testDB } from '../db/helpers.ts';

async function manifest(status: 'paused' | 'done' | 'running' = 'paused', engine = 'openai') {
	const m = await initialManifest(probeConfig(), {
		engine,
		template: fixtureTemplate(),
		appVersion: 't'
	});
	return { ...m, status };
}

describe('summarize', () => {
	it('counts planned, stored and labelled turns and the tally', async () => {
		const records = [
			makeRecord({ run_id: 'run-1', key: 'item-0|0|none|0' }),
			makeRecord({ run_id: 'run-1', key: 'item-0|0|none|1', label: 'degenerate' }),
			makeRecord({ run_id: 'run-1', key: 'item-0|0|truncate|0', label: null, label_source: null })
		];
		const v = summarize(await manifest(), records, true);
		// 5 items × 3 perturbations × (1 greedy turn at T=0 + 2 samples at each of T=0.7 and 1).
		expect(v.planned).toBe(5 * 3 * (1 + 2 + 2));
		expect(v.stored).toBe(3);
		expect(v.labelled).toBe(2);
		expect(v.tally).toEqual(resultsTable(records, []).overall);
		expect(v.tally.labels).toMatchObject({ genuine_followup: 1, degenerate: 1 });
		expect(v.tally.pending).toBe(1);
		expect(v.resumable).toBe(true);
	});

	it.each([
		['done', 'openai', true, false],
		['running', 'webllm', true, true],
		['paused', 'openai', false, false],
		['paused', 'wllama', true, true],
		// A kind's own name reads too; an engine no provider names cannot resume here.
		['paused', 'server', true, true],
		['paused', 'scripted', true, false]
	] as const)(
		'status %s on %s with inputs=%s → resumable %s',
		async (status, engine, inputs, expected) => {
			expect(summarize(await manifest(status, engine), [], inputs).resumable).toBe(expected);
		}
	);
});

describe('StoredRun', () => {
	it('says when the run is missing, and a later load wins over an earlier one', async () => {
		const s = new StoredRun();
		await s.load('nope', {
			getManifest: async () => undefined,
			getFacts: async () => [],
			hasInputs: async () => false
		});
		expect(s.missing).toBe(true);
		const m = await manifest();
		let release: () => void = () => {};
		const slow = s.load('r', {
			getManifest: () => new Promise((r) => (release = () => r({ ...m, run_id: 'old' }))),
			getFacts: async () => [],
			hasInputs: async () => true
		});
		await s.load('r', {
			getManifest: async () => m,
			getFacts: async () => [],
			hasInputs: async () => true
		});
		release();
		await slow;
		expect(s.view?.manifest.run_id).toBe('run-1');
		expect(s.missing).toBe(false);
	});
});

describe('StoredRun from facts', () => {
	it('counts the same from a run’s stored facts as from its full records', async () => {
		const store = new DexieRunStore(testDB('stored-run-facts').db);
		const m = await manifest('paused');
		await store.putManifest(m);
		const records = [
			makeRecord({ run_id: 'run-1', key: 'item-0|0|none|0' }),
			makeRecord({
				run_id: 'run-1',
				key: 'item-0|0|none|1',
				label: 'degenerate',
				label_source: 'rules'
			}),
			makeRecord({
				run_id: 'run-1',
				key: 'item-1|0|none|0',
				item_id: 'item-1',
				label: 'meta_planning'
			}),
			makeRecord({ run_id: 'run-1', key: 'item-1|0|truncate|0', item_id: 'item-1', label: null })
		];
		for (const r of records) await store.putRecord(r);
		// Judged later: stored again under the same key, counted once.
		await store.putRecord({ ...records[3], label: 'genuine_followup', label_source: 'judge' });
		const load = async (getFacts: (runId: string) => Promise<StoredTurn[]>) => {
			const s = new StoredRun();
			await s.load('run-1', {
				getManifest: (id) => store.getManifest(id),
				getFacts,
				hasInputs: async () => true
			});
			return s.view;
		};
		const fromRecords = await load((id) => store.getRecords(id));
		const fromFacts = await load((id) => store.getFacts(id));
		expect(fromFacts).toEqual(fromRecords);
		expect(fromFacts).toMatchObject({
			stored: 4,
			labelled: 4,
			tally: { labels: { genuine_followup: 2, degenerate: 1, meta_planning: 1 } }
		});
	});
});
