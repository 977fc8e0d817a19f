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
	throw new OpenRunError(
		`Only https:// links open here (this one is ${url.protocol}//…): browsers do not let a secure page read plain http.`
	);
}

async function fetchText(fetchFn: Fetch, url: URL, signal?: AbortSignal): Promise<string> {
	let res: Response;
	try {
		res = await fetchFn(url.href, { signal });
	} catch (e) {
		if (signal?.aborted) throw e;
		throw new OpenRunError(
			`Could not reach ${url.host}: the address may be wrong, this device may be offline, or the host does not let other sites read the file (CORS). GitHub Pages and gist "Raw" links do. (${e instanceof Error ? e.message : String(e)})`
		);
	}
	if (!res.ok) {
		throw new OpenRunError(
			`${url.host} answered ${res.status}${res.statusText ? ` ${res.statusText}` : ''} for ${url.pathname}: is the file still there?`
		);
	}
	return res.text();
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

const fileName = (url: URL) => decodeURIComponent(url.pathname.split('/').pop() || url.host);

/**
 * Fetches and reads the run a link points at.
 * @throws OpenRunError when it cannot be fetched or is not a run; ExchangeError (every problem,
 * located) when it is a run file that Import would refuse.
 */
export async function fetchRun(
	raw: string,
	fetchFn: Fetch,
	signal?: AbortSignal
): Promise<RunBundle> {
	const url = runLink(raw);
	const text = await fetchText(fetchFn, url, signal);
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
		jsonl = await fetchText(fetchFn, sibling(/\.manifest\.json$/i, '.jsonl'), signal);
	} else if (/\.jsonl$/i.test(path) && text.trimStart().startsWith('{')) {
		manifestUrl = sibling(/(\.run)?\.jsonl$/i, '.manifest.json');
		jsonl = text;
		try {
			manifest = await fetchText(fetchFn, manifestUrl, signal);
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
