import { describe, expect, it } from 'vitest';
import { OASST_FIRST_TURNS_WHERE } from '../../../src/lib/datasets/tasks/conversations.ts';
import {
	DATASETS,
	datasetCacheKey,
	loadDataset,
	type DatasetCache
} from '../../../src/lib/datasets/registry.ts';
import type { DatasetFetch as FetchLike } from '../../../src/lib/datasets/http.ts';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { isTaskKind } from '../../../src/lib/datasets/items.ts';
import type { DatasetItem } from '../../../src/lib/probe/types.ts';
import { fakeHfServer, recordingSleep } from './fakeHfServer.ts';
import { gsm8kLines, ifevalLines, ifevalParquetRow, oasstMessageRows } from './hfFixtureRows.ts';

const noNetwork: FetchLike = () => {
	throw new Error('network used');
};

function memoryCache(): DatasetCache & { store: Map<string, DatasetItem[]>; gets: string[] } {
	const store = new Map<string, DatasetItem[]>();
	const gets: string[] = [];
	return {
		store,
		gets,
		get: async (key) => {
			gets.push(key);
			return store.get(key);
		},
		put: async (key, items) => {
			store.set(key, items);
		}
	};
}

function params(url: string): Record<string, string> {
	return Object.fromEntries(new URL(url).searchParams);
}

describe('DATASETS', () => {
	it('describes every dataset with a valid task and a source', () => {
		expect(Object.keys(DATASETS).sort()).toEqual([
			'conversations',
			'demo',
			'gpqa_diamond',
			'gpqa_main',
			'gsm8k',
			'ifbench',
			'ifeval',
			'oasst_threads'
		]);
		for (const info of Object.values(DATASETS)) {
			expect(isTaskKind(info.task)).toBe(true);
			expect(info.title.length).toBeGreaterThan(0);
			expect(info.description.length).toBeGreaterThan(0);
			expect(info.source.length).toBeGreaterThan(0);
		}
	});

	it('states row counts that match what loading yields', async () => {
		expect(DATASETS.gsm8k.rows).toBe(gsm8kLines().length);
		expect(DATASETS.ifeval.rows).toBe(ifevalLines().length);
		expect(DATASETS.demo.rows).toBe((await loadDataset('demo', { fetch: noNetwork })).length);
	});
});

describe('loadDataset', () => {
	it('loads the demo without any network or cache access', async () => {
		const cache = memoryCache();
		const items = await loadDataset('demo', { fetch: noNetwork, cache });
		expect(items).toHaveLength(20);
		expect(cache.gets).toEqual([]);
	});

	it('loads GSM8K test from openai/gsm8k main/test, one item per row', async () => {
		const lines = gsm8kLines();
		const server = fakeHfServer(lines.map((l) => ({ ...l })));
		const items = await loadDataset('gsm8k', { fetch: server.fetch });
		expect(items).toHaveLength(1319);
		expect(items[5]).toStrictEqual({
			id: 'gsm8k-test-5',
			task: 'gsm8k',
			prompt: lines[5].question,
			gold: lines[5].answer
		});
		expect(server.calls).toHaveLength(14);
		expect(params(server.calls[0])).toMatchObject({
			dataset: 'openai/gsm8k',
			config: 'main',
			split: 'test'
		});
	});

	it('loads IFEval from google/IFEval default/train with the original kwargs', async () => {
		const lines = ifevalLines();
		const server = fakeHfServer(lines.map(ifevalParquetRow));
		const items = await loadDataset('ifeval', { fetch: server.fetch });
		expect(items).toHaveLength(541);
		expect(items.map((it) => it.kwargs)).toStrictEqual(lines.map((l) => l.kwargs));
		expect(server.calls).toHaveLength(6);
		expect(params(server.calls[0])).toMatchObject({
			dataset: 'google/IFEval',
			config: 'default',
			split: 'train'
		});
	});

	it('loads conversations through /filter on English first turns of oasst1 validation', async () => {
		const server = fakeHfServer(oasstMessageRows(), {
			filter: (row) => row.parent_id === null && row.lang === 'en'
		});
		const items = await loadDataset('conversations', { fetch: server.fetch });
		expect(items).toHaveLength(100);
		expect(items.every((it) => it.task === 'none')).toBe(true);
		expect(new URL(server.calls[0]).pathname).toBe('/filter');
		expect(params(server.calls[0])).toMatchObject({
			dataset: 'OpenAssistant/oasst1',
			config: 'default',
			split: 'validation',
			where: OASST_FIRST_TURNS_WHERE
		});
	});

	it('stores a fresh load under name@config/split and serves the next load without fetching', async () => {
		const cache = memoryCache();
		const server = fakeHfServer(gsm8kLines().map((l) => ({ ...l })));
		const first = await loadDataset('gsm8k', { fetch: server.fetch, cache });
		expect([...cache.store.keys()]).toEqual(['gsm8k@main/test']);
		const second = await loadDataset('gsm8k', { fetch: noNetwork, cache });
		expect(second).toStrictEqual(first);
	});

	it('names cache keys after the exact config and split', () => {
		expect(datasetCacheKey('gsm8k')).toBe('gsm8k@main/test');
		expect(datasetCacheKey('ifeval')).toBe('ifeval@default/train');
		expect(datasetCacheKey('conversations')).toBe('conversations@default/validation');
	});

	it('writes nothing to the cache when the load fails', async () => {
		const cache = memoryCache();
		const server = fakeHfServer([], { failures: { 0: { status: 401 } } });
		await expect(
			loadDataset('ifeval', { fetch: server.fetch, cache, sleep: recordingSleep().sleep })
		).rejects.toBeInstanceOf(DatasetError);
		expect(cache.store.size).toBe(0);
	});

	it('passes progress through from the row pager', async () => {
		const server = fakeHfServer(ifevalLines().map(ifevalParquetRow));
		const seen: number[] = [];
		await loadDataset('ifeval', { fetch: server.fetch, onProgress: (done) => seen.push(done) });
		expect(seen).toEqual([100, 200, 300, 400, 500, 541]);
	});
});
