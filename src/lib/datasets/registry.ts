/**
 * The datasets the app offers by name, where each comes from, and one loader for all of them.
 * Published sets are paged from the Hugging Face datasets server; the demo set is bundled.
 */
import type { DatasetItem, TaskKind } from '../probe/types.ts';
import { demoItems } from './demo.ts';
import { GPQA_CHOICE_NOTE, GPQA_PAGE, GPQA_ROWS, loadGpqa, type GpqaSubset } from './gpqa.ts';
import { fetchAllRowEntries, type FetchLike, type HfRow } from './hfRows.ts';
import {
	normalizeGsm8kRow,
	normalizeIfbenchRow,
	normalizeIfevalRow,
	normalizeOasstRow
} from './normalize.ts';
import { IFBENCH_INSTRUCTIONS } from '../probe/scoring/ifeval/ifbench.ts';
import { IFBENCH_NLP_INSTRUCTIONS } from '../probe/scoring/ifeval/ifbenchNlp.ts';

export type DatasetName =
	'gsm8k' | 'ifeval' | 'ifbench' | 'conversations' | 'gpqa_diamond' | 'gpqa_main' | 'demo';

/** The GPQA subsets by dataset name: gated, read from the Hub's CSV files with a user's token. */
const GPQA_NAMES: Partial<Record<DatasetName, GpqaSubset>> = {
	gpqa_diamond: 'diamond',
	gpqa_main: 'main'
};

/** The subset a name stands for, or undefined when it is not GPQA. */
export function gpqaSubsetOf(name: DatasetName): GpqaSubset | undefined {
	return GPQA_NAMES[name];
}

export interface DatasetInfo {
	title: string;
	description: string;
	/** How items are scored; the demo mixes tasks and each item carries its own. */
	task: TaskKind;
	/** Where the items come from, for the UI and the run manifest. */
	source: string;
	/** Item count when it is known in advance. */
	rows?: number;
	/** Needs a Hugging Face token whose account accepted the dataset's terms. */
	gated?: boolean;
	/** How items are prepared beyond the source (GPQA's option shuffle); recorded in the manifest. */
	note?: string;
}

/** The IFBench instruction types that need NLTK's English data or syllapy's dictionary. */
export const IFBENCH_NLP_IDS: readonly string[] = Object.keys(IFBENCH_NLP_INSTRUCTIONS);

/** What the app says about IFBench scoring: what it checks, and what needs downloaded data. */
export const IFBENCH_NOTE =
	`This app checks all ${Object.keys(IFBENCH_INSTRUCTIONS).length + IFBENCH_NLP_IDS.length} of ` +
	`IFBench's instruction types, cross-checked against the reference on our own cases. ` +
	`${IFBENCH_NLP_IDS.length} of them split sentences, tag words or count syllables as the ` +
	`reference does, with NLTK's English data and syllapy's word list, which a run downloads ` +
	`from raw.githubusercontent.com first; if that fails, items using them are unscored, not ` +
	`counted wrong: ${IFBENCH_NLP_IDS.join(', ')}.`;

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
		rows: 541,
		note:
			"Sentence counts and capital-word counts are NLTK's, as in the reference, with its English " +
			'data, which a run downloads from raw.githubusercontent.com first; if that fails, they ' +
			'are approximated.'
	},
	ifbench: {
		title: 'IFBench (test)',
		description:
			'Prompts with new verifiable instructions ("use at least 3 coordinating conjunctions", ' +
			'"every word has a consonant cluster"), scored strict and loose as IFEval.',
		task: 'ifeval',
		source: 'https://huggingface.co/datasets/allenai/IFBench_test (config default, split train)',
		rows: 300,
		note: IFBENCH_NOTE
	},
	conversations: {
		title: 'Open conversations (OASST1)',
		description:
			'First user turns written by OpenAssistant volunteers, in English: open requests with no ' +
			'right answer. Unfiltered crowd text: a few prompts are edgy.',
		task: 'none',
		source: 'https://huggingface.co/datasets/OpenAssistant/oasst1 (split validation, English roots)'
	},
	gpqa_diamond: {
		title: 'GPQA Diamond',
		description:
			'198 graduate-level science questions with four options. Gated: needs a Hugging Face ' +
			'token whose account accepted the terms.',
		task: 'multiple_choice',
		source: `${GPQA_PAGE} (gpqa_diamond.csv)`,
		rows: GPQA_ROWS.diamond,
		gated: true,
		note: GPQA_CHOICE_NOTE
	},
	gpqa_main: {
		title: 'GPQA Main',
		description:
			'448 graduate-level science questions with four options (Diamond is a subset). Gated: ' +
			'needs a Hugging Face token whose account accepted the terms.',
		task: 'multiple_choice',
		source: `${GPQA_PAGE} (gpqa_main.csv)`,
		rows: GPQA_ROWS.main,
		gated: true,
		note: GPQA_CHOICE_NOTE
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

type HfName = Exclude<DatasetName, 'demo' | 'gpqa_diamond' | 'gpqa_main'>;

const HF_SOURCES: Record<HfName, HfSource> = {
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
	ifbench: {
		dataset: 'allenai/IFBench_test',
		config: 'default',
		split: 'train',
		normalize: ({ row }) => normalizeIfbenchRow(row)
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
	/** HF token for the gated datasets (GPQA): sent to the Hub for those only, never stored here. */
	token?: string;
	/** Injected so tests do not wait out backoff. */
	sleep?: (ms: number) => Promise<void>;
	/** Datasets-server root, for mirrors and tests. */
	base?: string;
	/** Hub root (GPQA's files), for tests; the token is sent there only. */
	hubBase?: string;
}

/** `gsm8k@main/test`: names the exact split, so changing a source's split misses the old cache. */
export function datasetCacheKey(name: Exclude<DatasetName, 'demo'>): string {
	const subset = gpqaSubsetOf(name);
	if (subset) return `${name}@gpqa_${subset}.csv`;
	const { config, split } = HF_SOURCES[name as HfName];
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
	const subset = gpqaSubsetOf(name);
	if (subset) {
		const items = await loadGpqa(subset, {
			fetch: opts.fetch,
			token: opts.token,
			signal: opts.signal,
			sleep: opts.sleep,
			base: opts.hubBase
		});
		opts.onProgress?.(items.length, items.length);
		await opts.cache?.put(key, items);
		return items;
	}
	const source = HF_SOURCES[name as HfName];
	const entries = await fetchAllRowEntries({
		dataset: source.dataset,
		config: source.config,
		split: source.split,
		where: source.where,
		fetch: opts.fetch,
		signal: opts.signal,
		// No token: these sets are open, and a token is the user's secret, sent only where needed.
		onProgress: opts.onProgress,
		sleep: opts.sleep,
		base: opts.base
	});
	const items = entries.map(source.normalize).filter((item) => item !== null);
	await opts.cache?.put(key, items);
	return items;
}
