/**
 * The results view's ResultsSource over the app's database: DexieRunStore's queries, plus a run's
 * answers, which the store has no list query for (one indexed read of about one row per item).
 */
import type { DexieRunStore } from '../db/runs.ts';
import type { ProbeDB } from '../db/schema.ts';
import type { ResultsSource } from './results.svelte.ts';

export function resultsSource(store: DexieRunStore, db: Pick<ProbeDB, 'answers'>): ResultsSource {
	return {
		getRun: (runId) => store.getRun(runId),
		getRecords: (runId) => store.getRecords(runId),
		getFacts: (runId) => store.getFacts(runId),
		listRuns: () => store.listRuns(),
		firstRecords: (runId, limit) => store.firstRecords(runId, limit),
		countRecords: (runId, filter) => store.countRecords(runId, filter),
		getAnswers: (runId) => db.answers.where('run_id').equals(runId).toArray()
	};
}
