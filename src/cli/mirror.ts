/**
 * `user-turn-probe mirror`: a class's model kit, made once where the Hub is reachable. It copies
 * the files of chosen catalog models into the Hub's layout (`<owner>/<repo>/resolve/main/<file>`)
 * under --out: a GGUF for the CPU engine; for the WebGPU engine, an MLC repo's files as its own
 * manifests list them (mlc-chat-config.json, tensor-cache.json's shards, the tokenizer files) and
 * the model library from GitHub in the same layout. It writes `index.json`: each file's size and sha256, and each model's total, which
 * the app reads (engines/mirror.ts) to show sizes before any download and to check what it
 * downloads. An interrupted download resumes (HTTP Range) from its `.part` file; a file already
 * there is kept only when its size and checksum hold, else it is fetched again. A class's
 * example runs may share the folder and the index.json (its "examples" are kept).
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import type { ReadableStream as WebReadable } from 'node:stream/web';
import { finished, pipeline } from 'node:stream/promises';
import { AppError } from '../lib/errors/appError.ts';
import {
	DEFAULT_CPU_GENERATOR,
	GGUF_CATALOG,
	ggufUrl,
	type GgufEntry
} from '../lib/engines/cpu/catalog.ts';
import { findVariant, getCatalog, type CatalogVariant } from '../lib/engines/webgpu/catalog.ts';
import { SUGGESTED } from '../lib/engines/webgpu/models.ts';
import {
	HF_HUB,
	MIRROR_FORMAT,
	MIRROR_INDEX,
	mirrorPath,
	type MirrorFile,
	type MirrorManifest
} from '../lib/engines/mirror.ts';
import { UsageError } from './args.ts';

/** The classroom preset's models on both engines: the CPU engine's GGUF, the WebGPU engine's. */
export const DEFAULT_MIRROR_MODELS = [DEFAULT_CPU_GENERATOR, SUGGESTED.generator.key];

export const MIRROR_USAGE = `Usage: user-turn-probe mirror --out DIR [--model ID[,ID…]] [--from URL]

  Copies catalog models into DIR in the Hugging Face layout, with an index.json of each file's
  size and sha256, for a school to host (see "Hugging Face is blocked at school" in
  docs/classroom.md). Run it again to resume a download or repair a damaged file.

  --out DIR     the mirror's folder (created if needed); host it with CORS
  --model IDS   catalog models, comma-separated (default: the classroom preset's on both
                engines, ${DEFAULT_MIRROR_MODELS.join(',')}):
                CPU engine (GGUF): ${GGUF_CATALOG.map((e) => e.key).join(', ')}
                WebGPU engine (MLC; a key is both its variants, or name one by its web-llm id):
                ${getCatalog()
									.models.map((e) => e.key)
									.join(', ')}
  --from URL    where to copy from (default ${HF_HUB}, and GitHub for WebGPU model libraries;
                another mirror, or a test's stand-in)
`;

/** A catalog model to copy: the CPU engine's GGUF, or one WebGPU variant (web-llm model id). */
export type MirrorModel =
	| { engine: 'cpu'; entry: GgufEntry }
	| { engine: 'webgpu'; label: string; variant: CatalogVariant };

export interface MirrorOptions {
	out: string;
	models: MirrorModel[];
	from: string;
}

/** A --model name: a GGUF key, a WebGPU key (both variants) or one variant's web-llm id. */
function modelsNamed(key: string): MirrorModel[] | undefined {
	const gguf = GGUF_CATALOG.find((e) => e.key === key);
	if (gguf) return [{ engine: 'cpu', entry: gguf }];
	const mlc = getCatalog().models.find((e) => e.key === key);
	if (mlc) return mlc.variants.map((variant) => ({ engine: 'webgpu', label: mlc.label, variant }));
	const one = findVariant(key);
	return one && [{ engine: 'webgpu', label: one.entry.label, variant: one.variant }];
}

export class MirrorDownloadError extends AppError {
	constructor(message: string) {
		super(message, { code: 'mirror_download' });
		this.name = 'MirrorDownloadError';
	}
}

export function parseMirrorArgs(argv: string[]): MirrorOptions {
	let values: { out?: string; model?: string; from?: string };
	try {
		({ values } = parseArgs({
			args: argv,
			options: { out: { type: 'string' }, model: { type: 'string' }, from: { type: 'string' } },
			strict: true
		}));
	} catch (err) {
		throw new UsageError((err as Error).message, MIRROR_USAGE);
	}
	if (!values.out) throw new UsageError('mirror needs --out DIR', MIRROR_USAGE);
	const keys = (values.model ?? DEFAULT_MIRROR_MODELS.join(','))
		.split(',')
		.map((k) => k.trim())
		.filter(Boolean);
	const models = keys.flatMap((key) => {
		const named = modelsNamed(key);
		if (!named) {
			throw new UsageError(
				`--model: "${key}" is not a catalog model (see user-turn-probe mirror --help for the list)`,
				MIRROR_USAGE
			);
		}
		return named;
	});
	const from = (values.from ?? HF_HUB).replace(/\/+$/, '');
	try {
		if (!/^https?:$/.test(new URL(from).protocol)) throw new Error();
	} catch {
		throw new UsageError(`--from: "${values.from}" is not an http(s) URL`, MIRROR_USAGE);
	}
	return { out: resolve(values.out), models, from };
}

/** What the Hub says of a file before it is fetched: its size and, for LFS files, its sha256. */
interface Remote {
	size: number;
	sha256?: string;
}

/** One file's fate, for the summary. */
export type FileOutcome = 'kept' | 'downloaded' | 'resumed' | 'refetched' | 'missing';

export interface MirrorIO {
	stderr: { write(s: string): unknown };
	fetch?: typeof fetch;
	signal?: AbortSignal;
}

/**
 * The Hub answers a HEAD of an LFS file with a redirect whose X-Linked-Size and X-Linked-Etag are
 * the file's size and sha256; a plain file's Content-Length is its size.
 */
async function head(url: string, io: MirrorIO): Promise<Remote | null> {
	const f = io.fetch ?? fetch;
	const res = await f(url, { method: 'HEAD', redirect: 'manual', signal: io.signal });
	if (res.status === 404) return null;
	let from = res;
	if (res.status >= 300 && res.status < 400) {
		const linked = res.headers.get('x-linked-size');
		if (linked) return { size: Number(linked), ...sha(res.headers.get('x-linked-etag')) };
		from = await f(url, { method: 'HEAD', signal: io.signal });
	}
	if (!from.ok) throw new MirrorDownloadError(`${url} answered HTTP ${from.status}`);
	const size = Number(from.headers.get('x-linked-size') ?? from.headers.get('content-length'));
	if (!Number.isFinite(size) || size < 0) {
		throw new MirrorDownloadError(`${url} does not say its size (no Content-Length)`);
	}
	return { size, ...sha(from.headers.get('x-linked-etag')) };
}

function sha(etag: string | null): { sha256?: string } {
	const v = etag?.replace(/^W\//, '').replace(/"/g, '');
	return v && /^[0-9a-f]{64}$/.test(v) ? { sha256: v } : {};
}

export async function fileSha256(path: string): Promise<string> {
	const hash = createHash('sha256');
	await pipeline(createReadStream(path), hash);
	return hash.digest('hex');
}

function sizeOf(path: string): number | undefined {
	return existsSync(path) ? statSync(path).size : undefined;
}

/**
 * Bring one file up to date under `out`: kept when its size and checksum hold, resumed from its
 * `.part`, else fetched whole; checked before it takes its name.
 */
async function syncFile(
	url: string,
	out: string,
	path: string,
	known: MirrorFile | undefined,
	io: MirrorIO
): Promise<{ outcome: FileOutcome; file?: MirrorFile }> {
	const remote = await head(url, io);
	if (!remote) return { outcome: 'missing' };
	// A copy on disk must match what the source or our last index says; a fresh download only
	// what the source says (a small file changed upstream is not damaged).
	const want = remote.sha256 ?? known?.sha256;
	const dest = join(out, path);
	const part = `${dest}.part`;
	mkdirSync(dirname(dest), { recursive: true });
	let refetch = false;
	if (sizeOf(dest) !== undefined) {
		if (sizeOf(dest) === remote.size) {
			const got = await fileSha256(dest);
			if (!want || got === want)
				return { outcome: 'kept', file: { size: remote.size, sha256: got } };
		}
		io.stderr.write(`  ${path}: damaged (size or sha256 differs), fetching it again\n`);
		await rm(dest);
		refetch = true;
	}
	let start = sizeOf(part) ?? 0;
	if (start > remote.size) {
		await rm(part);
		start = 0;
	}
	// A .part already whole (the connection dropped after its last byte) needs no request: a Range
	// from its end is refused (416), and every run would fail the same way.
	let resumed = start > 0 && start === remote.size;
	if (!resumed) {
		const f = io.fetch ?? fetch;
		const res = await f(url, {
			headers: start > 0 ? { range: `bytes=${start}-` } : {},
			signal: io.signal
		});
		if (!res.ok || !res.body) throw new MirrorDownloadError(`${url} answered HTTP ${res.status}`);
		// A host that ignores Range sends the whole file: start over.
		resumed = start > 0 && res.status === 206;
		await saveBody(res.body as WebReadable<Uint8Array>, part, resumed);
	}
	const size = sizeOf(part) ?? 0;
	const got = await fileSha256(part);
	const fresh = remote.sha256;
	if (size !== remote.size || (fresh && got !== fresh)) {
		await rm(part);
		throw new MirrorDownloadError(
			`${path}: got ${size} bytes with sha256 ${got}, expected ${remote.size}${fresh ? ` with ${fresh}` : ''}; run the command again`
		);
	}
	await rename(part, dest);
	return {
		outcome: refetch ? 'refetched' : resumed ? 'resumed' : 'downloaded',
		file: { size, sha256: got }
	};
}

/**
 * Write a download's body to `part` (appending when it resumes), keeping every byte that arrived
 * even when the connection breaks or the run is stopped: a stream pipeline destroys the file on
 * the source's error and drops the writes still queued behind the disk (under load, all of them:
 * a 0-byte .part, and the next run starts the file over). What reaches the disk is a prefix of the
 * file, in order, which the next run resumes from; the error is thrown once it is there.
 */
async function saveBody(
	body: WebReadable<Uint8Array>,
	part: string,
	append: boolean
): Promise<void> {
	const file = createWriteStream(part, { flags: append ? 'a' : 'w' });
	const reader = body.getReader();
	let failure: unknown;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			if (!file.write(value)) await once(file, 'drain');
		}
	} catch (err) {
		failure = err;
	}
	file.end();
	try {
		await finished(file);
	} catch (err) {
		failure ??= err;
	}
	if (failure !== undefined) throw failure;
}

/** The files a catalog model needs on a mirror: its GGUF, and its chat template's repo config. */
export function modelFiles(entry: GgufEntry): { id: string; weights: string; extra: string[] } {
	const id = ggufUrl(entry);
	return {
		id,
		weights: mirrorPath(id) as string,
		extra: [`${entry.template_repo}/resolve/main/tokenizer_config.json`]
	};
}

/** web-llm 0.2.86 reads tensor-cache.json; older MLC repos name the same list ndarray-cache.json. */
export const MLC_TENSOR_CACHES = ['tensor-cache.json', 'ndarray-cache.json'] as const;
/** A shard's path inside its repo, as a tensor cache lists it: no way out of the repo's folder. */
const SHARD_PATH = /^(?!.*(^|\/)\.\.?(\/|$))[\w.-]+(\/[\w.-]+)*$/;

/** Copies one file of the mirror; false when it is not there (said) or failed (said, counted). */
type Copy = (path: string, opts?: { original?: string; optional?: boolean }) => Promise<boolean>;

/**
 * A WebGPU variant's files, in the order web-llm reads them: mlc-chat-config.json, the tensor
 * cache and the shards it lists, the tokenizer files the config names, and the model library.
 * @returns the files copied, and whether the model is whole (web-llm could load it from here).
 */
async function copyMlc(
	variant: CatalogVariant,
	copy: Copy,
	readJson: (path: string) => Promise<unknown>
): Promise<{ files: string[]; whole: boolean }> {
	const base = `${variant.mlc_repo}/resolve/main`;
	const files: string[] = [];
	const take = async (path: string, opts?: Parameters<Copy>[1]) => {
		const ok = await copy(path, opts);
		if (ok) files.push(path);
		return ok;
	};
	const configPath = `${base}/mlc-chat-config.json`;
	if (!(await take(configPath))) return { files, whole: false };
	const config = (await readJson(configPath)) as { tokenizer_files?: unknown } | undefined;
	if (!config) return { files, whole: false };

	let caches = 0;
	const shards = new Set<string>();
	for (const name of MLC_TENSOR_CACHES) {
		const path = `${base}/${name}`;
		if (!(await take(path, { optional: true }))) continue;
		const doc = (await readJson(path)) as { records?: { dataPath?: unknown }[] } | undefined;
		if (!doc) return { files, whole: false };
		caches++;
		for (const r of doc.records ?? []) {
			if (typeof r?.dataPath === 'string' && SHARD_PATH.test(r.dataPath)) shards.add(r.dataPath);
		}
	}
	let whole = caches > 0;
	if (!whole) await copy(`${base}/${MLC_TENSOR_CACHES[0]}`);
	for (const shard of shards) whole = (await take(`${base}/${shard}`)) && whole;

	const named = Array.isArray(config.tokenizer_files)
		? config.tokenizer_files.filter((f): f is string => typeof f === 'string' && SHARD_PATH.test(f))
		: [];
	const tokenizers: string[] = [];
	for (const name of named) {
		if (await take(`${base}/${name}`, { optional: true })) tokenizers.push(name);
	}
	// web-llm builds its tokenizer from tokenizer.json, else tokenizer.model; the rest it ignores.
	if (!tokenizers.some((t) => t === 'tokenizer.json' || t === 'tokenizer.model')) {
		await copy(`${base}/tokenizer.json`);
		whole = false;
	}
	const lib = mirrorPath(variant.model_lib);
	if (lib === null)
		throw new MirrorDownloadError(`${variant.model_lib} is not on GitHub or the Hub`);
	whole = (await take(lib, { original: variant.model_lib })) && whole;
	return { files, whole };
}

async function readIndex(out: string): Promise<Record<string, unknown>> {
	try {
		const doc: unknown = JSON.parse(await readFile(join(out, MIRROR_INDEX), 'utf8'));
		return doc && typeof doc === 'object' && !Array.isArray(doc)
			? (doc as Record<string, unknown>)
			: {};
	} catch {
		return {};
	}
}

/** @returns the exit code: 0 done, 1 a file could not be copied (run again to resume). */
export async function mirrorCommand(opts: MirrorOptions, io: MirrorIO): Promise<number> {
	mkdirSync(opts.out, { recursive: true });
	const index = await readIndex(opts.out);
	const old = (index.files ?? {}) as Record<string, MirrorFile>;
	const manifest: MirrorManifest = {
		format: MIRROR_FORMAT,
		files: { ...old },
		models: { ...((index.models ?? {}) as MirrorManifest['models']) }
	};
	const save = () =>
		writeFile(
			join(opts.out, MIRROR_INDEX),
			JSON.stringify({ ...index, ...manifest }, null, '\t') + '\n'
		);
	let failed = 0;
	const copy: Copy = async (path, { original, optional = false } = {}) => {
		// From the Hub itself, a model library comes from where web-llm names it (GitHub).
		const url = opts.from === HF_HUB && original ? original : `${opts.from}/${path}`;
		try {
			const { outcome, file } = await syncFile(url, opts.out, path, old[path], io);
			if (outcome === 'missing') {
				if (!optional) throw new MirrorDownloadError(`${url}: HTTP 404`);
				io.stderr.write(`  ${path}: not on ${opts.from} (skipped)\n`);
				return false;
			}
			io.stderr.write(`  ${path}: ${outcome} (${file?.size.toLocaleString('en')} bytes)\n`);
			if (file) manifest.files[path] = file;
			return true;
		} catch (err) {
			if (io.signal?.aborted) throw err;
			failed++;
			io.stderr.write(`  ${path}: failed: ${(err as Error).message}\n`);
			return false;
		}
	};
	const readJson = async (path: string): Promise<unknown> => {
		try {
			return JSON.parse(await readFile(join(opts.out, path), 'utf8')) as unknown;
		} catch (err) {
			failed++;
			io.stderr.write(`  ${path}: failed: not JSON (${(err as Error).message})\n`);
			return undefined;
		}
	};
	for (const model of opts.models) {
		if (model.engine === 'cpu') {
			const { entry } = model;
			const { id, weights, extra } = modelFiles(entry);
			io.stderr.write(`${entry.key} (CPU engine: ${entry.label} · ${entry.quant})\n`);
			const files: string[] = [];
			if (await copy(weights)) files.push(weights);
			// A template config is only needed where none ships with the app.
			for (const path of extra) if (await copy(path, { optional: true })) files.push(path);
			if (files.includes(weights)) {
				// What a student's browser downloads: the weights (a template config is read only where
				// none ships with the app, and is a few kB).
				manifest.models[id] = { bytes: manifest.files[weights].size, files };
			}
		} else {
			const { variant, label } = model;
			io.stderr.write(`${variant.id} (WebGPU engine: ${label} · ${variant.quant})\n`);
			const { files, whole } = await copyMlc(variant, copy, readJson);
			// web-llm downloads every one of these files to load the model.
			if (whole) {
				const bytes = files.reduce((sum, p) => sum + manifest.files[p].size, 0);
				manifest.models[variant.id] = { bytes, files };
			}
		}
		await save();
	}
	io.stderr.write(
		failed
			? `${failed} file(s) failed; run the same command again to resume.\n`
			: `mirror ready in ${opts.out}: host it with CORS (e.g. npx http-server ${opts.out} --cors) and hand out #/?models=<its URL>\n`
	);
	return failed ? 1 : 0;
}
