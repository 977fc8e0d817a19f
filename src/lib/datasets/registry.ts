/**
 * The datasets by name, derived from the list in tasks/index.ts: their descriptions, the set-up
 * options, the CLI's help and validation, and one loader with the cache in front. A name stored in
 * an old run still means the same dataset, because names come from the task modules unchanged.
 */
import type { DatasetItem } from '../probe/types.ts';
import { TASKS } from './tasks/index.ts';
import type { TaskDefinition, TaskLoadContext } from './tasks/task.ts';

export type DatasetName = (typeof TASKS)[number]['name'];
export type DatasetInfo = TaskDefinition;

/** The datasets by name. */
export const DATASETS = Object.fromEntries(TASKS.map((t) => [t.name, t])) as Record<
	DatasetName,
	DatasetInfo
>;

export const DATASET_NAMES: readonly DatasetName[] = TASKS.map((t) => t.name);

export function isDatasetName(value: unknown): value is DatasetName {
	return typeof value === 'string' && (DATASET_NAMES as readonly string[]).includes(value);
}

/** The dataset that needs no network: the first choice, and the way out of a failed download. */
export const OFFLINE_DATASET: DatasetName = (
	TASKS.find((t) => 'offline' in t && t.offline) ?? TASKS[0]
).name;

/** Set-up's choices, in list order; gated datasets go in a group of their own. */
export function datasetOptions(): { open: DatasetInfo[]; gated: DatasetInfo[] } {
	const all: DatasetInfo[] = [...TASKS];
	return {
		open: all.filter((t) => !t.needs.hfToken),
		gated: all.filter((t) => t.needs.hfToken)
	};
}

/** The CLI's list of datasets, one aligned line each with what it needs, indented under --dataset. */
export function datasetHelp(indent: string): string {
	const width = Math.max(...DATASET_NAMES.map((n) => n.length)) + 2;
	const needs = (t: DatasetInfo) =>
		(t.needs.hfToken ? '; needs --hf-token' : '') + (t.needs.nlp ? '; fetches NLTK data' : '');
	return TASKS.map((t) => `${indent}${t.name.padEnd(width)}${t.cliHelp}${needs(t)}`).join('\n');
}

/** Where loaded items are kept between sessions (Dexie in the browser, files in the CLI). */
export interface DatasetCache {
	get(key: string): Promise<DatasetItem[] | undefined>;
	put(key: string, items: DatasetItem[]): Promise<void>;
}

export interface LoadDatasetOptions extends TaskLoadContext {
	cache?: DatasetCache;
}

/** `gsm8k@main/test`: names the exact split, so changing a source's split misses the old cache. */
export function datasetCacheKey(name: DatasetName): string | undefined {
	return DATASETS[name].cacheKey;
}

/**
 * All items of a dataset: from the cache when it has them, else loaded and stored in it. The
 * token reaches only a dataset that needs one.
 * @throws DatasetError on HTTP failures, exhausted retries or rows of an unexpected shape.
 * @throws AbortError when `signal` aborts.
 */
export async function loadDataset(
	name: DatasetName,
	opts: LoadDatasetOptions
): Promise<DatasetItem[]> {
	const task = DATASETS[name];
	const key = task.cacheKey;
	const cached = key === undefined ? undefined : await opts.cache?.get(key);
	if (cached) return cached;
	const items = await task.load({ ...opts, token: task.needs.hfToken ? opts.token : undefined });
	if (key !== undefined) await opts.cache?.put(key, items);
	return items;
}
