/**
 * browserCache over an in-memory stand-in for Cache Storage that stores real Response objects
 * (jsdom has no Cache Storage; the real one is exercised by the app's e2e tests).
 */
import { describe, expect, it } from 'vitest';
import { browserCache, NLP_CACHE_NAME } from '../../../src/lib/nlp/browserCache.ts';

function memoryCacheStorage() {
	const caches = new Map<string, Map<string, Response>>();
	const storage = {
		async open(name: string) {
			const entries = caches.get(name) ?? new Map<string, Response>();
			caches.set(name, entries);
			return {
				async match(url: string) {
					// Cache Storage hands out a fresh Response each time.
					return entries.get(url)?.clone();
				},
				async put(url: string, res: Response) {
					entries.set(url, res);
				}
			};
		}
	};
	return { storage: storage as unknown as CacheStorage, caches };
}

describe('browserCache', () => {
	it('gives back the bytes put for a URL, twice, in its own named cache', async () => {
		const { storage, caches } = memoryCacheStorage();
		const cache = browserCache(storage);
		const url =
			'https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages/corpora/stopwords.zip';
		expect(await cache.get(url)).toBeUndefined();
		const big = new Uint8Array(70_000).map((_, i) => i % 251);
		await cache.put(url, big.subarray(10));
		expect(await cache.get(url)).toEqual(big.subarray(10));
		expect(await cache.get(url)).toEqual(big.subarray(10));
		expect([...caches.keys()]).toEqual([NLP_CACHE_NAME]);
	});
});
