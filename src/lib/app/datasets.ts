/**
 * The registry's loader caches items by key; the database stores rows with a timestamp. This
 * adapter joins the two, so loadDataset() in the browser reads and fills the Dexie cache.
 */
import type { DatasetCache as StoredDatasets } from '../db/caches.ts';
import type { DatasetCache } from '../datasets/registry.ts';

export function datasetCacheOf(
	stored: StoredDatasets,
	now: () => Date = () => new Date()
): DatasetCache {
	return {
		async get(key) {
			return (await stored.get(key))?.items;
		},
		async put(key, items) {
			await stored.put({ key, items, fetched_at: now().toISOString() });
		}
	};
}
