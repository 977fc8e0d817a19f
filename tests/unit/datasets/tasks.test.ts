/**
 * The task list is the one place a dataset is defined: set-up's options, the CLI's help and
 * validation, the cache keys and the loader all come from it, and names stored in old runs and
 * caches keep meaning the same dataset.
 */
import { describe, expect, it } from 'vitest';
// Through the module's public surface, as set-up and the CLI use it.
import * as datasets from '../../../src/lib/datasets/index.ts';
import { TASKS } from '../../../src/lib/datasets/tasks/index.ts';
import { RUN_USAGE } from '../../../src/cli/args.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { TASK_KINDS } from '../../../src/lib/probe/types.ts';
import type { DatasetFetch } from '../../../src/lib/datasets/http.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';

/** Names and cache keys as runs and caches written before the task list stored them. */
const STORED_NAMES = {
	gsm8k: 'gsm8k@main/test',
	ifeval: 'ifeval@default/train',
	ifbench: 'ifbench@default/train',
	conversations: 'conversations@default/validation',
	gpqa_diamond: 'gpqa_diamond@gpqa_diamond.csv',
	gpqa_main: 'gpqa_main@gpqa_main.csv',
	demo: undefined
};

const refuse: DatasetFetch = () => Promise.reject(new Error('network used'));

describe('the task list', () => {
	it('still knows every dataset name and cache key that stored runs and caches hold', () => {
		for (const [name, key] of Object.entries(STORED_NAMES)) {
			expect(datasets.isDatasetName(name), name).toBe(true);
			if (datasets.isDatasetName(name)) expect(datasets.datasetCacheKey(name)).toBe(key);
		}
	});

	it('gives each dataset one unique name, a scorer, set-up and CLI wording', () => {
		expect(new Set(datasets.DATASET_NAMES).size).toBe(TASKS.length);
		for (const task of TASKS) {
			expect(TASK_KINDS).toContain(task.task);
			expect(task.option.trim()).not.toBe('');
			expect(task.cliHelp.trim()).not.toBe('');
			expect(datasets.DATASETS[task.name]).toBe(task);
		}
	});

	it("offers set-up every dataset once, gated ones apart, and says why they're gated", () => {
		const { open, gated } = datasets.datasetOptions();
		expect([...open, ...gated].map((t) => t.name).sort()).toEqual(
			[...datasets.DATASET_NAMES].sort()
		);
		for (const t of gated) expect(t.needs.hfToken?.page).toMatch(/^https:\/\/huggingface\.co\//);
		for (const t of open) expect(t.needs.hfToken).toBeUndefined();
	});

	it('lists every dataset in the CLI help, each on its own line', () => {
		expect(RUN_USAGE).toContain(datasets.datasetHelp('    '));
		for (const task of TASKS) {
			expect(RUN_USAGE).toMatch(new RegExp(`^ {4}${task.name} +${escape(task.cliHelp)}`, 'm'));
		}
		const line = (name: string) => RUN_USAGE.split('\n').find((l) => l.startsWith(`    ${name} `));
		for (const task of TASKS) {
			expect(line(task.name)?.endsWith('; needs --hf-token')).toBe(
				!!datasets.DATASETS[task.name].needs.hfToken
			);
		}
		expect(line('ifbench')).toMatch(/fetches NLTK data$/);
		expect(datasets.isDatasetName('gsm8kk')).toBe(false);
		expect(datasets.isDatasetName('upload')).toBe(false);
	});

	it('loads the offline dataset with no network, and never hands a token to an open dataset', async () => {
		expect(datasets.DATASETS[datasets.OFFLINE_DATASET].offline).toBe(true);
		expect((await datasets.loadDataset(datasets.OFFLINE_DATASET, { fetch: refuse })).length).toBe(
			datasets.DATASETS[datasets.OFFLINE_DATASET].rows
		);
		const seen: (string | undefined)[] = [];
		const spy: DatasetFetch = async (_url, init) => {
			seen.push(init?.headers?.Authorization);
			return { ok: false, status: 404, text: async () => 'no', json: async () => ({}) };
		};
		await datasets.loadDataset('gsm8k', { fetch: spy, token: 'hf_secret' }).catch(() => undefined);
		expect(seen.length).toBeGreaterThan(0);
		expect(seen.every((h) => h === undefined)).toBe(true);
	});

	it('set-up starts on the offline dataset and drops a remembered name no dataset has', () => {
		const storage = memoryStorage();
		storage.setItem('utp:dataset', JSON.stringify('mmlu'));
		expect(new SetupState(storage).dataset.current).toBe(datasets.OFFLINE_DATASET);
		storage.setItem('utp:dataset', JSON.stringify('ifbench'));
		expect(new SetupState(storage).dataset.current).toBe('ifbench');
		expect(new SetupState(memoryStorage()).dataset.current).toBe(datasets.OFFLINE_DATASET);
	});
});

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
