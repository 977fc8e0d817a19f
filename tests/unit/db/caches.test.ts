import { afterEach, describe, expect, it } from 'vitest';
import {
	DexieDatasetCache,
	DexieTemplateCache,
	MemoryDatasetCache,
	MemoryTemplateCache
} from '../../../src/lib/db/caches.ts';
import type { DatasetCache, TemplateCache } from '../../../src/lib/db/caches.ts';
import type { ProbeDB } from '../../../src/lib/db/schema.ts';
import type { DatasetItem } from '../../../src/lib/probe/types.ts';
import { testDB } from './helpers.ts';

let opened: ProbeDB[] = [];
afterEach(() => {
	opened.forEach((db) => db.close());
	opened = [];
});

function db(): ProbeDB {
	const t = testDB();
	opened.push(t.db);
	return t.db;
}

const ITEMS: DatasetItem[] = [
	{ id: 'gsm8k-0', task: 'gsm8k', prompt: 'How many clips?', gold: '72' },
	{ id: 'mc-0', task: 'multiple_choice', prompt: 'Pick one', choices: ['a', 'b'], gold: 'A' }
];

const DATASET_CACHES: [string, () => DatasetCache][] = [
	['Dexie', () => new DexieDatasetCache(db())],
	['memory', () => new MemoryDatasetCache()]
];
const TEMPLATE_CACHES: [string, () => TemplateCache][] = [
	['Dexie', () => new DexieTemplateCache(db())],
	['memory', () => new MemoryTemplateCache()]
];

describe.each(DATASET_CACHES)('DatasetCache: %s', (_name, make) => {
	it('misses on an unknown key', async () => {
		expect(await make().get('gsm8k/test')).toBeUndefined();
	});

	it('returns what was put, replacing an older entry under the same key', async () => {
		const cache = make();
		await cache.put({ key: 'gsm8k/test', items: ITEMS.slice(0, 1), fetched_at: '2026-01-01' });
		await cache.put({ key: 'gsm8k/test', items: ITEMS, fetched_at: '2026-02-01' });
		await cache.put({ key: 'other', items: [], fetched_at: '2026-02-01' });
		expect(await cache.get('gsm8k/test')).toEqual({
			key: 'gsm8k/test',
			items: ITEMS,
			fetched_at: '2026-02-01'
		});
	});

	it('hands out copies, so a caller editing items does not corrupt the cache', async () => {
		const cache = make();
		await cache.put({ key: 'k', items: structuredClone(ITEMS), fetched_at: 'f' });
		const got = await cache.get('k');
		got?.items.pop();
		expect((await cache.get('k'))?.items).toHaveLength(2);
	});
});

describe.each(TEMPLATE_CACHES)('TemplateCache: %s', (_name, make) => {
	it('misses, then returns the stored template by repo', async () => {
		const cache = make();
		expect(await cache.get('Qwen/Qwen3-0.6B')).toBeUndefined();
		const entry = {
			repo: 'Qwen/Qwen3-0.6B',
			template: '{{ messages }}',
			sha256: 'ab12',
			fetched_at: 'f'
		};
		await cache.put(entry);
		expect(await cache.get('Qwen/Qwen3-0.6B')).toEqual(entry);
		expect(await cache.get('qwen/qwen3-0.6b')).toBeUndefined();
	});
});

describe('Dexie caches', () => {
	it('survive a new connection and can be cleared', async () => {
		const t = testDB();
		opened.push(t.db);
		await new DexieTemplateCache(t.db).put({
			repo: 'r',
			template: 't',
			sha256: 's',
			fetched_at: 'f'
		});
		await new DexieDatasetCache(t.db).put({ key: 'k', items: ITEMS, fetched_at: 'f' });
		const again = t.reopen();
		opened.push(again);
		const templates = new DexieTemplateCache(again);
		expect((await templates.get('r'))?.template).toBe('t');
		await templates.clear();
		await new DexieDatasetCache(again).clear();
		expect(await again.templates.count()).toBe(0);
		expect(await again.datasets.count()).toBe(0);
	});
});
