/**
 * The model mirror: where a Hub or GitHub-raw URL is fetched from, the one-time check's plain
 * words (unreachable, CORS, http from https, a file missing, named), and the CPU worker's fetch
 * that takes catalog files from the mirror (a missing file and a short copy named), against real
 * HTTP servers on 127.0.0.1.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findGguf, ggufUrl } from '../../../src/lib/engines/cpu/catalog.ts';
import {
	mirroredFetch,
	verifyMirrorCopy
} from '../../../src/lib/engines/cpu/worker/mirrorFetch.ts';
import {
	checkMirror,
	mirrorBaseProblem,
	mirrorPath,
	mirrorFileProblem,
	parseMirrorManifest,
	sha256Hex,
	viaMirror
} from '../../../src/lib/engines/mirror.ts';
import { isHubBlocked } from '../../../src/lib/errors/hubBlocked.ts';
import { parseHash } from '../../../src/lib/routing/routes.ts';
import { serveHub, type HubServer } from '../../helpers/hubServer.ts';

const entry = catalogEntry('qwen2.5-0.5b-instruct-q4_k_m');
const HUB_URL = ggufUrl(entry);
const PATH = `${entry.repo}/resolve/main/${entry.file}`;
const weights = randomBytes(50_000);
function catalogEntry(key: string) {
	const e = findGguf(key);
	if (!e) throw new Error(`no catalog entry ${key}`);
	return e;
}
const sha = createHash('sha256').update(weights).digest('hex');
const manifestOf = (size = weights.byteLength, sha256 = sha) => ({
	format: 'user-turn-probe-mirror/1',
	files: { [PATH]: { size, sha256 } },
	models: { [HUB_URL]: { bytes: size, files: [PATH] } }
});

describe('mirror paths', () => {
	it('maps Hub and GitHub-raw URLs onto the Hub layout under the base, and nothing else', () => {
		expect(viaMirror(HUB_URL, 'http://school.lan/models/')).toBe(
			`http://school.lan/models/${PATH}`
		);
		expect(
			viaMirror(
				'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_80/X-webgpu.wasm',
				'https://m.example'
			)
		).toBe(
			'https://m.example/mlc-ai/binary-mlc-llm-libs/resolve/main/web-llm-models/v0_2_80/X-webgpu.wasm'
		);
		expect(viaMirror('https://my.host/own.gguf', 'https://m.example')).toBe(
			'https://my.host/own.gguf'
		);
		expect(viaMirror(HUB_URL, '')).toBe(HUB_URL);
		expect(mirrorPath('https://huggingface.co.evil.example/x')).toBeNull();
	});

	it('says why an address cannot be a mirror', () => {
		expect(mirrorBaseProblem('school models')).toMatch(/is not a URL/);
		expect(mirrorBaseProblem('ftp://school/models')).toMatch(/must start with https:\/\//);
		expect(mirrorBaseProblem('http://10.0.0.5/models', 'https:')).toMatch(
			/This page is https, so the browser refuses files from http:\/\/10\.0\.0\.5/
		);
		// The same machine is allowed from https (browsers treat loopback as secure).
		expect(mirrorBaseProblem('http://127.0.0.1:8080', 'https:')).toBeNull();
		expect(mirrorBaseProblem('http://10.0.0.5/models', 'http:')).toBeNull();
	});

	it('a class link carries the mirror alone or with its examples', () => {
		const base = 'http://127.0.0.1:9000/kit';
		expect(parseHash(`#/?models=${base}`).params.models).toBe(base);
		const both = parseHash(`#/?examples=${base}/index.json&models=${base}`).params;
		expect(both).toMatchObject({ examples: `${base}/index.json`, models: base });
		const swapped = parseHash(
			`#/?models=${encodeURIComponent(base)}&examples=${base}/i.json`
		).params;
		expect(swapped).toMatchObject({ examples: `${base}/i.json`, models: base });
	});

	it('reads a manifest, leaving out what is not a size or a sha256', () => {
		const m = parseMirrorManifest({
			files: { a: { size: 3, sha256: 'nope' }, b: { size: -1 }, [PATH]: { size: 9, sha256: sha } },
			models: { x: { bytes: 0, files: [] } }
		});
		expect(m.files).toEqual({ a: { size: 3 }, [PATH]: { size: 9, sha256: sha } });
		expect(m.models).toEqual({});
		expect(() => parseMirrorManifest({ examples: [] })).toThrow(/not a model mirror's manifest/);
	});
});

describe('checkMirror against a real mirror', () => {
	let hub: HubServer;
	beforeEach(async () => {
		hub = await serveHub({
			[PATH]: weights,
			'index.json': Buffer.from(JSON.stringify(manifestOf()))
		});
	});
	afterEach(() => hub.close());

	it('passes a mirror that lists the files, and hands over its manifest', async () => {
		const r = await checkMirror({ base: hub.base, want: [HUB_URL], fetch });
		expect(r.ok).toBe(true);
		expect(r.manifest?.models[HUB_URL].bytes).toBe(weights.byteLength);
	});

	it('names the file a mirror does not have', async () => {
		const other = ggufUrl(catalogEntry('smollm2-360m-instruct-q8_0'));
		const r = await checkMirror({ base: hub.base, want: [other], fetch });
		expect(r.ok).toBe(false);
		expect(r.problem).toContain(
			'has no HuggingFaceTB/SmolLM2-360M-Instruct-GGUF/resolve/main/smollm2-360m-instruct-q8_0.gguf'
		);
	});

	it('says unreachable when nothing answers, and http from an https page without a request', async () => {
		const closed = await serveHub({});
		const base = closed.base;
		await closed.close();
		const r = await checkMirror({ base, want: [HUB_URL], fetch });
		expect(r.problem).toMatch(/cannot be reached from here/);
		let asked = 0;
		const r2 = await checkMirror({
			base: 'http://10.1.2.3/kit',
			want: [HUB_URL],
			pageProtocol: 'https:',
			fetch: async () => {
				asked++;
				throw new TypeError('Failed to fetch');
			}
		});
		expect(r2.problem).toMatch(/This page is https/);
		expect(asked).toBe(0);
	});

	it('tells CORS from unreachable: the host answers a no-cors request', async () => {
		const corsRefused: typeof fetch = async (url, init) => {
			if (init?.mode === 'no-cors') return new Response(null, { status: 200 });
			throw new TypeError('Failed to fetch');
		};
		const r = await checkMirror({ base: hub.base, want: [HUB_URL], fetch: corsRefused });
		expect(r.problem).toMatch(/does not let other sites read its files \(CORS\)/);
		expect(isHubBlocked(r.problem ?? '')).toBe(false);
	});
});

describe("the CPU worker's fetch through a mirror", () => {
	let mirror: HubServer;
	beforeEach(async () => {
		mirror = await serveHub({ [PATH]: weights });
	});
	afterEach(() => mirror.close());

	it('takes the Hub URL from the mirror, and fetches other URLs as they are', async () => {
		const fetched = new Set<string>();
		const f = mirroredFetch(
			fetch,
			() => ({ base: mirror.base, manifest: parseMirrorManifest(manifestOf()) }),
			fetched
		);
		const res = await f(HUB_URL);
		const body = new Uint8Array(await res.arrayBuffer());
		expect(body.byteLength).toBe(weights.byteLength);
		expect(await sha256Hex(new Blob([body]))).toBe(sha);
		expect(fetched.has(PATH)).toBe(true);
		expect(mirror.requests.some((r) => r.startsWith(`GET /${PATH}`))).toBe(true);
		// The Hub's LFS pointer is not asked of the mirror.
		expect((await f(HUB_URL.replace('/resolve/', '/raw/'))).status).toBe(404);
		expect(mirror.requests.some((r) => r.includes('/raw/'))).toBe(false);
	});

	it('a file the mirror lacks fails naming the mirror\'s file, not as "Hugging Face blocked"', async () => {
		const other = ggufUrl(catalogEntry('qwen3-0.6b-q8_0'));
		const f = mirroredFetch(fetch, () => ({ base: mirror.base }));
		const err = await f(other).catch((e: unknown) => e as Error);
		expect(err).toBeInstanceOf(Error);
		expect((err as Error).message).toContain(
			`${mirror.base}/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf answers HTTP 404`
		);
		expect(isHubBlocked(err as Error)).toBe(false);
	});

	it('a copy whose length differs from index.json fails naming the file', async () => {
		const f = mirroredFetch(fetch, () => ({
			base: mirror.base,
			manifest: parseMirrorManifest(manifestOf(weights.byteLength + 10))
		}));
		await expect(f(HUB_URL)).rejects.toThrow(
			new RegExp(
				`The model mirror's ${PATH.replace(/\./g, '\\.')} is 50,000 bytes, but its index.json says 50,010`
			)
		);
	});

	it('a copy cut short by a host that sends no Content-Length fails naming the file', async () => {
		// A chunked reply (no length header) that ends early: only counting the bytes can tell.
		const short = async () =>
			new Response(
				new ReadableStream<Uint8Array>({
					start(c) {
						c.enqueue(weights.subarray(0, 30_000));
						c.close();
					}
				})
			);
		const f = mirroredFetch(short, () => ({
			base: mirror.base,
			manifest: parseMirrorManifest(manifestOf())
		}));
		const res = await f(HUB_URL);
		await expect(res.arrayBuffer()).rejects.toThrow(
			`The model mirror's ${PATH} is 30,000 bytes, but its index.json says 50,000`
		);
	});

	it('a file the index.json does not list is refused before its download, naming it', async () => {
		const f = mirroredFetch(fetch, () => ({
			base: mirror.base,
			manifest: parseMirrorManifest({ ...manifestOf(), files: {} })
		}));
		await expect(f(HUB_URL)).rejects.toThrow(
			`The model mirror's ${PATH} is not listed in its index.json, so it cannot be checked`
		);
	});

	it('without a mirror, the Hub URL is fetched as it is', async () => {
		const seen: string[] = [];
		const f = mirroredFetch(
			async (u) => (seen.push(String(u)), new Response('x')),
			() => undefined
		);
		await f(HUB_URL);
		expect(seen).toEqual([HUB_URL]);
	});
});

describe("the CPU engine's check of a mirror download's sha256", () => {
	const source = (sha256 = sha) => ({
		base: 'http://school.test',
		manifest: parseMirrorManifest(manifestOf(weights.byteLength, sha256))
	});
	function cached(bytes: Uint8Array) {
		const copy = {
			removed: false,
			open: async () => [new Blob([Uint8Array.from(bytes)])],
			remove: async () => void (copy.removed = true)
		};
		return copy;
	}

	it('keeps a copy whose sha256 is the one index.json gives', async () => {
		const copy = cached(weights);
		await verifyMirrorCopy(HUB_URL, source(), new Set([PATH]), async () => copy);
		expect(copy.removed).toBe(false);
	});

	it('removes a damaged copy (same size, one byte changed) and names the file', async () => {
		const damaged = Uint8Array.from(weights);
		damaged[4321] ^= 0xff;
		const copy = cached(damaged);
		const err = await verifyMirrorCopy(HUB_URL, source(), new Set([PATH]), async () => copy).catch(
			(e: unknown) => e as Error
		);
		expect(err).toBeInstanceOf(Error);
		expect((err as Error).message).toContain(
			`The model mirror's ${PATH} does not match its index.json (sha256 `
		);
		expect((err as Error).message).toContain(`expected ${sha.slice(0, 12)}…`);
		expect(copy.removed).toBe(true);
		expect(isHubBlocked(err as Error)).toBe(false);
	});

	it('does not read a file cached before this load, nor one index.json gives no sha256 for', async () => {
		let opened = 0;
		const find = async () => ({
			open: async () => (opened++, [new Blob(['x'])]),
			remove: async () => {}
		});
		await verifyMirrorCopy(HUB_URL, source(), new Set(), find);
		await verifyMirrorCopy(HUB_URL, { base: 'http://school.test' }, new Set([PATH]), find);
		expect(opened).toBe(0);
	});
});

describe("one check of a mirror's file against its index.json, for both engines", () => {
	const damaged = Uint8Array.from(weights);
	damaged[10] ^= 0xff;
	/** An index.json of the CLI's shape; the manifest column is the JSON as read. */
	const sizeOnly = { ...manifestOf(), files: { [PATH]: { size: weights.byteLength } } };
	const cases: [string, Uint8Array, unknown, string | null][] = [
		['a matching copy', weights, manifestOf(), null],
		['any copy, without an index.json', damaged, undefined, null],
		['a damaged copy', damaged, manifestOf(), 'does not match its index.json (sha256 '],
		[
			'a copy cut short',
			weights.subarray(0, 40_000),
			manifestOf(),
			'is 40,000 bytes, but its index.json says 50,000'
		],
		['a same-size damaged copy, size-only index', damaged, sizeOnly, null],
		[
			'a copy cut short, size-only index',
			weights.subarray(0, 9),
			sizeOnly,
			'is 9 bytes, but its index.json says 50,000'
		],
		[
			'a file the index does not list',
			weights,
			{ ...manifestOf(), files: {} },
			'is not listed in its index.json'
		]
	];
	it.each(cases)('%s', async (_, bytes, manifest, said) => {
		const problem = await mirrorFileProblem(
			PATH,
			new Blob([Uint8Array.from(bytes)]),
			manifest === undefined ? undefined : parseMirrorManifest(manifest)
		);
		if (said === null) expect(problem).toBeNull();
		else expect(problem).toContain(`The model mirror's ${PATH} ${said}`);
	});
});
