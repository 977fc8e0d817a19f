/**
 * IFBench from the datasets server (allenai/IFBench_test), against the scripted stand-in. The
 * rows are made up in IFBench's shape: parquet kwargs as one struct with every kwarg name and
 * null for the unused ones.
 */
import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { datasetCacheKey, DATASETS, loadDataset } from '../../../src/lib/datasets/registry.ts';
import { IFBENCH_NLP_IDS, IFBENCH_NOTE } from '../../../src/lib/datasets/tasks/ifbench.ts';
import { scoreAnswer } from '../../../src/lib/probe/scoring/index.ts';
import { IFBENCH_INSTRUCTIONS } from '../../../src/lib/probe/scoring/ifeval/ifbench.ts';
import { IFBENCH_TEXT_IDS } from '../../../src/lib/probe/scoring/ifeval/ifbenchIds.ts';
import { IFBENCH_NLP_INSTRUCTIONS } from '../../../src/lib/probe/scoring/ifeval/ifbenchNlp.ts';
import { fakeHfServer, recordingSleep } from './fakeHfServer.ts';

const UNION = ['N', 'keyword', 'max_words', 'min_words', 'options', 'small_n', 'sep'];

function row(key: number, ids: string[], kwargs: Record<string, unknown>[]) {
	return {
		key,
		prompt: `Made-up prompt ${key}: describe a kettle.`,
		instruction_id_list: ids,
		kwargs: kwargs.map((k) => Object.fromEntries(UNION.map((n) => [n, k[n] ?? null])))
	};
}

const SPLIT = [
	row(1, ['count:conjunctions'], [{ small_n: 2 }]),
	row(2, ['count:word_count_range', 'words:consonants'], [{ min_words: 2, max_words: 4 }, {}]),
	row(3, ['sentence:keyword'], [{ keyword: 'kettle', N: 2 }]),
	row(4, ['words:made_up_type'], [{}])
];

describe('IFBench loader', () => {
	it('pages allenai/IFBench_test and keeps ids, instruction ids and the non-null kwargs', async () => {
		const server = fakeHfServer(SPLIT);
		const items = await loadDataset('ifbench', { fetch: server.fetch });
		expect(new URL(server.calls[0]).searchParams.get('dataset')).toBe('allenai/IFBench_test');
		expect(new URL(server.calls[0]).searchParams.get('split')).toBe('train');
		expect(items.map((i) => i.id)).toEqual(['ifbench-1', 'ifbench-2', 'ifbench-3', 'ifbench-4']);
		expect(items[1]).toMatchObject({
			task: 'ifeval',
			instruction_ids: ['count:word_count_range', 'words:consonants'],
			kwargs: [{ min_words: 2, max_words: 4 }, {}]
		});
		expect(datasetCacheKey('ifbench')).toBe('ifbench@default/train');
	});

	it('scores checked instructions; without NLTK data or with an unknown id, the item is unscored', async () => {
		const items = await loadDataset('ifbench', { fetch: fakeHfServer(SPLIT).fetch });
		expect(scoreAnswer(items[0], 'Tea and toast, but no jam.').correct).toBe(true);
		expect(scoreAnswer(items[0], 'Tea with toast.').correct).toBe(false);
		expect(scoreAnswer(items[1], 'Strong brown crabs.').correct).toBe(true);
		expect(scoreAnswer(items[1], 'A strong crab.').correct).toBe(false);
		const noData = scoreAnswer(items[2], 'kettle kettle');
		expect(noData.correct).toBeNull();
		expect(noData.detail).toMatch(
			/sentence:keyword needs NLTK's English data, which is not loaded/
		);
		const unknown = scoreAnswer(items[3], 'anything');
		expect(unknown.correct).toBeNull();
		expect(unknown.detail).toMatch(/unknown IFEval instruction: words:made_up_type/);
	});

	it('a row whose kwargs do not pair with its instruction ids fails the load, naming the key', async () => {
		const bad = [...SPLIT, { ...row(9, ['count:numbers', 'words:vowel'], [{ N: 1 }]) }];
		await expect(loadDataset('ifbench', { fetch: fakeHfServer(bad).fetch })).rejects.toThrow(
			/ifbench key 9: 'kwargs' must be a list as long as 'instruction_id_list'/
		);
	});

	it('a row without a key fails the load', async () => {
		const bad = [{ prompt: 'p', instruction_id_list: [], kwargs: [] }];
		await expect(loadDataset('ifbench', { fetch: fakeHfServer(bad).fetch })).rejects.toThrow(
			/ifbench row: 'key' is missing/
		);
	});

	for (const [status, body] of [
		[401, '{"error":"The dataset does not exist, or is not accessible without authentication"}'],
		[403, '{"error":"Forbidden"}'],
		[404, '{"error":"Not found."}']
	] as const) {
		it(`HTTP ${status} from the server is a DatasetError with its reason, not retried`, async () => {
			const server = fakeHfServer(SPLIT, { failures: { 0: { status, body } } });
			const err = await loadDataset('ifbench', { fetch: server.fetch }).catch((e: unknown) => e);
			expect(err).toBeInstanceOf(DatasetError);
			expect((err as DatasetError).status).toBe(status);
			expect((err as Error).message).toContain(JSON.parse(body).error);
			expect(server.calls).toHaveLength(1);
		});
	}

	it('HTTP 429 is retried after Retry-After', async () => {
		const server = fakeHfServer(SPLIT, {
			failures: { 0: { status: 429, body: '{"error":"rate limited"}', retryAfter: '2' } }
		});
		const { sleep, waits } = recordingSleep();
		const items = await loadDataset('ifbench', { fetch: server.fetch, sleep });
		expect(items).toHaveLength(4);
		expect(waits).toEqual([2000]);
	});
});

describe('IFBench in the registry', () => {
	it('says all 58 types are checked and names every one that needs downloaded data', () => {
		expect(DATASETS.ifbench.rows).toBe(300);
		expect(DATASETS.ifbench.note).toBe(IFBENCH_NOTE);
		expect(IFBENCH_NOTE).toMatch(/checks all 58 of IFBench's instruction types/);
		expect(IFBENCH_NOTE).toMatch(/raw\.githubusercontent\.com/);
		expect(IFBENCH_NOTE).toMatch(/unscored, not counted wrong/);
		expect(IFBENCH_NLP_IDS).toHaveLength(18);
		for (const id of IFBENCH_NLP_IDS) expect(IFBENCH_NOTE).toContain(id);
	});
});

describe("IFBench's id lists", () => {
	it('name exactly the instructions the checkers check, in each table', () => {
		expect([...IFBENCH_TEXT_IDS].sort()).toEqual(Object.keys(IFBENCH_INSTRUCTIONS).sort());
		expect([...IFBENCH_NLP_IDS].sort()).toEqual(Object.keys(IFBENCH_NLP_INSTRUCTIONS).sort());
	});
});
