/**
 * Every browser store over one database, made together the first time any of them is used. The
 * services (app/services.ts) import this module with import(), so Dexie and the store code load
 * with the first read or write, not with the views that hold a store.
 */
import { AnnotationStore } from './annotations.ts';
import { dexieAnnotationBackend } from './annotationBackend.ts';
import { DexieBenchmarkStore } from './benchmarks.ts';
import { DexieDatasetCache, DexieTemplateCache } from './caches.ts';
import { DexieRunInputs } from './runInputs.ts';
import { DexieRunStore } from './runs.ts';
import type { ProbeDB } from './schema.ts';
import type { AnnotationBackend } from '../annotate/backend.ts';

/** The browser's database (IndexedDB, through Dexie), from the same lazily loaded module. */
export { createDB } from './schema.ts';

export interface BrowserStores {
	runs: DexieRunStore;
	/** Each run's own items and template, for resuming offline. */
	inputs: DexieRunInputs;
	benchmarks: DexieBenchmarkStore;
	annotations: AnnotationBackend;
	templates: DexieTemplateCache;
	datasets: DexieDatasetCache;
}

export function storesOver(db: ProbeDB): BrowserStores {
	const runs = new DexieRunStore(db);
	return {
		runs,
		inputs: new DexieRunInputs(db, runs),
		benchmarks: new DexieBenchmarkStore(db),
		annotations: dexieAnnotationBackend(runs, new AnnotationStore(db)),
		templates: new DexieTemplateCache(db),
		datasets: new DexieDatasetCache(db)
	};
}
