/**
 * The WebGPU engine checks what web-llm took from a model mirror against the mirror's index.json:
 * the worker handler over the fake web-llm, whose reload downloads a catalog model's files into an
 * in-memory Cache Storage as web-llm 0.2.86 does (by the records the handler gives it, pointing at
 * the mirror). A damaged copy, one the index does not list, one of the wrong size and one cut
 * short are each named and dropped from the cache; a size-only index checks sizes only.
 */
import { createHash, randomBytes } from 'node:crypto';
import { prebuiltAppConfig, type AppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import {
	mirrorPath,
	parseMirrorManifest,
	type MirrorSource
} from '../../../src/lib/engines/mirror.ts';
import type { WorkerRequest } from '../../../src/lib/engines/webgpu/protocol.ts';
import { modelBaseUrl } from '../../../src/lib/engines/webgpu/worker/cacheSizes.ts';
import { MIRROR_CHECKED_CACHE } from '../../../src/lib/engines/webgpu/worker/mirrorCheck.ts';
import { createHandler } from '../../../src/lib/engines/webgpu/worker/handler.ts';
import type {
	ErrorReply,
	ResultReply,
	WorkerReply
} from '../../../src/lib/engines/worker/protocol.ts';
import { FakeCacheStorage } from '../../helpers/fakeCaches.ts';
import { FakeWebLLM } from '../../helpers/fakeWebLLM.ts';

const MIRROR = 'http://127.0.0.1:8931/kit';
/** The classroom preset's WebGPU model, in the variant SwiftShader runs. */
const MODEL = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';
const REPO = `mlc-ai/${MODEL}/resolve/main`;
const CONFIG = `${REPO}/mlc-chat-config.json`;
const TOKENIZER = `${REPO}/tokenizer.json`;
const TENSORS = `${REPO}/tensor-cache.json`;
const SHARD0 = `${REPO}/params_shard_0.bin`;
const SHARD1 = `${REPO}/params_shard_1.bin`;
const LIB = mirrorPath(
	prebuiltAppConfig.model_list.find((r) => r.model_id === MODEL)?.model_lib ?? ''
);
if (!LIB) throw new Error(`${MODEL} has no model library on GitHub`);

const text = (s: string) => new TextEncoder().encode(s);
/** The teacher's kit: the files user-turn-probe mirror writes for the model, by path. */
function kit(): Record<string, Uint8Array> {
	return {
		[CONFIG]: text(JSON.stringify({ model_type: 'qwen2', tokenizer_files: ['tokenizer.json'] })),
		[TOKENIZER]: text('{"model":{"type":"BPE"}}'),
		[TENSORS]: text(
			JSON.stringify({
				records: [
					{
						dataPath: 'params_shard_0.bin',
						records: [
							{ byteOffset: 0, nbytes: 4000 },
							{ byteOffset: 4000, nbytes: 4000 }
						]
					},
					{ dataPath: 'params_shard_1.bin', records: [{ byteOffset: 0, nbytes: 5000 }] }
				]
			})
		),
		[SHARD0]: randomBytes(8000),
		[SHARD1]: randomBytes(5000),
		[LIB as string]: randomBytes(3000)
	};
}

/** index.json as the CLI writes it for `files` (each file's size and sha256). */
function indexOf(files: Record<string, Uint8Array>, opts: { sha?: boolean } = {}) {
	const entries = Object.entries(files).map(([path, bytes]) => [
		path,
		{
			size: bytes.byteLength,
			...(opts.sha !== false && { sha256: createHash('sha256').update(bytes).digest('hex') })
		}
	]);
	const size = Object.values(files).reduce((n, b) => n + b.byteLength, 0);
	return parseMirrorManifest({
		format: 'user-turn-probe-mirror/1',
		files: Object.fromEntries(entries),
		models: { [MODEL]: { bytes: size, files: Object.keys(files) } }
	});
}

function flip(bytes: Uint8Array, at = 100): Uint8Array {
	const out = Uint8Array.from(bytes);
	out[at] ^= 0xff;
	return out;
}

/** A static host for the kit: each answer carries its own Date, as a real server's does. */
function host(files: Record<string, Uint8Array>) {
	let second = 0;
	return async (url: string) => {
		const path = url.startsWith(`${MIRROR}/`) ? url.slice(MIRROR.length + 1) : '';
		const body = files[path];
		if (!body) return new Response('Not Found', { status: 404, statusText: 'Not Found' });
		const date = new Date(Date.UTC(2026, 10, 28, 9, 0, second++)).toUTCString();
		return new Response(body.slice(), {
			headers: { date, 'content-length': String(body.byteLength) }
		});
	};
}

/** web-llm's deleteModelAllInfoInCache over the fake caches: the record's files, by URL. */
function deleteLikeWebLLM(caches: FakeCacheStorage) {
	return async (model: string, config?: AppConfig) => {
		const record = config?.model_list.find((r) => r.model_id === model);
		if (!record) throw new Error(`no record for ${model}`);
		const base = modelBaseUrl(record.model);
		for (const scope of ['webllm/config', 'webllm/wasm', 'webllm/model']) {
			const cache = await caches.open(scope);
			for (const url of await caches.urls(scope)) {
				if (url.startsWith(base) || url === record.model_lib) await cache.delete(url);
			}
		}
	};
}

/** A request before the worker's client numbers it. */
type Unsent = WorkerRequest extends infer R
	? R extends WorkerRequest
		? Omit<R, 'id'>
		: never
	: never;

/** One engine worker (a new one per page visit) over the browser's one Cache Storage. */
function worker(caches: FakeCacheStorage) {
	const fake = new FakeWebLLM();
	fake.reportsFor = () => [];
	fake.caches = caches;
	const waiting = new Map<number, (m: ResultReply | ErrorReply) => void>();
	const handle = createHandler(
		fake.createEngine,
		(msg: WorkerReply) => {
			if (msg.kind === 'result' || msg.kind === 'error') waiting.get(msg.id)?.(msg);
		},
		{ caches, delete: deleteLikeWebLLM(caches) },
		{ baseAppConfig: prebuiltAppConfig }
	);
	let id = 0;
	const send = (msg: Unsent) =>
		new Promise<ResultReply | ErrorReply>((resolve) => {
			const withId = { ...msg, id: ++id } as WorkerRequest;
			waiting.set(withId.id, resolve);
			handle(structuredClone(withId));
		});
	const load = (mirror: MirrorSource) => send({ kind: 'load', models: [MODEL], mirror });
	return { fake, load, send };
}

async function failed(reply: ResultReply | ErrorReply) {
	if (reply.kind !== 'error') throw new Error('the load did not fail');
	return reply.error;
}

const cached = async (caches: FakeCacheStorage, path: string) => {
	const scope = path === CONFIG ? 'webllm/config' : path === LIB ? 'webllm/wasm' : 'webllm/model';
	return (await caches.urls(scope)).includes(`${MIRROR}/${path}`);
};

describe("the WebGPU engine checks a mirror's files against its index.json", () => {
	it('loads a model whose every file matches, each fetched once from the mirror', async () => {
		const files = kit();
		const caches = new FakeCacheStorage(host(files));
		const { fake, load } = worker(caches);
		const reply = await load({ base: MIRROR, manifest: indexOf(files) });
		expect(reply.kind).toBe('result');
		expect(fake.resident).toEqual([MODEL]);
		expect(caches.fetched.sort()).toEqual(
			Object.keys(files)
				.map((p) => `${MIRROR}/${p}`)
				.sort()
		);
		expect(await caches.urls(MIRROR_CHECKED_CACHE)).toHaveLength(Object.keys(files).length);
	});

	it('a damaged copy (same size, one byte changed) is named, dropped from the cache, and fetched again next time', async () => {
		const files = kit();
		const manifest = indexOf(files);
		const served = { ...files, [SHARD1]: flip(files[SHARD1]) };
		const caches = new FakeCacheStorage(host(served));
		const first = worker(caches);
		const error = await failed(await first.load({ base: MIRROR, manifest }));
		expect(error.code).toBe('bad_model');
		expect(error.message).toContain(`The model mirror's ${SHARD1} does not match its index.json`);
		expect(error.message).toContain('so it was not kept');
		expect(error.message).not.toMatch(/huggingface|Your model/i);
		// The model that took it is not left on the GPU; only the damaged copy left the cache.
		expect(first.fake.resident).toEqual([]);
		expect(await cached(caches, SHARD1)).toBe(false);
		for (const p of [CONFIG, TOKENIZER, TENSORS, SHARD0, LIB])
			expect(await cached(caches, p)).toBe(true);

		// The host mends its copy: the next load fetches that one file again, and runs.
		served[SHARD1] = files[SHARD1];
		caches.fetched.length = 0;
		const again = worker(caches);
		expect((await again.load({ base: MIRROR, manifest })).kind).toBe('result');
		expect(caches.fetched).toEqual([`${MIRROR}/${SHARD1}`]);
		expect(again.fake.resident).toEqual([MODEL]);
	});

	it('a file the index does not list is named and not kept', async () => {
		const files = kit();
		const manifest = indexOf(files);
		delete manifest.files[TOKENIZER];
		const caches = new FakeCacheStorage(host(files));
		const error = await failed(await worker(caches).load({ base: MIRROR, manifest }));
		expect(error.message).toContain(
			`The model mirror's ${TOKENIZER} is not listed in its index.json, so it cannot be checked`
		);
		expect(await cached(caches, TOKENIZER)).toBe(false);
		expect(await cached(caches, CONFIG)).toBe(true);
	});

	it('with a size-only index (no sha256), sizes are checked: a longer copy is named, a same-size one passes', async () => {
		const files = kit();
		const manifest = indexOf(files, { sha: false });
		const longer = new Uint8Array([...files[TOKENIZER], 0x20, 0x20]);
		const caches = new FakeCacheStorage(host({ ...files, [TOKENIZER]: longer }));
		const error = await failed(await worker(caches).load({ base: MIRROR, manifest }));
		const want = files[TOKENIZER].byteLength;
		expect(error.message).toContain(
			`The model mirror's ${TOKENIZER} is ${(want + 2).toLocaleString('en')} bytes, but its index.json says ${want.toLocaleString('en')}`
		);
		expect(await cached(caches, TOKENIZER)).toBe(false);

		// Without a checksum, a same-size change cannot be seen: the load goes ahead.
		const sameSize = new FakeCacheStorage(host({ ...files, [SHARD0]: flip(files[SHARD0]) }));
		expect((await worker(sameSize).load({ base: MIRROR, manifest })).kind).toBe('result');
	});

	it('a shard cut short, on which web-llm itself fails naming no file, is named with its sizes', async () => {
		const files = kit();
		const manifest = indexOf(files);
		const cut = { ...files, [SHARD0]: files[SHARD0].slice(0, 6000) };
		// Without the index, web-llm's own words are all there is.
		const blind = await failed(
			await worker(new FakeCacheStorage(host(cut))).load({ base: MIRROR })
		);
		expect(blind.message).toContain(
			'Tensor-cache record range [4000, 8000) exceeds shard size 6000'
		);

		const caches = new FakeCacheStorage(host(cut));
		const error = await failed(await worker(caches).load({ base: MIRROR, manifest }));
		expect(error.code).toBe('bad_model');
		expect(error.message).toContain(
			`The model mirror's ${SHARD0} is 6,000 bytes, but its index.json says 8,000`
		);
		expect(await cached(caches, SHARD0)).toBe(false);
	});

	it('several bad copies: the first is named, the others counted, and none is kept', async () => {
		const files = kit();
		const served = { ...files, [CONFIG]: flip(files[CONFIG], 3), [SHARD1]: flip(files[SHARD1]) };
		const caches = new FakeCacheStorage(host(served));
		const error = await failed(
			await worker(caches).load({ base: MIRROR, manifest: indexOf(files) })
		);
		expect(error.message).toContain(`${CONFIG} does not match`);
		expect(error.message).toContain('1 more file(s) of the mirror failed the same check');
		expect(await cached(caches, CONFIG)).toBe(false);
		expect(await cached(caches, SHARD1)).toBe(false);
	});

	it('a copy checked at an earlier visit is not read again; one deleted and downloaded anew is checked anew', async () => {
		const files = kit();
		const manifest = indexOf(files);
		const served = { ...files };
		const caches = new FakeCacheStorage(host(served));
		expect((await worker(caches).load({ base: MIRROR, manifest })).kind).toBe('result');
		const shard = `${MIRROR}/${SHARD0}`;
		// The stamp is what spares a cached model a re-hash at each visit: the same copy, even if
		// its bytes changed on disk since (same size), is not read again.
		(await caches.open('webllm/model')).overwrite(shard, flip(files[SHARD0]));
		const page = worker(caches);
		expect((await page.load({ base: MIRROR, manifest })).kind).toBe('result');

		// Deleted (set-up's Delete here; another tab or the browser's tools alike) while the host's
		// copy went bad: the next load drops the stamps of what is gone, and reads and refuses the
		// copy downloaded anew.
		const deleted = await page.send({
			kind: 'cacheQuery',
			op: 'delete',
			model: MODEL,
			mirror: MIRROR
		});
		expect(deleted.kind).toBe('result');
		served[SHARD0] = flip(files[SHARD0], 7);
		const error = await failed(await worker(caches).load({ base: MIRROR, manifest }));
		expect(error.message).toContain(`${SHARD0} does not match its index.json`);
		// What is cached again (all but the refused shard) is stamped again; nothing else is.
		expect((await caches.urls(MIRROR_CHECKED_CACHE)).sort()).toEqual(
			Object.keys(files)
				.filter((p) => p !== SHARD0)
				.map((p) => `${MIRROR}/${p}`)
				.sort()
		);
	});

	it('a mirror without index.json loads unchecked (nothing to check against)', async () => {
		const files = kit();
		const caches = new FakeCacheStorage(host({ ...files, [SHARD1]: flip(files[SHARD1]) }));
		expect((await worker(caches).load({ base: MIRROR })).kind).toBe('result');
		expect(await caches.has(MIRROR_CHECKED_CACHE)).toBe(false);
	});
});
