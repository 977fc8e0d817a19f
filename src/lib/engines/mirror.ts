/**
 * A school's model mirror: a base URL laid out like the Hugging Face Hub
 * (`<base>/<owner>/<repo>/resolve/main/<file>`), from which every engine loads catalog models
 * instead of huggingface.co. web-llm's model libraries (on GitHub) take the same shape:
 * `https://raw.githubusercontent.com/<owner>/<repo>/main/<path>` is
 * `<base>/<owner>/<repo>/resolve/main/<path>`. A model keeps its Hub URL as its id (what runs
 * record and what the cache is keyed by), so a run from the mirror is the same run, and a model
 * cached from either source stays cached. `user-turn-probe mirror` (src/cli/mirror.ts) writes the
 * layout and its manifest, `index.json`, which this module reads: each file's size and sha256, and
 * each model's total download. Pure: the network is passed in.
 */
import { AppError } from '../errors/appError.ts';

export const HF_HUB = 'https://huggingface.co';

/** The slice of fetch the check uses (the global fetch satisfies it; tests pass a fake). */
export type MirrorFetch = (
	url: string,
	init?: { signal?: AbortSignal; method?: 'GET' | 'HEAD'; mode?: 'cors' | 'no-cors' }
) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;
/** Where web-llm's prebuilt model libraries live (prebuiltAppConfig's model_lib URLs). */
export const GITHUB_RAW = 'https://raw.githubusercontent.com';
/** The manifest's name at the mirror's base (the same file can list a class's example runs). */
export const MIRROR_INDEX = 'index.json';
export const MIRROR_FORMAT = 'user-turn-probe-mirror/1';

/** A file of the mirror, by its path under the base. */
export interface MirrorFile {
	size: number;
	/** Hex sha256 of the file's bytes, when the manifest gives it. */
	sha256?: string;
}

/** `index.json` as the CLI writes it; `examples` (a class link's runs) may sit beside it. */
export interface MirrorManifest {
	format: typeof MIRROR_FORMAT;
	/** Path under the base → size and checksum. */
	files: Record<string, MirrorFile>;
	/** Engine model id (a GGUF's Hub URL, a web-llm model id) → its total download and files. */
	models: Record<string, { bytes: number; files: string[] }>;
}

export class MirrorError extends AppError {
	constructor(message: string) {
		super(message, { code: 'mirror' });
		this.name = 'MirrorError';
	}
}

/** Points to the recipe from every mirror message. */
export const MIRROR_HELP =
	'See "Hugging Face is blocked at school" in docs/classroom.md: the teacher makes the kit with `user-turn-probe mirror` and hosts it.';

/** What to do about a file of the mirror that is wrong: only the mirror's host can mend it. */
const AGAIN = 'Ask whoever hosts the mirror to run user-turn-probe mirror again.';

/**
 * Why `raw` cannot be a mirror's base, or null when it can: an http(s) URL, and not plain http
 * from an https page unless it is this machine (browsers block such "mixed content").
 */
export function mirrorBaseProblem(raw: string, pageProtocol?: string): string | null {
	const text = raw.trim();
	if (!text) return null;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `"${text}" is not a URL: the model mirror's address starts with https:// (or http://).`;
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') {
		return `The model mirror's address must start with https:// or http://, not ${url.protocol}//.`;
	}
	if (pageProtocol === 'https:' && url.protocol === 'http:' && !isLoopback(url.hostname)) {
		return `This page is https, so the browser refuses files from http://${url.host}: host the mirror on https (GitHub Pages, a school server with a certificate). Opening the app itself over http from the school server also works, but only on the CPU engine and without threads: browsers give WebGPU, the service worker and threads to https pages only.`;
	}
	return null;
}

function isLoopback(host: string): boolean {
	return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

/** The base without a trailing slash, or '' for none (Hugging Face itself). */
export function normalizeMirrorBase(raw: string): string {
	const text = raw.trim();
	if (!text || mirrorBaseProblem(text) !== null) return '';
	return text.replace(/\/+$/, '');
}

/**
 * The path under a mirror's base of a Hub or GitHub-raw URL, or null for any other URL (a
 * user's own GGUF or model on another host is fetched from where it is).
 */
export function mirrorPath(url: string): string | null {
	if (url.startsWith(`${HF_HUB}/`)) return url.slice(HF_HUB.length + 1);
	if (url.startsWith(`${GITHUB_RAW}/`)) {
		const [owner, repo, branch, ...rest] = url.slice(GITHUB_RAW.length + 1).split('/');
		if (!owner || !repo || !branch || rest.length === 0) return null;
		return `${owner}/${repo}/resolve/${branch}/${rest.join('/')}`;
	}
	return null;
}

/** Where `url` is fetched from with this mirror ('' base: from where it is). */
export function viaMirror(url: string, base: string): string {
	const b = normalizeMirrorBase(base);
	const path = b ? mirrorPath(url) : null;
	return path === null ? url : `${b}/${path}`;
}

/** The Hub repo's URL as web-llm's model records name it, through the mirror. */
export function mirrorRepoUrl(repo: string, base: string): string {
	return viaMirror(`${HF_HUB}/${repo}`, base);
}

/**
 * Read a manifest. Unknown fields are kept out; a file without a positive size is left out.
 * @throws MirrorError when it is not one.
 */
export function parseMirrorManifest(json: unknown, where = MIRROR_INDEX): MirrorManifest {
	const doc = json as Partial<MirrorManifest> | null;
	if (!doc || typeof doc !== 'object' || typeof doc.files !== 'object' || doc.files === null) {
		throw new MirrorError(
			`${where} is not a model mirror's manifest (it has no "files"); make it with user-turn-probe mirror.`
		);
	}
	const files: Record<string, MirrorFile> = {};
	for (const [path, f] of Object.entries(doc.files)) {
		if (!f || !(typeof f.size === 'number' && f.size >= 0 && Number.isFinite(f.size))) continue;
		const sha = typeof f.sha256 === 'string' && /^[0-9a-f]{64}$/.test(f.sha256) ? f.sha256 : null;
		files[path] = sha ? { size: f.size, sha256: sha } : { size: f.size };
	}
	const models: MirrorManifest['models'] = {};
	for (const [id, m] of Object.entries(doc.models ?? {})) {
		if (!m || !(typeof m.bytes === 'number' && m.bytes > 0) || !Array.isArray(m.files)) continue;
		models[id] = { bytes: m.bytes, files: m.files.filter((p) => typeof p === 'string') };
	}
	return { format: MIRROR_FORMAT, files, models };
}

/**
 * Where catalog files come from for a load: the mirror's base and, once the app has read it, its
 * manifest. Absent or '' base: the Hub itself. What the page sends each engine's worker.
 */
export interface MirrorSource {
	base: string;
	manifest?: MirrorManifest;
}

/** A file's size on the manifest, checked against what came: a plain sentence, or null. */
export function sizeProblem(path: string, got: number, manifest?: MirrorManifest): string | null {
	const want = manifest?.files[path]?.size;
	if (want === undefined || want === got) return null;
	return `The model mirror's ${path} is ${got.toLocaleString('en')} bytes, but its index.json says ${want.toLocaleString('en')}: the copy is cut short or replaced. ${AGAIN}`;
}

/**
 * A file that came from the mirror, checked against its index.json: listed, its size, and its
 * sha256 where the manifest gives one. Both engines check each file they download from a mirror
 * here; each then drops its own copy of a file that fails. No manifest (a mirror without
 * index.json): nothing to check against, so null. The bytes are read only when there is a sha256
 * to compare and the size already matches.
 * @returns what is wrong, in plain words naming the file, or null when it matches
 */
export async function mirrorFileProblem(
	path: string,
	data: Blob,
	manifest: MirrorManifest | undefined
): Promise<string | null> {
	if (!manifest) return null;
	const want = manifest.files[path];
	if (!want) return unlisted(path);
	const size = sizeProblem(path, data.size, manifest);
	if (size) return size;
	if (!want.sha256) return null;
	const got = await sha256Hex(data);
	if (got === want.sha256) return null;
	return `The model mirror's ${path} does not match its index.json (sha256 ${got.slice(0, 12)}…, expected ${want.sha256.slice(0, 12)}…): the copy is damaged, so it was not kept. ${AGAIN}`;
}

/** The sentence for a file the mirror serves but its index.json does not list. */
export function unlisted(path: string): string {
	return `The model mirror's ${path} is not listed in its index.json, so it cannot be checked and was not kept: the index is older than the files. ${AGAIN}`;
}

/** Hex sha256 of a file's bytes (read whole, once: only after a download from a mirror). */
export async function sha256Hex(data: Blob): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', await data.arrayBuffer());
	return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export interface MirrorCheck {
	ok: boolean;
	/** What is wrong, in plain words, naming the file; absent when ok. */
	problem?: string;
	manifest?: MirrorManifest;
}

/**
 * Check a mirror once: it answers, from another site (CORS), with its manifest, and holds
 * `want` (Hub URLs of the files a run will fetch). A mirror without a manifest still works; its
 * files are then only checked to be there.
 */
export async function checkMirror(opts: {
	base: string;
	want: readonly string[];
	fetch: MirrorFetch;
	pageProtocol?: string;
	signal?: AbortSignal;
}): Promise<MirrorCheck> {
	const base = opts.base.trim().replace(/\/+$/, '');
	const bad = mirrorBaseProblem(base, opts.pageProtocol);
	if (bad) return { ok: false, problem: bad };
	const host = new URL(base).host;
	const indexUrl = `${base}/${MIRROR_INDEX}`;
	let res: Awaited<ReturnType<MirrorFetch>>;
	try {
		res = await opts.fetch(indexUrl, { signal: opts.signal });
	} catch (err) {
		if (opts.signal?.aborted) throw err;
		return { ok: false, problem: await unreachable(opts.fetch, indexUrl, host, opts.signal) };
	}
	let manifest: MirrorManifest | undefined;
	if (res.ok) {
		try {
			manifest = parseMirrorManifest(await res.json(), indexUrl);
		} catch (err) {
			return {
				ok: false,
				problem: err instanceof MirrorError ? err.message : `${indexUrl} is not JSON.`
			};
		}
	} else if (res.status !== 404) {
		return { ok: false, problem: `The model mirror at ${host} answered HTTP ${res.status}.` };
	}
	for (const url of opts.want) {
		const path = mirrorPath(url);
		if (path === null) continue;
		if (manifest && !manifest.files[path]) {
			return { ok: false, problem: missing(base, path), manifest };
		}
		// Listed is not there: a folder copied in part still lists every file.
		try {
			const head = await opts.fetch(`${base}/${path}`, { method: 'HEAD', signal: opts.signal });
			if (!head.ok) return { ok: false, problem: missing(base, path, head.status), manifest };
		} catch (err) {
			if (opts.signal?.aborted) throw err;
			return { ok: false, problem: missing(base, path) };
		}
	}
	return manifest ? { ok: true, manifest } : { ok: true };
}

/** The sentence for a file the mirror does not have. */
export function missing(base: string, path: string, status?: number): string {
	const how = status === undefined ? 'is not listed in its index.json' : `answers HTTP ${status}`;
	return `The model mirror ${base} has no ${path} (${base}/${path} ${how}). Add it with: user-turn-probe mirror --model <this model> --out <the mirror's folder>.`;
}

/**
 * Unreachable or cross-origin: a request the page may not read (no-cors) still resolves when the
 * host answers, so a refused CORS request with an answering host is CORS.
 */
async function unreachable(
	fetchFn: MirrorFetch,
	url: string,
	host: string,
	signal?: AbortSignal
): Promise<string> {
	try {
		await fetchFn(url, { mode: 'no-cors', signal });
	} catch {
		return `The model mirror at ${host} cannot be reached from here: check the address, and that this device is on the network that can see it.`;
	}
	return `The model mirror at ${host} answers, but does not let other sites read its files (CORS): serve it with the header Access-Control-Allow-Origin: * (e.g. npx http-server --cors; GitHub Pages sends it).`;
}
