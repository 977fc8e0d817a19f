/**
 * The browser's cache of the English NLP data files (load.ts's ResourceCache) in Cache Storage,
 * which keeps large binary responses and survives reloads. Cache Storage needs a secure context
 * (https or localhost); without it the caller passes no cache and every load fetches.
 */
import type { ResourceCache } from './load.ts';

export const NLP_CACHE_NAME = 'user-turn-probe-nlp-v1';

export function browserCache(
	storage: CacheStorage = globalThis.caches,
	name = NLP_CACHE_NAME
): ResourceCache {
	return {
		async get(url) {
			const hit = await (await storage.open(name)).match(url);
			return hit ? new Uint8Array(await hit.arrayBuffer()) : undefined;
		},
		async put(url, bytes) {
			const cache = await storage.open(name);
			await cache.put(url, new Response(bytes.slice(), { status: 200 }));
		}
	};
}
