/**
 * The method names of each browser store, for the stand-ins services.ts hands out before the
 * stores load (deferred.ts). Types only from the stores: importing this loads no Dexie. The
 * compiler rejects a table that misses a method or names one the store lacks.
 */
import type { AnnotationBackend } from '../annotate/backend.ts';
import type { DexieBenchmarkStore } from '../db/benchmarks.ts';
import type { DexieDatasetCache, DexieTemplateCache } from '../db/caches.ts';
import type { DexieRunInputs } from '../db/runInputs.ts';
import type { DexieRunStore } from '../db/runs.ts';
import type { MethodNames } from './deferred.ts';

export const RUN_STORE_METHODS: MethodNames<DexieRunStore> = {
	putManifest: true,
	getManifest: true,
	getAnswer: true,
	putAnswer: true,
	getAnswers: true,
	putRecord: true,
	getRecords: true,
	listRuns: true,
	getRun: true,
	deleteRun: true,
	getFacts: true,
	countRecords: true,
	firstRecords: true,
	recordsPage: true,
	setStatus: true,

	exportRun: true,
	importRun: true,
	mergeLabels: true
};

export const RUN_INPUTS_METHODS: MethodNames<DexieRunInputs> = { createRun: true, get: true };

export const BENCHMARK_STORE_METHODS: MethodNames<DexieBenchmarkStore> = {
	add: true,
	latest: true
};

export const ANNOTATION_BACKEND_METHODS: MethodNames<AnnotationBackend> = {
	load: true,
	add: true,
	undo: true
};

const CACHE_METHODS = { get: true, put: true, clear: true } as const;
export const TEMPLATE_CACHE_METHODS: MethodNames<DexieTemplateCache> = CACHE_METHODS;
export const DATASET_CACHE_METHODS: MethodNames<DexieDatasetCache> = CACHE_METHODS;
