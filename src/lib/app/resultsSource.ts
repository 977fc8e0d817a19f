/** The results view's ResultsSource over the app's run store. */
import type { DexieRunStore } from '../db/runs.ts';
import type { ResultsSource } from '../state/results.svelte.ts';

export function resultsSource(store: DexieRunStore): ResultsSource {
	return {
		getRun: (runId) => store.getRun(runId),
		getRecords: (runId) => store.getRecords(runId),
		getFacts: (runId) => store.getFacts(runId),
		listRuns: () => store.listRuns(),
		firstRecords: (runId, limit) => store.firstRecords(runId, limit),
		getAnswers: (runId) => store.getAnswers(runId)
	};
}
