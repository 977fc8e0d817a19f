/**
 * The CPU worker's fetch when a model mirror is set (engines/mirror.ts): wllama keeps asking for
 * a catalog model's Hub URL, and this fetch takes the file from the mirror instead. wllama
 * therefore caches it under its Hub URL, so a model cached from either source stays cached and
 * runs record the same model id. A file the mirror lacks, one its index.json does not list, or one
 * whose length differs from it, fails with a sentence that names the mirror's file.
 */
import { EngineError } from '../../../probe/engine.ts';
import {
	MIRROR_HELP,
	missing,
	mirrorFileProblem,
	mirrorPath,
	normalizeMirrorBase,
	sizeProblem,
	unlisted,
	type MirrorSource
} from '../../mirror.ts';

export type { MirrorSource };

/** A response nobody asked the network for: the Hub's LFS pointer, which a mirror does not hold. */
const NOT_HERE = () => new Response(null, { status: 404, statusText: 'Not Found' });

/**
 * @param inner the real fetch
 * @param source read at each request (the page sends the mirror with each load)
 * @param fetched paths of the mirror fetched with GET, so the caller can verify their checksums
 */
export function mirroredFetch(
	inner: typeof fetch,
	source: () => MirrorSource | undefined,
	fetched?: Set<string>
): typeof fetch {
	return async (input, init) => {
		const src = source();
		const base = normalizeMirrorBase(src?.base ?? '');
		const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
		const path = base ? mirrorPath(url) : null;
		if (path === null) return inner(input, init);
		// wllama reads the Hub's /raw/ LFS pointer for a checksum; a mirror's index.json holds it.
		if (/^[^/]+\/[^/]+\/raw\//.test(path)) return NOT_HERE();
		const target = `${base}/${path}`;
		let res: Response;
		try {
			res = await inner(target, init);
		} catch (err) {
			if (init?.signal?.aborted) throw err;
			const text = err instanceof Error ? err.message : String(err);
			throw new EngineError(
				'network',
				`The model mirror at ${new URL(base).host} cannot be reached for ${path} (${text}).`,
				`Check the mirror's address in set-up and that it allows other sites (CORS). ${MIRROR_HELP}`,
				true
			);
		}
		if (!res.ok) throw new EngineError('bad_model', missing(base, path, res.status), MIRROR_HELP);
		// Not worth downloading: a file its index.json does not list cannot be checked (mirror.ts).
		if (src?.manifest && !src.manifest.files[path]) {
			await res.body?.cancel().catch(() => {});
			throw new EngineError('bad_model', unlisted(path), MIRROR_HELP);
		}
		const want = src?.manifest?.files[path]?.size;
		const told = Number(res.headers.get('content-length') ?? NaN);
		if (want !== undefined && Number.isFinite(told) && told !== want) {
			throw new EngineError('bad_model', sizeProblem(path, told, src?.manifest) ?? '', MIRROR_HELP);
		}
		if ((init?.method ?? 'GET') !== 'GET' || !res.body) return res;
		fetched?.add(path);
		if (want === undefined) return res;
		let got = 0;
		const counted = res.body.pipeThrough(
			new TransformStream<Uint8Array, Uint8Array>({
				transform(chunk, ctrl) {
					got += chunk.byteLength;
					ctrl.enqueue(chunk);
				},
				flush(ctrl) {
					const problem = sizeProblem(path, got, src?.manifest);
					if (problem) ctrl.error(new EngineError('bad_model', problem, MIRROR_HELP));
				}
			})
		);
		return new Response(counted, { status: res.status, headers: res.headers });
	};
}

/** A downloaded file as the model cache holds it (wllama's cached model). */
export interface CachedCopy {
	open(): Promise<readonly Blob[]>;
	remove(): Promise<void>;
}

/**
 * A file just fetched from the mirror must match its index.json (mirrorFileProblem: listed, its
 * size, its sha256 where given): a copy that does not is removed from the cache, so the next load
 * fetches it again, and the error names the file. A file cached before (from the Hub or the
 * mirror) is not read again.
 * @throws EngineError bad_model naming the mirror's file
 */
export async function verifyMirrorCopy(
	url: string,
	source: MirrorSource,
	fetched: ReadonlySet<string>,
	find: (url: string) => Promise<CachedCopy | undefined>
): Promise<void> {
	const path = mirrorPath(url);
	if (path === null || !source.manifest || !fetched.has(path)) return;
	const copy = await find(url);
	if (!copy) return;
	const problem = await mirrorFileProblem(
		path,
		new Blob([...(await copy.open())]),
		source.manifest
	);
	if (!problem) return;
	await copy.remove();
	throw new EngineError('bad_model', problem, MIRROR_HELP);
}
