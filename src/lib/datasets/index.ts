/**
 * The datasets module's public surface: load a named set, sample items. A user's file is parsed by
 * importFile.ts, imported where a file is chosen: its CSV parser is not needed before that.
 */
export {
	DATASET_NAMES,
	DATASETS,
	datasetCacheKey,
	datasetHelp,
	datasetOptions,
	isDatasetName,
	loadDataset,
	OFFLINE_DATASET
} from './registry.ts';
export type { DatasetCache, DatasetInfo, DatasetName, LoadDatasetOptions } from './registry.ts';
export type { TaskDefinition } from './tasks/task.ts';
export { DatasetError, DatasetImportError } from './errors.ts';
export { fetchAllRowEntries, fetchAllRows, HF_DATASETS_SERVER, PAGE_ROWS_MAX } from './hfRows.ts';
export type { FetchRowsOptions, HfRow } from './hfRows.ts';
export type { DatasetFetch } from './http.ts';
export { cleanHfToken, GpqaAccessError, HF_TOKENS_PAGE } from './tasks/gpqa.ts';
export type { GpqaAccessReason } from './tasks/gpqa.ts';
