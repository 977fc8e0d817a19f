/**
 * The app's englishNlp(): NLTK's English data is fetched from raw.githubusercontent.com once,
 * parsed once per tab, and a failed load is reported as the reason (not thrown) and tried again
 * on the next run. Real fetch against a local stand-in of the host, serving the committed subset
 * of NLTK's files zipped as upstream ships them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServices } from '../../../src/lib/app/services.ts';
import type { ResourceCache } from '../../../src/lib/nlp/load.ts';
import { upstreamFiles } from '../../helpers/nltkUpstream.ts';
import { startFakeRaw, type FakeRaw } from '../nlp/fakeRawGithub.ts';

const UPSTREAM = 'https://raw.githubusercontent.com';

let raw: FakeRaw | undefined;
afterEach(async () => {
	await raw?.close();
	raw = undefined;
});

function memoryCache(): ResourceCache & { files: Map<string, Uint8Array> } {
	const files = new Map<string, Uint8Array>();
	return {
		files,
		get: async (url) => files.get(url),
		put: async (url, bytes) => {
			files.set(url, bytes);
		}
	};
}

/** The browser's fetch, with the upstream host answered by `server` (or by nothing at all). */
function routedFetch(server: () => FakeRaw | undefined): typeof fetch {
	return (input, init) => {
		const url = String(input);
		if (!url.startsWith(UPSTREAM)) return fetch(input, init);
		const target = server();
		if (!target) return Promise.reject(new TypeError('Failed to fetch'));
		return fetch(target.base + url.slice(UPSTREAM.length), init);
	};
}

describe('AppServices.englishNlp', () => {
	it('downloads once, keeps the files in the cache, and parses them once per tab', async () => {
		raw = await startFakeRaw(upstreamFiles());
		const cache = memoryCache();
		const services = createAppServices({ fetch: routedFetch(() => raw), nlpCache: cache });
		const first = await services.englishNlp();
		expect('unavailable' in first.nlp).toBe(false);
		expect(first.note).toMatch(
			/^loaded from https:\/\/raw\.githubusercontent\.com\/nltk\/nltk_data/
		);
		expect(raw.requests).toHaveLength(4);
		expect(cache.files.size).toBe(4);
		const again = await services.englishNlp();
		expect(again.nlp).toBe(first.nlp);
		expect(raw.requests).toHaveLength(4);
		// A new tab parses again from the cache, with no request.
		const tab2 = createAppServices({ fetch: routedFetch(() => undefined), nlpCache: cache });
		const fromCache = await tab2.englishNlp();
		expect('unavailable' in fromCache.nlp).toBe(false);
		expect(raw.requests).toHaveLength(4);
	});

	it('a blocked host is the reason, not an exception, and the next call tries again', async () => {
		let server: FakeRaw | undefined;
		const services = createAppServices({
			fetch: routedFetch(() => server),
			nlpCache: memoryCache()
		});
		const blocked = await services.englishNlp();
		expect(blocked.nlp).toEqual({
			unavailable: expect.stringMatching(/raw\.githubusercontent\.com/)
		});
		expect(blocked.note).toMatch(/^not loaded: /);
		raw = server = await startFakeRaw(upstreamFiles());
		const loaded = await services.englishNlp();
		expect('unavailable' in loaded.nlp).toBe(false);
	});

	it('a cancelled start rejects, and the next call loads', async () => {
		raw = await startFakeRaw(upstreamFiles());
		const services = createAppServices({ fetch: routedFetch(() => raw), nlpCache: memoryCache() });
		const stop = new AbortController();
		stop.abort();
		await expect(services.englishNlp(stop.signal)).rejects.toThrow(/cancelled/);
		expect('unavailable' in (await services.englishNlp()).nlp).toBe(false);
	});
});
