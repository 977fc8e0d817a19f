/** Other runs' points from index counts and answers equal the points computed from their records. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import type { ProbeDB } from '../../../src/lib/db/schema.ts';
import type { Perturbation, ProbeRecord } from '../../../src/lib/probe/types.ts';
import { RecordsCache, ResultsState } from '../../../src/lib/state/results.svelte.ts';
import { runPoint } from '../../../src/lib/results/resultsData.ts';
import { resultsSource } from '../../../src/lib/app/resultsSource.ts';
import { testDB } from '../db/helpers.ts';
import { makeAnswer, makeManifest, makeSyntheticRun } from '../../helpers/factories.ts';

let opened: ProbeDB[] = [];
afterEach(() => {
	opened.forEach((db) => db.close());
	opened = [];
});

async function storeRun(
	store: DexieRunStore,
	runId: string,
	created_at: string,
	temperatures: number[],
	perturbations: Perturbation[],
	edit: (r: ProbeRecord, i: number) => ProbeRecord = (r) => r
): Promise<ProbeRecord[]> {
	const records = makeSyntheticRun({
		seed: runId.length * 7,
		items: 15,
		samples: 2,
		temperatures,
		perturbations,
		pending: 0.1
	})
		.map((r) => ({ ...r, run_id: runId }))
		.map(edit);
	const manifest = makeManifest({ run_id: runId, created_at });
	manifest.config.temperatures = temperatures;
	manifest.config.perturbations = perturbations;
	const items = new Map(records.map((r) => [r.item_id, r.correct]));
	const answers = [...items].map(([item_id, correct]) =>
		makeAnswer({ run_id: runId, item_id, correct })
	);
	await store.importRun({ manifest, records, answers });
	return records;
}

describe('results source over Dexie', () => {
	it('gives other runs the same points as their records would, without reading them', async () => {
		const { db } = testDB('results-source');
		opened.push(db);
		const store = new DexieRunStore(db);
		await storeRun(store, 'now', '2026-05-03T00:00:00Z', [0.5], ['none']);
		const warm = await storeRun(
			store,
			'warm',
			'2026-05-02T00:00:00Z',
			[1, 0.7],
			['truncate', 'none']
		);
		// A judge's verdict may differ from its label's: the verdict is what counts, in every view.
		const cut = await storeRun(store, 'cut', '2026-05-01T00:00:00Z', [0], ['truncate'], (r, i) =>
			r.label !== null && i % 3 === 0
				? { ...r, label: 'prompt_restatement', verdict: 'genuine' }
				: r
		);

		const source = resultsSource(store);
		const read = vi.spyOn(source, 'getRecords');
		const state = new ResultsState(source, { cache: new RecordsCache(), later: (w) => w() });
		await state.load('now');
		await vi.waitFor(() => expect(state.runPoints).toHaveLength(3));
		// 'now' fits in the first page of rows, so it is complete without a full read; the other
		// runs' records are never read.
		expect(state.recordsComplete).toBe(true);
		expect(state.records).toEqual(await store.getRecords('now'));
		expect(read.mock.calls).toEqual([]);

		const name = (date: string) => `Qwen3-0.6B-q4f16_1-MLC · gsm8k, ${date}`;
		expect(state.runPoints[1]).toEqual(runPoint(name('2026-05-02'), warm));
		expect(state.runPoints[1].name).toMatch(/\(T=0\.7\)$/);
		expect(state.runPoints[2]).toEqual(runPoint(name('2026-05-01'), cut));
		expect(state.runPoints[2].name).toMatch(/\(all conditions\)$/);
	});
});
