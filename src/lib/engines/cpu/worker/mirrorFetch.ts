/**
 * The CPU worker's fetch when a model mirror is set (engines/mirror.ts): wllama keeps asking for
 * a catalog model's Hub URL, and this fetch takes the file from the mirror instead. wllama
 * therefore caches it under its Hub URL, so a model cached from either source stays cached and
 * runs record the same model id. A file the mirror lacks, or one whose length differs from the
 * mirror's index.json, fails with a sentence that names the mirror's file.
 */
import { EngineError } from '../../../probe/engine.ts';
import {
	MIRROR_HELP,
	missing,
	mirrorPath,
	normalizeMirrorBase,
	sizeProblem,
	type MirrorManifest
} from '../../mirror.ts';

/** Where catalog files come from for the load in progress; absent or '' base: the Hub itself. */
export interface MirrorSource {
	base: string;
	manifest?: MirrorManifest;
}

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
 * A file just fetched from the mirror whose index.json gives a sha256 must have it: a damaged copy
 * is removed from the cache, so the next load fetches it again, and the error names the file. A
 * file cached before (from the Hub or the mirror) is not read again.
 * @throws EngineError bad_model naming the mirror's file
 */
export async function verifyMirrorCopy(
	url: string,
	source: MirrorSource,
	fetched: ReadonlySet<string>,
	find: (url: string) => Promise<CachedCopy | undefined>
): Promise<void> {
	const path = mirrorPath(url);
	const want = path === null ? undefined : source.manifest?.files[path]?.sha256;
	if (path === null || !want || !fetched.has(path)) return;
	const copy = await find(url);
	if (!copy) return;
	const got = await sha256Hex(await copy.open());
	if (got === want) return;
	await copy.remove();
	throw new EngineError(
		'bad_model',
		`The model mirror's ${path} does not match its index.json (sha256 ${got.slice(0, 12)}…, expected ${want.slice(0, 12)}…): the copy is damaged, so it was not kept. Ask whoever hosts the mirror to run user-turn-probe mirror again.`,
		MIRROR_HELP
	);
}

/** Hex sha256 of a file's bytes (the whole file is read once; only after a mirror download). */
export async function sha256Hex(blobs: readonly Blob[]): Promise<string> {
	const bytes = await new Blob(blobs as Blob[]).arrayBuffer();
	const digest = await crypto.subtle.digest('SHA-256', bytes);
	return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
