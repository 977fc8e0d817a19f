/**
 * The datasets the app offers by name, where each comes from, and one loader for all of them.
 * Published sets are paged from the Hugging Face datasets server; the demo set is bundled.
 */
import type { DatasetItem, TaskKind } from '../probe/types.ts';
import { demoItems } from './demo.ts';
import { fetchAllRowEntries, type FetchLike, type HfRow } from './hfRows.ts';
import { normalizeGsm8kRow, normalizeIfevalRow, normalizeOasstRow } from './normalize.ts';

export type DatasetName = 'gsm8k' | 'ifeval' | 'conversations' | 'demo';

export interface DatasetInfo {
	title: string;
	description: string;
	/** How items are scored; the demo mixes tasks and each item carries its own. */
	task: TaskKind;
	/** Where the items come from, for the UI and the run manifest. */
	source: string;
	/** Item count when it is known in advance. */
	rows?: number;
}

export const DATASETS: Record<DatasetName, DatasetInfo> = {
	gsm8k: {
		title: 'GSM8K (test)',
		description: 'Grade-school math word problems; the answer is scored against the final number.',
		task: 'gsm8k',
		source: 'https://huggingface.co/datasets/openai/gsm8k (config main, split test)',
		rows: 1319
	},
	ifeval: {
		title: 'IFEval',
		description: 'Prompts with verifiable instructions ("answer in under 100 words", "no commas").',
		task: 'ifeval',
		source: 'https://huggingface.co/datasets/google/IFEval (config default, split train)',
		rows: 541
	},
	conversations: {
		title: 'Open conversations (OASST1)',
		description:
			'First user turns written by OpenAssistant volunteers, in English: open requests with no ' +
			'right answer. Unfiltered crowd text: a few prompts are edgy.',
		task: 'none',
		source: 'https://huggingface.co/datasets/OpenAssistant/oasst1 (split validation, English roots)'
	},
	demo: {
		title: 'Demo (20 items)',
		description:
			'14 short math word problems and 6 classroom-friendly conversation prompts, written for ' +
			'this app. Built in: works offline.',
		task: 'gsm8k',
		source: 'built in (static/demo-items.json)',
		rows: 20
	}
};

interface HfSource {
	dataset: string;
	config: string;
	split: string;
	where?: string;
	/** null drops the row (e.g. a deleted OASST message). */
	normalize: (entry: HfRow) => DatasetItem | null;
}

/**
 * OASST1 stores every message of every tree as a row. First user turns are the rows with no
 * parent; `/filter` runs this predicate in DuckDB on the server, so only those rows travel.
 * The validation split keeps the load to a few requests; train is 20× larger.
 */
export const OASST_FIRST_TURNS_WHERE = `"parent_id" IS NULL AND "lang" = 'en'`;

const HF_SOURCES: Record<Exclude<DatasetName, 'demo'>, HfSource> = {
	gsm8k: {
		dataset: 'openai/gsm8k',
		config: 'main',
		split: 'test',
		normalize: ({ row, row_idx }) => normalizeGsm8kRow(row, row_idx, 'test')
	},
	ifeval: {
		dataset: 'google/IFEval',
		config: 'default',
		split: 'train',
		normalize: ({ row }) => normalizeIfevalRow(row)
	},
	conversations: {
		dataset: 'OpenAssistant/oasst1',
		config: 'default',
		split: 'validation',
		where: OASST_FIRST_TURNS_WHERE,
		normalize: ({ row }) => normalizeOasstRow(row)
	}
};

/** Where loaded items are kept between sessions (Dexie in the browser, files in the CLI). */
export interface DatasetCache {
	get(key: string): Promise<DatasetItem[] | undefined>;
	put(key: string, items: DatasetItem[]): Promise<void>;
}

export interface LoadDatasetOptions {
	fetch: FetchLike;
	cache?: DatasetCache;
	signal?: AbortSignal;
	/** Rows fetched so far and in all. Not called for the demo or a cache hit. */
	onProgress?: (done: number, total: number) => void;
	/** HF token, only needed for gated datasets. */
	token?: string;
	/** Injected so tests do not wait out backoff. */
	sleep?: (ms: number) => Promise<void>;
	/** Datasets-server root, for mirrors and tests. */
	base?: string;
}

/** `gsm8k@main/test`: names the exact split, so changing a source's split misses the old cache. */
export function datasetCacheKey(name: Exclude<DatasetName, 'demo'>): string {
	const { config, split } = HF_SOURCES[name];
	return `${name}@${config}/${split}`;
}

/**
 * All items of a dataset. The demo never touches the network; the others come from the cache when
 * it has them and are otherwise fetched, normalized and stored in it.
 * @throws DatasetError on HTTP failures, exhausted retries or rows of an unexpected shape.
 * @throws AbortError when `signal` aborts.
 */
export async function loadDataset(
	name: DatasetName,
	opts: LoadDatasetOptions
): Promise<DatasetItem[]> {
	if (name === 'demo') return demoItems();
	const key = datasetCacheKey(name);
	const cached = await opts.cache?.get(key);
	if (cached) return cached;
	const source = HF_SOURCES[name];
	const entries = await fetchAllRowEntries({
		dataset: source.dataset,
		config: source.config,
		split: source.split,
		where: source.where,
		fetch: opts.fetch,
		signal: opts.signal,
		token: opts.token,
		onProgress: opts.onProgress,
		sleep: opts.sleep,
		base: opts.base
	});
	const items = entries.map(source.normalize).filter((item) => item !== null);
	await opts.cache?.put(key, items);
	return items;
}
