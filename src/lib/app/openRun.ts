/**
 * Opening a shared run from a link (#/open?url=…): fetch it, read it exactly as Import reads files,
 * and hand back the bundle. A link may point at a whole-run file (.run.jsonl, what Share makes), or
 * at a records file or manifest that has its partner beside it (the CLI's OUT.jsonl and
 * OUT.manifest.json on the same host). Nothing here stores anything.
 */
import { AppError } from '../errors/appError.ts';
import { ExchangeError, filesToBundle } from '../probe/exchange.ts';
import type { RunBundle } from '../probe/exchange.ts';
import { isRunFile, runFileToBundle } from '../probe/runFile.ts';
import { isStudyFile, parseStudyFile, studyRunBundles } from '../probe/studyFile.ts';

/** A link that cannot be opened, said so a person knows what to do. */
export class OpenRunError extends AppError {
	constructor(message: string) {
		super(message, { code: 'open_run' });
		this.name = 'OpenRunError';
	}
}

export type Fetch = (url: string, init?: { signal?: AbortSignal }) => Promise<Response>;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The link's URL if it may be fetched: https, or http on this machine (a local server). */
export function runLink(raw: string): URL {
	let url: URL;
	try {
		url = new URL(raw.trim());
	} catch {
		throw new OpenRunError(
			`"${raw}" is not a web address. A shared run's link starts with https://`
		);
	}
	if (url.protocol === 'https:') return url;
	if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return url;
	if (url.protocol === 'http:')
		throw new OpenRunError(
			`Only https:// links open here (this one is http://…): browsers do not let a secure page read plain http.`
		);
	// javascript:, data:, file:… are not addresses a run is fetched from at all.
	throw new OpenRunError(
		`Only https:// links open here; "${url.protocol}" is not a web address a shared run can be fetched from.`
	);
}

/** A shared run larger than this is refused before it is read (a browser string stops at 512 MiB). */
export const LINK_MAX_BYTES = 256 * 1024 * 1024;
/** The whole fetch of one file, answer and body: a host that never answers or stalls ends here. */
export const LINK_TIMEOUT_MS = 60_000;

const MB = 1024 * 1024;

/**
 * The file's text, within LINK_TIMEOUT_MS and LINK_MAX_BYTES.
 * @throws OpenRunError naming the host and the limit; the caller's AbortError when it cancels.
 */
async function fetchTextWithin(
	fetchFn: Fetch,
	url: URL,
	signal?: AbortSignal,
	timeoutMs = LINK_TIMEOUT_MS
): Promise<string> {
	const ctl = new AbortController();
	const onAbort = () => ctl.abort(signal?.reason);
	signal?.addEventListener('abort', onAbort, { once: true });
	if (signal?.aborted) ctl.abort(signal.reason);
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		ctl.abort();
	}, timeoutMs);
	const late = () =>
		new OpenRunError(
			`${url.host} did not send ${fileName(url)} within ${timeoutMs / 1000} s: the host is not answering or has stalled. Try again later, or download the file and use Import.`
		);
	try {
		let res: Response;
		try {
			res = await fetchFn(url.href, { signal: ctl.signal });
		} catch (e) {
			if (signal?.aborted) throw e;
			if (timedOut) throw late();
			throw new OpenRunError(
				`Could not reach ${url.host}: the address may be wrong, this device may be offline, or the host does not let other sites read the file (CORS). GitHub Pages and gist "Raw" links do. (${e instanceof Error ? e.message : String(e)})`
			);
		}
		if (!res.ok) {
			throw new OpenRunError(
				`${url.host} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''} for ${url.pathname}: is the file still there?`
			);
		}
		const declared = Number(res.headers.get('content-length'));
		if (declared > LINK_MAX_BYTES) {
			await res.body?.cancel().catch(() => undefined);
			throw tooLarge(url, declared);
		}
		try {
			return await readCapped(res, url);
		} catch (e) {
			if (signal?.aborted || e instanceof OpenRunError) throw e;
			if (timedOut) throw late();
			throw new OpenRunError(
				`The download of ${fileName(url)} from ${url.host} broke off (${e instanceof Error ? e.message : String(e)}). Try again.`
			);
		}
	} finally {
		clearTimeout(timer);
		signal?.removeEventListener('abort', onAbort);
	}
}

/**
 * The text a link points at, fetched as a shared run is (https or this machine, a deadline, a size
 * cap), for the other files a link may name (a class's list of runs).
 * @throws OpenRunError as fetchRun does.
 */
export function fetchLinkedText(
	raw: string,
	fetchFn: Fetch,
	signal?: AbortSignal,
	timeoutMs = LINK_TIMEOUT_MS
): Promise<string> {
	return fetchTextWithin(fetchFn, runLink(raw), signal, timeoutMs);
}

function tooLarge(url: URL, bytes: number): OpenRunError {
	return new OpenRunError(
		`${fileName(url)} is ${Math.round(bytes / MB)} MB or more; a run opened by link may be at most ${LINK_MAX_BYTES / MB} MB. Download it and use Import instead.`
	);
}

/** The body as text, stopping once it passes LINK_MAX_BYTES (a host may not say the length). */
async function readCapped(res: Response, url: URL): Promise<string> {
	if (!res.body) return res.text();
	const reader = res.body.getReader();
	const decoder = new TextDecoder();
	let text = '';
	let bytes = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		bytes += value.length;
		if (bytes > LINK_MAX_BYTES) {
			await reader.cancel().catch(() => undefined);
			throw tooLarge(url, bytes);
		}
		text += decoder.decode(value, { stream: true });
	}
	return text + decoder.decode();
}

/** Problems of one fetched file, named by its file name like Import does ("run.jsonl, line 3: …"). */
function named<T>(name: string, parse: () => T): T {
	try {
		return parse();
	} catch (e) {
		if (e instanceof ExchangeError) throw new ExchangeError(e.problems.map((p) => `${name}, ${p}`));
		throw e;
	}
}

/** The link's file name, decoded when its %-escapes are valid, else as written. */
function fileName(url: URL): string {
	const last = url.pathname.split('/').pop() || url.host;
	try {
		return decodeURIComponent(last);
	} catch {
		return last;
	}
}

/**
 * Fetches and reads the run a link points at.
 * @throws OpenRunError when it cannot be fetched (within `timeoutMs` per file) or is not a run;
 * ExchangeError (every problem, located) when it is a run file that Import would refuse; the
 * caller's AbortError when `signal` cancels.
 */
export async function fetchRun(
	raw: string,
	fetchFn: Fetch,
	signal?: AbortSignal,
	timeoutMs = LINK_TIMEOUT_MS
): Promise<RunBundle> {
	const shared = await fetchShared(raw, fetchFn, signal, timeoutMs, { study: false });
	if (shared.kind === 'run') return shared.bundle;
	throw new OpenRunError('A study file is not a run: open it by link to see the study.');
}

/** What a shared link holds: one run, or a study's runs in order. */
export type Shared = { kind: 'run'; bundle: RunBundle } | { kind: 'study'; bundles: RunBundle[] };

/**
 * Fetches a run's link as fetchRun does, or a study file (studyFile.ts): its runs inline, or each
 * run file it lists, fetched from its address relative to the study file's.
 * @throws as fetchRun; an ExchangeError of a study's run names that run's file.
 */
export async function fetchShared(
	raw: string,
	fetchFn: Fetch,
	signal?: AbortSignal,
	timeoutMs = LINK_TIMEOUT_MS,
	opts: { study: boolean } = { study: true }
): Promise<Shared> {
	const url = runLink(raw);
	const text = await fetchTextWithin(fetchFn, url, signal, timeoutMs);
	if (!opts.study || !isStudyFile(text))
		return { kind: 'run', bundle: await runOfText(url, text, fetchFn, signal, timeoutMs) };
	const study = named(fileName(url), () => parseStudyFile(text));
	if (study.kind === 'inline')
		return { kind: 'study', bundles: studyRunBundles(study.runs, fileName(url)) };
	const bundles: RunBundle[] = [];
	for (const link of study.links) {
		let target: URL;
		try {
			target = new URL(link, url);
		} catch {
			throw new OpenRunError(`${fileName(url)} lists "${link}", which is not an address.`);
		}
		bundles.push(await fetchRun(target.href, fetchFn, signal, timeoutMs));
	}
	return { kind: 'study', bundles };
}

async function runOfText(
	url: URL,
	text: string,
	fetchFn: Fetch,
	signal: AbortSignal | undefined,
	timeoutMs: number
): Promise<RunBundle> {
	const fetchText = (u: URL) => fetchTextWithin(fetchFn, u, signal, timeoutMs);
	const name = fileName(url);
	if (isRunFile(text)) return named(name, () => runFileToBundle(text));

	const path = url.pathname;
	const sibling = (from: RegExp, to: string) => {
		const u = new URL(url.href);
		u.pathname = path.replace(from, to);
		return u;
	};
	let jsonl: string;
	let manifest: string;
	let manifestUrl: URL;
	if (/\.manifest\.json$/i.test(path)) {
		manifestUrl = url;
		manifest = text;
		jsonl = await fetchText(sibling(/\.manifest\.json$/i, '.jsonl'));
	} else if (/\.run\.jsonl$/i.test(path)) {
		// Named as a run file but its first line is not a run file's: say what is wrong with it.
		return named(name, () => runFileToBundle(text));
	} else if (/\.jsonl$/i.test(path) && text.trimStart().startsWith('{')) {
		manifestUrl = sibling(/(\.run)?\.jsonl$/i, '.manifest.json');
		jsonl = text;
		try {
			manifest = await fetchText(manifestUrl);
		} catch (e) {
			if (!(e instanceof OpenRunError)) throw e;
			throw new OpenRunError(
				`${name} holds records without their manifest, and ${fileName(manifestUrl)} beside it could not be read (${e.message}). Share the single run file instead (Runs → Export → Run file).`
			);
		}
	} else {
		throw new OpenRunError(
			`${name} is not a run: expected the run file a Share makes (.run.jsonl), or a run's records (.jsonl) with its manifest beside it.`
		);
	}
	const records = fileName(sibling(/\.manifest\.json$/i, '.jsonl'));
	return locate(() => filesToBundle(jsonl, manifest), records, fileName(manifestUrl));
}

function locate<T>(parse: () => T, records: string, manifest: string): T {
	try {
		return parse();
	} catch (e) {
		if (!(e instanceof ExchangeError)) throw e;
		throw new ExchangeError(
			e.problems.map((p) =>
				p.startsWith('line ') ? `${records}, ${p}` : `${manifest}: ${p.replace(/^manifest: /, '')}`
			)
		);
	}
}
