/** The runs list's follow-up rate is the run page's: verdicts counted, cut probes left out. */
import { afterEach, describe, expect, it } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import type { ProbeDB } from '../../../src/lib/db/schema.ts';
import { answerFacts, resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { RunsState } from '../../../src/lib/state/runs.svelte.ts';
import { makeAnswer, makeBundle } from '../../helpers/factories.ts';
import { testDB } from '../db/helpers.ts';
import { rated } from '../../helpers/rate.ts';

let opened: ProbeDB[] = [];
afterEach(() => {
	opened.forEach((db) => db.close());
	opened = [];
});

describe('RunsState counts', () => {
	it('gives each run the results table’s whole-run follow-up rate, by verdict', async () => {
		const { db } = testDB('runs-counts');
		opened.push(db);
		const store = new DexieRunStore(db);
		const bundle = makeBundle(24, 'verdicts');
		// A judge whose verdict differs from its category's (a plausible but ungrounded turn), and
		// an answer cut while still reasoning.
		bundle.records = bundle.records.map((r, i) =>
			i % 4 === 0 ? { ...r, label: 'genuine_followup', verdict: 'not_genuine' } : r
		);
		const items = [...new Set(bundle.records.map((r) => r.item_id))];
		bundle.answers = items.map((item_id, i) =>
			makeAnswer({
				run_id: 'verdicts',
				item_id,
				...(i === 0 ? { finish_reason: 'length' as const, answer: '' } : {})
			})
		);
		await store.importRun(bundle);
		const state = new RunsState(
			store,
			() => {},
			async () => []
		);
		await state.load();
		const want = resultsTable(bundle.records, bundle.answers.map(answerFacts)).overall;
		const [entry] = state.runs;
		expect(entry.followup).toEqual(want.followup);
		expect(entry.records).toBe(bundle.records.length);
		// Not vacuous: counting labels would give another rate, and the cut item's probes are out.
		const byLabel = bundle.records.filter((r) => r.label === 'genuine_followup').length;
		expect(rated(want.followup).k).not.toBe(byLabel);
		expect(want.cut_reasoning).toBeGreaterThan(0);
	});
});
