/**
 * What a dataset is to this app, as one record: where it comes from, how its items are loaded and
 * normalised, how they are scored, what a run needs for it, and how set-up and the CLI offer it.
 * Set-up's options, the CLI's --dataset help and validation, and the loader all read the list in
 * tasks/index.ts; nothing else names a dataset.
 */
import type { DatasetItem, TaskKind } from '../../probe/types.ts';
import type { DatasetFetch } from '../http.ts';
import { fetchAllRowEntries, type HfRow } from '../hfRows.ts';

/** What a loader is handed: the network, cancellation, progress, and the user's Hub token. */
export interface TaskLoadContext {
	fetch: DatasetFetch;
	signal?: AbortSignal;
	/** Rows fetched so far and in all. */
	onProgress?: (done: number, total: number) => void;
	/** The Hub token; only a task whose `needs.hfToken` is set is ever given one. */
	token?: string;
	/** Injected so tests do not wait out backoff. */
	sleep?: (ms: number) => Promise<void>;
	/** Datasets-server root, for mirrors and tests. */
	base?: string;
	/** Hub root (gated files), for tests; the token is sent there only. */
	hubBase?: string;
}

/** A gated dataset: where its terms are accepted, and what to say while there is no token. */
export interface HfTokenNeed {
	/** Short name for the message: "GPQA is unavailable without a token". */
	family: string;
	/** The dataset's page on the Hub, where an account accepts its terms. */
	page: string;
	/** Why the app cannot ship it instead. */
	why: string;
	/** What works without a token. */
	importHint: string;
}

export interface TaskDefinition {
	/** What users type (--dataset) and runs record; never renamed, or stored runs lose their name. */
	readonly name: string;
	title: string;
	description: string;
	/** How items are scored; the demo mixes scorers and each item carries its own. */
	task: TaskKind;
	/** Where the items come from, for the UI and the run manifest. */
	source: string;
	/** Item count when it is known in advance. */
	rows?: number;
	/** How items are prepared beyond the source (GPQA's option shuffle); recorded in the manifest. */
	note?: string;
	needs: {
		/** A Hugging Face token whose account accepted the dataset's terms. */
		hfToken?: HfTokenNeed;
		/** NLTK's English data (fetched at run time) for some of its instructions. */
		nlp?: boolean;
	};
	/** Works with no network at all: offered first, and where a failed download falls back to. */
	offline?: boolean;
	/** The set-up option's text. */
	option: string;
	/** One line of the CLI's --dataset help. */
	cliHelp: string;
	/** Names the exact source, so changing a source's split misses the old cache; none: not cached. */
	cacheKey?: string;
	/**
	 * Every item, normalised.
	 * @throws DatasetError on HTTP failures, exhausted retries or rows of an unexpected shape.
	 * @throws AbortError when `signal` aborts.
	 */
	load(ctx: TaskLoadContext): Promise<DatasetItem[]>;
}

/** A split on the Hugging Face datasets server and how one of its rows becomes an item. */
export interface HfSplit {
	/** e.g. "openai/gsm8k". */
	dataset: string;
	config: string;
	split: string;
	/** A DuckDB predicate run on the server (`/filter`), so only matching rows travel. */
	where?: string;
	/** null drops the row (e.g. a deleted OASST message). */
	normalize: (entry: HfRow) => DatasetItem | null;
}

/** The cache key and loader of a task paged from the datasets server. */
export function hfSplitSource(
	name: string,
	source: HfSplit
): Pick<TaskDefinition, 'cacheKey' | 'load'> {
	return {
		cacheKey: `${name}@${source.config}/${source.split}`,
		async load(ctx) {
			const entries = await fetchAllRowEntries({
				dataset: source.dataset,
				config: source.config,
				split: source.split,
				where: source.where,
				fetch: ctx.fetch,
				signal: ctx.signal,
				token: ctx.token,
				onProgress: ctx.onProgress,
				sleep: ctx.sleep,
				base: ctx.base
			});
			return entries.map(source.normalize).filter((item) => item !== null);
		}
	};
}
