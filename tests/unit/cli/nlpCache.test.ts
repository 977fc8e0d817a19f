/**
 * The CLI's directory cache of NLP data, with real files in a temporary directory: round trip,
 * names, no temporary files left, and a truncated file that the loader drops and fetches again.
 */
import { strToU8, zipSync } from 'fflate';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheFileName, defaultNlpCacheDir, directoryCache } from '../../../src/cli/nlpCache.ts';
import { loadEnglishResourceFiles, resourceUrls } from '../../../src/lib/nlp/load.ts';
import { type FakeRaw, startFakeRaw } from '../nlp/fakeRawGithub.ts';

let dir: string;
let server: FakeRaw | undefined;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), 'nlp-cache-'));
});
afterEach(async () => {
	await server?.close();
	server = undefined;
	await rm(dir, { recursive: true, force: true });
});

const URL_A =
	'https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages/corpora/stopwords.zip';

describe('directoryCache', () => {
	it('gives back what was put, under a hash of the URL, with no temporary file left', async () => {
		const cache = directoryCache(join(dir, 'nested', 'nlp'));
		expect(await cache.get(URL_A)).toBeUndefined();
		await cache.put(URL_A, new Uint8Array([1, 2, 3]));
		await cache.put(URL_A, new Uint8Array([4, 5]));
		expect(await cache.get(URL_A)).toEqual(new Uint8Array([4, 5]));
		expect(await readdir(join(dir, 'nested', 'nlp'))).toEqual([cacheFileName(URL_A)]);
		expect(cacheFileName(URL_A)).toMatch(/^[0-9a-f]{64}\.zip$/);
		expect(cacheFileName(`${URL_A}?x`)).not.toBe(cacheFileName(URL_A));
	});

	it('leaves no half file under the real name when the process is killed mid-write', async () => {
		const size = 32 * 1024 * 1024;
		const writer = new URL('./nlpCacheWriter.ts', import.meta.url).pathname;
		const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, URL_A, String(size)], {
			stdio: 'ignore'
		});
		const exited = new Promise((resolve) => child.on('exit', resolve));
		const final = join(dir, cacheFileName(URL_A));
		// Kill while a put is being written.
		await new Promise<void>((resolve, reject) => {
			const started = Date.now();
			const timer = setInterval(() => {
				// Being written: a temporary file exists, or (were it written in place) the file is short.
				const writing =
					existsSync(final) &&
					(readdirSync(dir).some((f) => f.endsWith('.tmp')) || statSync(final).size < size);
				if (writing) {
					clearInterval(timer);
					child.kill('SIGKILL');
					resolve();
				} else if (Date.now() - started > 20_000) {
					clearInterval(timer);
					child.kill('SIGKILL');
					reject(new Error('the writer never got going'));
				}
			}, 5);
		});
		await exited;
		const got = await directoryCache(dir).get(URL_A);
		expect(got?.length).toBe(size);
		expect(got?.every((b) => b === 0x5a)).toBe(true);
	}, 30_000);

	it('ignores a temporary file left by a killed run', async () => {
		const cache = directoryCache(dir);
		await writeFile(join(dir, `${cacheFileName(URL_A)}.123.abcd.tmp`), 'half');
		expect(await cache.get(URL_A)).toBeUndefined();
	});

	it('fails loudly on a read error other than a missing file', async () => {
		const cache = directoryCache(dir);
		await writeFile(join(dir, 'plain-file'), '');
		const inFile = directoryCache(join(dir, 'plain-file'));
		await expect(inFile.get(URL_A)).rejects.toThrow(/ENOTDIR/);
		await expect(inFile.put(URL_A, new Uint8Array([1]))).rejects.toThrow();
		expect(await cache.get(URL_A)).toBeUndefined();
	});

	it('lives under XDG_CACHE_HOME when set', () => {
		expect(defaultNlpCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/user-turn-probe/nlp');
		expect(defaultNlpCacheDir({})).toMatch(/\.cache\/user-turn-probe\/nlp$/);
	});

	it('serves a second load with no network; a truncated file is fetched again', async () => {
		const T = 'averaged_perceptron_tagger_eng/averaged_perceptron_tagger_eng';
		const zip = (m: Record<string, string>) =>
			zipSync(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, strToU8(v)])));
		const pkg = '/nltk/nltk_data/gh-pages/packages';
		server = await startFakeRaw({
			[`${pkg}/tokenizers/punkt_tab.zip`]: zip({
				'punkt_tab/english/abbrev_types.txt': 'dr\n',
				'punkt_tab/english/collocations.tab': '',
				'punkt_tab/english/sent_starters.txt': 'but\n',
				'punkt_tab/english/ortho_context.tab': 'the\t2\n'
			}),
			[`${pkg}/taggers/averaged_perceptron_tagger_eng.zip`]: zip({
				[`${T}.weights.json`]: '{}',
				[`${T}.tagdict.json`]: '{}',
				[`${T}.classes.json`]: '["NN"]'
			}),
			[`${pkg}/corpora/stopwords.zip`]: zip({ 'stopwords/english': 'a\n' }),
			'/mholtzscher/syllapy/9b95c13d809a87e9eaba96f6b61e7fc3978acded/syllapy/data.csv':
				strToU8('a,1\n')
		});
		const opts = {
			fetch: (url: string, init?: { signal?: AbortSignal }) => fetch(url, init),
			nltkDataBase: server.nltkDataBase,
			syllapyBase: server.syllapyBase,
			cache: directoryCache(dir),
			sleep: async () => {}
		};
		const first = await loadEnglishResourceFiles(opts);
		expect((await readdir(dir)).sort()).toHaveLength(4);
		server.requests.length = 0;
		expect(await loadEnglishResourceFiles(opts)).toEqual(first);
		expect(server.requests).toEqual([]);

		const punkt = join(dir, cacheFileName(resourceUrls(opts).punkt));
		const whole = await readFile(punkt);
		await truncate(punkt, Math.floor(whole.length / 2));
		expect(await loadEnglishResourceFiles(opts)).toEqual(first);
		expect(server.requests).toEqual([
			`${'/nltk/nltk_data/gh-pages/packages'}/tokenizers/punkt_tab.zip`
		]);
		expect(await readFile(punkt)).toEqual(whole);
		expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
	});
});
