/**
 * loadEnglishResourceFiles against a local server that answers as raw.githubusercontent.com does,
 * with zips built here from made-up member texts: the files, the cache, progress, and each fault
 * a user can meet (404, 5xx/429 then success, a reset mid-body, a blocked host, a corrupt zip, a
 * zip without a member, cancelling).
 */
import { strToU8, zipSync } from 'fflate';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
	type LoadOptions,
	type LoadProgress,
	loadEnglishResourceFiles,
	NlpResourceError,
	type ResourceCache,
	resourceUrls
} from '../../../src/lib/nlp/load.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { type FakeRaw, startFakeRaw } from './fakeRawGithub.ts';

const PKG = '/nltk/nltk_data/gh-pages/packages';
const PUNKT = `${PKG}/tokenizers/punkt_tab.zip`;
const TAGGER = `${PKG}/taggers/averaged_perceptron_tagger_eng.zip`;
const STOPWORDS = `${PKG}/corpora/stopwords.zip`;
const SYLLAPY = '/mholtzscher/syllapy/9b95c13d809a87e9eaba96f6b61e7fc3978acded/syllapy/data.csv';
const T = 'averaged_perceptron_tagger_eng/averaged_perceptron_tagger_eng';

function zipOf(members: Record<string, string>): Uint8Array {
	return zipSync(Object.fromEntries(Object.entries(members).map(([k, v]) => [k, strToU8(v)])));
}

/** Offset of a one-member zip's central directory entry. */
function centralOffset(zip: Uint8Array): number {
	const view = new DataView(zip.buffer, zip.byteOffset);
	return view.getUint32(zip.length - 22 + 16, true);
}

/** The one-member zip with its declared uncompressed size replaced, in both headers. */
function declareSize(zip: Uint8Array, size: number): Uint8Array {
	const view = new DataView(zip.buffer, zip.byteOffset);
	view.setUint32(22, size, true);
	view.setUint32(centralOffset(zip) + 24, size, true);
	return zip;
}

const punktMembers = {
	'punkt_tab/README': 'not read',
	'punkt_tab/english/abbrev_types.txt': 'dr\nmr\n',
	'punkt_tab/english/collocations.tab': 'i\tm\n',
	'punkt_tab/english/sent_starters.txt': 'however\n',
	'punkt_tab/english/ortho_context.tab': 'the\t46\n',
	'punkt_tab/german/abbrev_types.txt': 'bzw\n'
};
const taggerMembers = {
	[`${T}.weights.json`]: '{"bias":{"NN":1.5}}',
	[`${T}.tagdict.json`]: '{"the":"DT"}',
	[`${T}.classes.json`]: '["NN","DT"]'
};
const files = () => ({
	[PUNKT]: zipOf(punktMembers),
	[TAGGER]: zipOf(taggerMembers),
	[STOPWORDS]: zipOf({ 'stopwords/english': '\ufeffa\nthe\n', 'stopwords/french': 'le\n' }),
	[SYLLAPY]: strToU8('able,2\neagle,2\n')
});

class MemoryCache implements ResourceCache {
	readonly entries = new Map<string, Uint8Array>();
	async get(url: string) {
		return this.entries.get(url);
	}
	async put(url: string, bytes: Uint8Array) {
		this.entries.set(url, bytes);
	}
}

let server: FakeRaw | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

async function start(overrides: Record<string, Uint8Array> = {}) {
	server = await startFakeRaw({ ...files(), ...overrides });
	return server;
}

const sleeps: number[] = [];
function optionsFor(s: FakeRaw, extra: Partial<LoadOptions> = {}): LoadOptions {
	return {
		fetch: (url, init) => fetch(url, init),
		nltkDataBase: s.nltkDataBase,
		syllapyBase: s.syllapyBase,
		sleep: async (ms) => {
			sleeps.push(ms);
		},
		...extra
	};
}

async function failure(p: Promise<unknown>): Promise<NlpResourceError> {
	const err = await p.then(
		() => undefined,
		(e: unknown) => e
	);
	expect(err).toBeInstanceOf(NlpResourceError);
	return err as NlpResourceError;
}

describe('loadEnglishResourceFiles', () => {
	it('fetches the four upstream files and reads the named members as text', async () => {
		const s = await start();
		const got = await loadEnglishResourceFiles(optionsFor(s));
		expect(got).toEqual({
			punkt: {
				abbrevTypes: 'dr\nmr\n',
				collocations: 'i\tm\n',
				sentStarters: 'however\n',
				orthoContext: 'the\t46\n'
			},
			tagger: {
				weights: '{"bias":{"NN":1.5}}',
				tagdict: '{"the":"DT"}',
				classes: '["NN","DT"]'
			},
			// NLTK reads the file as utf8 (not utf-8-sig): a BOM stays.
			stopwords: '\ufeffa\nthe\n',
			syllapy: 'able,2\neagle,2\n'
		});
		expect([...s.requests].sort()).toEqual([PUNKT, SYLLAPY, STOPWORDS, TAGGER].sort());
	});

	it('uses the upstream URLs by default', () => {
		expect(resourceUrls()).toEqual({
			punkt:
				'https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages/tokenizers/punkt_tab.zip',
			tagger:
				'https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages/taggers/averaged_perceptron_tagger_eng.zip',
			stopwords:
				'https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages/corpora/stopwords.zip',
			syllapy:
				'https://raw.githubusercontent.com/mholtzscher/syllapy/9b95c13d809a87e9eaba96f6b61e7fc3978acded/syllapy/data.csv'
		});
	});

	it('reports the bytes of each file as they arrive', async () => {
		const s = await start();
		const seen: LoadProgress[] = [];
		await loadEnglishResourceFiles(optionsFor(s, { onProgress: (p) => seen.push(p) }));
		const sizes = files();
		for (const [path, bytes] of Object.entries(sizes)) {
			const last = seen.filter((p) => p.url === s.base + path).at(-1);
			expect(last, path).toEqual({
				url: s.base + path,
				loaded: bytes.length,
				total: bytes.length,
				fromCache: false
			});
		}
	});

	it('needs no network the second time when given a cache', async () => {
		const s = await start();
		const cache = new MemoryCache();
		const first = await loadEnglishResourceFiles(optionsFor(s, { cache }));
		expect(cache.entries.size).toBe(4);
		const opts = optionsFor(s, { cache });
		await s.close();
		server = undefined;
		const seen: LoadProgress[] = [];
		expect(await loadEnglishResourceFiles({ ...opts, onProgress: (p) => seen.push(p) })).toEqual(
			first
		);
		expect(seen.every((p) => p.fromCache)).toBe(true);
		expect(seen).toHaveLength(4);
	});

	it('drops a cached entry that does not unzip, or a cut-off data.csv, and fetches it again', async () => {
		const s = await start();
		const cache = new MemoryCache();
		const urls = resourceUrls(optionsFor(s));
		await loadEnglishResourceFiles(optionsFor(s, { cache }));
		const good = cache.entries.get(urls.tagger);
		if (!good) throw new Error('the tagger zip was not cached');
		cache.entries.set(urls.tagger, good.subarray(0, 40));
		cache.entries.set(urls.syllapy, strToU8('able,2\neag'));
		s.requests.length = 0;
		const got = await loadEnglishResourceFiles(optionsFor(s, { cache }));
		expect(got.tagger.classes).toBe('["NN","DT"]');
		expect(got.syllapy).toBe('able,2\neagle,2\n');
		expect([...s.requests].sort()).toEqual([SYLLAPY, TAGGER].sort());
		expect(cache.entries.get(urls.tagger)).toEqual(good);
	});

	it('treats a failing cache as an empty one', async () => {
		const s = await start();
		const broken: ResourceCache = {
			get: () => Promise.reject(new Error('QuotaExceededError')),
			put: () => Promise.reject(new Error('QuotaExceededError'))
		};
		const got = await loadEnglishResourceFiles(optionsFor(s, { cache: broken }));
		expect(got.syllapy).toBe('able,2\neagle,2\n');
	});

	it('says 404 with the URL and the body, without retrying', async () => {
		const s = await start();
		const err = await failure(
			loadEnglishResourceFiles(optionsFor(s, { nltkDataBase: `${s.base}/moved/packages` }))
		);
		expect(err.status).toBe(404);
		expect(err.message).toContain(`HTTP 404 from ${s.base}/moved/packages/`);
		expect(err.message).toContain('404: Not Found');
		expect(err.message).toContain("IFBench's NLTK-based checks");
		expect(s.requests.filter((p) => p.startsWith('/moved/')).length).toBeLessThanOrEqual(3);
		expect(new Set(s.requests.filter((p) => p.startsWith('/moved/'))).size).toBe(
			s.requests.filter((p) => p.startsWith('/moved/')).length
		);
	});

	it('retries 503 and 429 (Retry-After: 0) and then succeeds', async () => {
		const s = await start();
		s.faultNext(TAGGER, 503, 429);
		sleeps.length = 0;
		const got = await loadEnglishResourceFiles(optionsFor(s));
		expect(got.tagger.tagdict).toBe('{"the":"DT"}');
		expect(s.requests.filter((p) => p === TAGGER)).toHaveLength(3);
		expect(sleeps).toEqual([0, 0]);
	});

	it('gives up on a 5xx that lasts, with the status and URL', async () => {
		const s = await start();
		s.faultNext(STOPWORDS, 503, 503, 503, 503, 503, 503);
		const err = await failure(loadEnglishResourceFiles(optionsFor(s)));
		expect(err.status).toBe(503);
		expect(err.message).toContain(`HTTP 503 from ${s.base}${STOPWORDS}`);
		expect(err.message).toContain('still after 5 tries');
		expect(s.requests.filter((p) => p === STOPWORDS)).toHaveLength(5);
	});

	it('retries a connection reset mid-body once, then succeeds', async () => {
		const s = await start();
		s.faultNext(TAGGER, 'reset');
		const got = await loadEnglishResourceFiles(optionsFor(s));
		expect(got.tagger.weights).toBe('{"bias":{"NN":1.5}}');
		expect(s.requests.filter((p) => p === TAGGER)).toHaveLength(2);
	});

	it('says the download broke off when resets go on', async () => {
		const s = await start();
		s.faultNext(TAGGER, 'reset', 'reset', 'reset');
		const err = await failure(loadEnglishResourceFiles(optionsFor(s)));
		expect(err.message).toMatch(
			new RegExp(`The download of ${s.base}${TAGGER} broke off after \\d+ bytes`)
		);
		expect(err.message).toContain('Check the connection');
		expect(err.unreachable).toBe(false);
	});

	it('names the host when it cannot be reached (blocked or offline)', async () => {
		const closed = createServer();
		const port = await new Promise<number>((resolve) =>
			closed.listen(0, '127.0.0.1', () => {
				const addr = closed.address();
				resolve(typeof addr === 'object' && addr ? addr.port : 0);
			})
		);
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const base = `http://127.0.0.1:${port}`;
		const err = await failure(
			loadEnglishResourceFiles({
				fetch: (url, init) => fetch(url, init),
				nltkDataBase: base,
				syllapyBase: base,
				sleep: async () => {}
			})
		);
		expect(err.unreachable).toBe(true);
		expect(err.message).toContain(`127.0.0.1:${port} could not be reached`);
		expect(err.message).toContain("IFBench's NLTK-based checks");
		expect(err.message).toContain('firewall');
	});

	it('says a zip is corrupt', async () => {
		const s = await start({ [STOPWORDS]: strToU8('<html>Captive portal login</html>') });
		const err = await failure(loadEnglishResourceFiles(optionsFor(s)));
		expect(err.message).toContain(`The zip from ${s.base}${STOPWORDS} is corrupt`);
	});

	it('refuses a member that inflates past the size it declares (never a cut-off list)', async () => {
		// A stop-word list declaring 1,000 bytes whose data inflates to 8 MB.
		const lying = declareSize(
			zipSync({ 'stopwords/english': strToU8('a\nthe\n'.repeat(1_400_000)) }),
			1000
		);
		const s = await start({ [STOPWORDS]: lying });
		const err = await failure(loadEnglishResourceFiles(optionsFor(s)));
		expect(err.message).toContain(`The zip from ${s.base}${STOPWORDS} is corrupt`);
		expect(err.message).toContain('inflates to more than the 1000 bytes it declares');
	});

	it('refuses a member whose CRC does not match', async () => {
		const zip = zipOf({ 'stopwords/english': 'a\nthe\n' });
		const view = new DataView(zip.buffer);
		const central = centralOffset(zip);
		view.setUint32(central + 16, view.getUint32(central + 16, true) ^ 1, true);
		const s = await start({ [STOPWORDS]: zip });
		const err = await failure(loadEnglishResourceFiles(optionsFor(s)));
		expect(err.message).toContain('stopwords/english fails its CRC-32 check');
	});

	/** fetch that answers `path` with `body` (a stream as a slow host sends it), the rest normally. */
	const answering =
		(path: string, body: () => ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
		(url: string, init?: { signal?: AbortSignal }) =>
			url.endsWith(path)
				? Promise.resolve(new Response(body(), { status: 200, headers }))
				: fetch(url, init);

	it('ends a download that trickles at its deadline, naming the host and the bytes', async () => {
		const s = await start();
		let timer: ReturnType<typeof setInterval> | undefined;
		// One byte every 100 ms, of 1,000 declared: it would take 100 s.
		const trickle = () =>
			new ReadableStream<Uint8Array>({
				start(c) {
					timer = setInterval(() => c.enqueue(new Uint8Array([0x61])), 100);
				},
				cancel() {
					clearInterval(timer);
				}
			});
		const t0 = Date.now();
		const err = await failure(
			loadEnglishResourceFiles(
				optionsFor(s, {
					fetch: answering(STOPWORDS, trickle, { 'content-length': '1000' }),
					deadlineMs: 800
				})
			)
		);
		clearInterval(timer);
		expect(Date.now() - t0).toBeLessThan(3_000);
		expect(err.message).toMatch(
			/did not finish within 0\.8 s: 127\.0\.0\.1:\d+ sent \d+ of 1000 bytes/
		);
	});

	it('ends a body that stalls after its headers at the deadline', async () => {
		const s = await start();
		const stalled = () =>
			new ReadableStream<Uint8Array>({
				start(c) {
					c.enqueue(new Uint8Array(10));
				}
			});
		const err = await failure(
			loadEnglishResourceFiles(optionsFor(s, { fetch: answering(PUNKT, stalled), deadlineMs: 500 }))
		);
		expect(err.message).toContain(`The download of ${s.base}${PUNKT} did not finish within 0.5 s`);
		expect(err.message).toContain('sent 10 bytes');
	});

	it('refuses a body larger than the cap, before or while reading it', async () => {
		const s = await start();
		const endless = () =>
			new ReadableStream<Uint8Array>({
				pull(c) {
					c.enqueue(new Uint8Array(1024 * 1024));
				}
			});
		const declared: Record<string, string>[] = [{ 'content-length': String(1.5e9) }, {}];
		for (const headers of declared) {
			const err = await failure(
				loadEnglishResourceFiles(optionsFor(s, { fetch: answering(SYLLAPY, endless, headers) }))
			);
			expect(err.message).toContain(`${s.base}${SYLLAPY} is larger than 64 MB`);
		}
	});

	it('names the member a zip lacks', async () => {
		const rest: Record<string, string> = { ...punktMembers };
		delete rest['punkt_tab/english/ortho_context.tab'];
		const s = await start({ [PUNKT]: zipOf(rest) });
		const err = await failure(loadEnglishResourceFiles(optionsFor(s)));
		expect(err.message).toContain('has no member punkt_tab/english/ortho_context.tab');
		expect(err.message).toContain(`${s.base}${PUNKT}`);
	});

	it('says a member that is not UTF-8', async () => {
		const bad = zipSync({ 'stopwords/english': new Uint8Array([0x61, 0xff, 0x0a]) });
		const s = await start({ [STOPWORDS]: bad });
		const err = await failure(loadEnglishResourceFiles(optionsFor(s)));
		expect(err.message).toContain('stopwords/english');
		expect(err.message).toContain('not UTF-8');
	});

	it('stops with AbortError when cancelled', async () => {
		const s = await start();
		const ctl = new AbortController();
		ctl.abort();
		await expect(loadEnglishResourceFiles(optionsFor(s, { signal: ctl.signal }))).rejects.toThrow(
			AbortError
		);
		const ctl2 = new AbortController();
		s.faultNext(TAGGER, 503);
		const p = loadEnglishResourceFiles(
			optionsFor(s, {
				signal: ctl2.signal,
				sleep: () => {
					ctl2.abort();
					return new Promise(() => {});
				}
			})
		);
		await expect(p).rejects.toThrow(AbortError);
	});
});
