/** The datasets module's public surface: load a named set, import a user's file, sample items. */
export {
	DATASETS,
	datasetCacheKey,
	gpqaSubsetOf,
	loadDataset,
	OASST_FIRST_TURNS_WHERE
} from './registry.ts';
export type { DatasetCache, DatasetInfo, DatasetName, LoadDatasetOptions } from './registry.ts';
export { demoItems } from './demo.ts';
export { DatasetError, DatasetImportError } from './errors.ts';
export { fetchAllRowEntries, fetchAllRows, HF_DATASETS_SERVER, PAGE_ROWS_MAX } from './hfRows.ts';
export type { FetchLike, FetchResponseLike, FetchRowsOptions, HfRow } from './hfRows.ts';
export { parseUserDataset } from './importFile.ts';
export {
	normalizeGsm8kRow,
	normalizeIfbenchRow,
	normalizeIfevalRow,
	normalizeOasstRow
} from './normalize.ts';
export {
	cleanHfToken,
	GPQA_CHOICE_NOTE,
	GPQA_IMPORT_HINT,
	GPQA_PAGE,
	GpqaAccessError,
	HF_TOKENS_PAGE,
	loadGpqa,
	parseGpqaCsv
} from './gpqa.ts';
export type { GpqaAccessReason, GpqaSubset } from './gpqa.ts';
