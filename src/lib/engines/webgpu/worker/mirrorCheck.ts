/**
 * The WebGPU engine's check of what it takes from a model mirror. web-llm downloads a model's
 * files itself, with `Cache.add` into its Cache API scopes (cacheSizes.ts): no fetch of ours sees
 * those requests, so the worker reads the cached copies instead, once web-llm has them, and checks
 * each against the mirror's index.json with the check the CPU engine uses too
 * (mirror.ts, `mirrorFileProblem`: listed, its size, its sha256 where given). A copy that fails is
 * deleted from web-llm's cache, so the next load fetches it again, and the load fails naming it.
 *
 * A checked copy gets a stamp in a cache of ours: the manifest entry (size and sha256) it matched.
 * A copy whose stamp matches the manifest and whose size still does is not read again, so a cached
 * model loads without hashing its weights each time. (Not the server's Date or ETag: a response
 * from another origin shows the page neither.) Each load first drops the stamps of copies no longer
 * cached (pruneMirrorStamps), whatever deleted them, so a file downloaded anew is checked anew.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import { EngineError } from '../../../probe/engine.ts';
import { MIRROR_HELP, mirrorFileProblem, type MirrorManifest } from '../../mirror.ts';
import { modelBaseUrl, WEBLLM_CACHES } from './cacheSizes.ts';

/** Our cache of stamps: which mirror copies in web-llm's cache were checked, against what. */
export const MIRROR_CHECKED_CACHE = 'utp/mirror-checked';

interface CachedResponse {
	blob(): Promise<Blob>;
	text(): Promise<string>;
}

/** The slice of CacheStorage the check reads, deletes from and stamps (the worker's `caches`). */
export interface MirrorCaches {
	has(name: string): Promise<boolean>;
	open(name: string): Promise<{
		keys(): Promise<readonly { url: string }[]>;
		match(url: string): Promise<CachedResponse | undefined>;
		put(url: string, response: Response): Promise<void>;
		delete(url: string): Promise<boolean>;
	}>;
}

/**
 * Check the mirror's copies of these records' files in web-llm's cache.
 * @param base the mirror's base, normalised, as the records were made with (mirroredRecord)
 * @param records catalog models' records pointing at the mirror
 * @param signal stops between files (a load cancelled while its files are checked)
 * @throws EngineError bad_model naming the first file that failed; every failing copy is deleted
 */
export async function verifyMirrorCopies(
	caches: MirrorCaches,
	base: string,
	manifest: MirrorManifest,
	records: readonly ModelRecord[],
	signal?: AbortSignal
): Promise<void> {
	if (records.length === 0) return;
	const root = new URL(`${base}/`).href;
	const ours = (url: string) =>
		records.some((r) => url.startsWith(modelBaseUrl(r.model)) || url === libUrl(r.model_lib));
	const stamps = await caches.open(MIRROR_CHECKED_CACHE);
	const problems: string[] = [];
	for (const scope of WEBLLM_CACHES) {
		if (!(await caches.has(scope))) continue;
		const cache = await caches.open(scope);
		for (const { url } of await cache.keys()) {
			const path = url.startsWith(root) && ours(url) ? pathOf(url.slice(root.length)) : null;
			if (path === null) continue;
			const copy = await cache.match(url);
			if (!copy) continue;
			signal?.throwIfAborted();
			const entry = manifest.files[path];
			const stamp = entry ? JSON.stringify([entry.size, entry.sha256 ?? '']) : '';
			// Reading a cached copy's size does not read its bytes (a disk-backed blob).
			const data = await copy.blob();
			const stamped = (await (await stamps.match(url))?.text()) === stamp;
			if (stamp && stamped && data.size === entry?.size) continue;
			const problem = await mirrorFileProblem(path, data, manifest);
			if (problem) {
				problems.push(problem);
				await cache.delete(url);
				await stamps.delete(url);
			} else if (stamp) {
				await stamps.put(url, new Response(stamp));
			}
		}
	}
	if (problems.length === 0) return;
	const more =
		problems.length > 1
			? ` ${problems.length - 1} more file(s) of the mirror failed the same check and were not kept either.`
			: '';
	throw new EngineError('bad_model', `${problems[0]}${more}`, MIRROR_HELP);
}

/** Drop the stamps of copies web-llm's cache no longer holds (whatever deleted them). */
export async function pruneMirrorStamps(caches: MirrorCaches): Promise<void> {
	if (!(await caches.has(MIRROR_CHECKED_CACHE))) return;
	const held = new Set<string>();
	for (const scope of WEBLLM_CACHES) {
		if (!(await caches.has(scope))) continue;
		for (const { url } of await (await caches.open(scope)).keys()) held.add(url);
	}
	const stamps = await caches.open(MIRROR_CHECKED_CACHE);
	for (const { url } of await stamps.keys()) if (!held.has(url)) await stamps.delete(url);
}

/** A model library's URL as web-llm's cache keys it (a Request's normalised URL). */
function libUrl(lib: string): string {
	try {
		return new URL(lib).href;
	} catch {
		return lib;
	}
}

/** The manifest's path for a URL's path under the base (the manifest holds them unescaped). */
function pathOf(escaped: string): string {
	try {
		return decodeURI(escaped);
	} catch {
		return escaped;
	}
}
