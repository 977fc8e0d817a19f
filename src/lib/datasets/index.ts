/** The datasets module's public surface: load a named set, import a user's file, sample items. */
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
export { parseUserDataset } from './importFile.ts';
export { cleanHfToken, GpqaAccessError, HF_TOKENS_PAGE } from './tasks/gpqa.ts';
export type { GpqaAccessReason } from './tasks/gpqa.ts';
