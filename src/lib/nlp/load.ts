/**
 * Fetches the English NLP data IFBench's checkers need from where the reference's own users get
 * it: NLTK's data packages (nltk/nltk_data, gh-pages) and syllapy's word list at the commit of
 * syllapy 0.7.2. Zips are opened in memory and only the named members are read. An optional cache
 * makes a second load need no network.
 *
 * Pure TypeScript: no DOM, no Node APIs (the caller passes `fetch` and the cache).
 */
import { readZipMembers } from './zip.ts';
import {
	ATTEMPTS_MAX,
	hostOf,
	HttpDeadlineError,
	HttpNoAnswerError,
	HttpStatusError,
	httpGet
} from '../net/httpGet.ts';
import type { BytesResponseLike, FetchLike } from '../net/fetch.ts';
import type { Sleep } from '../net/retry.ts';
import { AbortError, AppError } from '../errors/appError.ts';
import { parseSyllapyCsv } from './syllables.ts';

export const NLTK_DATA_BASE = 'https://raw.githubusercontent.com/nltk/nltk_data/gh-pages/packages';
/** syllapy 0.7.2's package folder at its upstream commit. */
export const SYLLAPY_BASE =
	'https://raw.githubusercontent.com/mholtzscher/syllapy/9b95c13d809a87e9eaba96f6b61e7fc3978acded/syllapy';

/** The raw texts of every file the English NLP port reads. */
export interface EnglishResourceFiles {
	punkt: { abbrevTypes: string; collocations: string; sentStarters: string; orthoContext: string };
	tagger: { weights: string; tagdict: string; classes: string };
	stopwords: string;
	syllapy: string;
}

/** Downloaded files by URL, so that a second load needs no network. */
export interface ResourceCache {
	get(url: string): Promise<Uint8Array | undefined>;
	put(url: string, bytes: Uint8Array): Promise<void>;
}

export interface LoadProgress {
	url: string;
	/** Bytes received so far (all of them for a cached file). */
	loaded: number;
	/** From Content-Length, when the server sent it. */
	total?: number;
	fromCache: boolean;
}

export interface LoadOptions {
	/** The app's or Node's fetch. */
	fetch: FetchLike<BytesResponseLike>;
	signal?: AbortSignal;
	cache?: ResourceCache;
	/** Replaces NLTK_DATA_BASE (tests point it at a local server). */
	nltkDataBase?: string;
	/** Replaces SYLLAPY_BASE. */
	syllapyBase?: string;
	onProgress?: (progress: LoadProgress) => void;
	/** Injected so tests run instantly; defaults to the shared abortable sleep. */
	sleep?: Sleep;
	random?: () => number;
	/** How long one request may wait for the response headers before it counts as unreachable. */
	timeoutMs?: number;
	/** One file's whole download (default net/httpGet.ts DOWNLOAD_DEADLINE_MS); tests shorten it. */
	deadlineMs?: number;
}

/** A failed load, with a message that says what to do. */
export class NlpResourceError extends AppError {
	readonly url: string;
	/** HTTP status, when the server answered with an error. */
	readonly status: number | undefined;
	/** No HTTP answer at all: the host is unreachable, blocked or this device is offline. */
	readonly unreachable: boolean;
	constructor(
		message: string,
		opts: { url: string; status?: number; unreachable?: boolean; cause?: unknown }
	) {
		super(message, { code: 'nlp_resource', retryable: opts.unreachable, cause: opts.cause });
		this.name = 'NlpResourceError';
		this.url = opts.url;
		this.status = opts.status;
		this.unreachable = opts.unreachable ?? false;
	}
}

const WHY =
	"IFBench's NLTK-based checks (sentences, words, parts of speech, stop words, syllables)";

/** The body broke off (connection reset, truncated): worth another try. */
class BrokenBody extends Error {
	constructor(
		readonly loaded: number,
		cause: unknown
	) {
		super(errorText(cause), { cause });
	}
}

function errorText(err: unknown): string {
	if (!(err instanceof Error)) return String(err);
	const cause = err.cause instanceof Error ? ` (${err.cause.message})` : '';
	return err.message + cause;
}

/** Far above the largest file the NLP data has (a zip of a few MB): a bigger body is not it. */
export const DOWNLOAD_MAX_BYTES = 64 * 1024 * 1024;

/** The body passed DOWNLOAD_MAX_BYTES: not worth a second try. */
class TooLarge extends Error {
	readonly retryable = false;
	constructor(readonly bytes: number) {
		super(`larger than ${DOWNLOAD_MAX_BYTES} bytes`);
	}
}

/** How much of a body has arrived, for the message when its download runs out of time. */
interface Received {
	loaded: number;
	total?: number;
}

/**
 * The body's bytes, reported as they arrive (and counted in `got`), within DOWNLOAD_MAX_BYTES.
 * @throws TooLarge, or BrokenBody when the body breaks off.
 */
async function readBody(
	url: string,
	res: BytesResponseLike,
	onProgress: LoadOptions['onProgress'],
	got: Received
): Promise<Uint8Array> {
	const length = Number(res.headers.get('content-length'));
	const total = Number.isFinite(length) && length > 0 ? length : undefined;
	let loaded = 0;
	got.loaded = 0;
	got.total = total;
	if (total !== undefined && total > DOWNLOAD_MAX_BYTES) {
		await res.body?.cancel().catch(() => undefined);
		throw new TooLarge(total);
	}
	try {
		if (!res.body) {
			const bytes = new Uint8Array(await res.arrayBuffer());
			if (bytes.length > DOWNLOAD_MAX_BYTES) throw new TooLarge(bytes.length);
			loaded = bytes.length;
			onProgress?.({ url, loaded, total, fromCache: false });
			return bytes;
		}
		const reader = res.body.getReader();
		const chunks: Uint8Array[] = [];
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			chunks.push(value);
			loaded += value.length;
			got.loaded = loaded;
			if (loaded > DOWNLOAD_MAX_BYTES) {
				await reader.cancel().catch(() => undefined);
				throw new TooLarge(loaded);
			}
			onProgress?.({ url, loaded, total, fromCache: false });
		}
		const bytes = new Uint8Array(loaded);
		let at = 0;
		for (const chunk of chunks) {
			bytes.set(chunk, at);
			at += chunk.length;
		}
		return bytes;
	} catch (err) {
		if (err instanceof AbortError || (err instanceof Error && err.name === 'AbortError')) throw err;
		if (err instanceof TooLarge) throw err;
		throw new BrokenBody(loaded, err);
	}
}

/**
 * GET `url` as bytes, retrying 429, 5xx, network failures and bodies that break off
 * (net/httpGet.ts).
 * @throws NlpResourceError with a message for people; AbortError when the signal fires.
 */
async function download(url: string, opts: LoadOptions): Promise<Uint8Array> {
	const got: Received = { loaded: 0 };
	try {
		return await httpGet(url, opts, (res) => readBody(url, res, opts.onProgress, got));
	} catch (err) {
		if (err instanceof TooLarge) {
			throw new NlpResourceError(
				`${url} is larger than ${DOWNLOAD_MAX_BYTES / 1024 ** 2} MB (${err.bytes} bytes), so it ` +
					`is not the expected file (a proxy's page, or the wrong address?); ${WHY} need it.`,
				{ url }
			);
		}
		if (err instanceof HttpDeadlineError) {
			const of = got.total === undefined ? '' : ` of ${got.total}`;
			throw new NlpResourceError(
				`The download of ${url} did not finish within ${err.ms / 1000} s: ${hostOf(url)} sent ` +
					`${got.loaded}${of} bytes. The connection or the host is too slow; try again later. ` +
					`${WHY} need this file.`,
				{ url, cause: err }
			);
		}
		if (err instanceof AbortError)
			throw new AbortError('Loading the English NLP data was cancelled.');
		if (err instanceof HttpStatusError && err.exhausted) {
			throw new NlpResourceError(
				`HTTP ${err.status} from ${url} (${err.reason}), still after ${ATTEMPTS_MAX} tries. ` +
					`The server is busy or failing; try again later. ${WHY} need this file.`,
				{ url, status: err.status, cause: err }
			);
		}
		if (err instanceof HttpStatusError) {
			const hint =
				err.status === 404
					? ' The file is not where this app expects it upstream; an update of the app may be needed.'
					: '';
			throw new NlpResourceError(
				`HTTP ${err.status} from ${url}: ${err.reason}.${hint} ${WHY} need this file.`,
				{ url, status: err.status }
			);
		}
		const cause = err instanceof HttpNoAnswerError ? err.cause : err;
		if (cause instanceof BrokenBody) {
			throw new NlpResourceError(
				`The download of ${url} broke off after ${cause.loaded} bytes (${cause.message}), twice. ` +
					`Check the connection and try again. ${WHY} need this file.`,
				{ url, cause }
			);
		}
		const host = hostOf(url);
		throw new NlpResourceError(
			`${host} could not be reached (${errorText(cause)}). ${WHY} need data from ${host}: ` +
				'allow it if a firewall, proxy or extension blocks it, or check that this device is online.',
			{ url, unreachable: true, cause }
		);
	}
}

/** A member's bytes as UTF-8 text, as Python reads it (a BOM kept, bad bytes an error). */
function utf8(bytes: Uint8Array, what: string, url: string): string {
	try {
		return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
	} catch {
		throw new NlpResourceError(`${what} from ${url} is not UTF-8 text.`, { url });
	}
}

/** The named members of a zip, as text, each checked against its size and CRC (zip.ts). */
function unzipMembers(bytes: Uint8Array, url: string, members: readonly string[]): string[] {
	let files: (Uint8Array | undefined)[];
	try {
		files = readZipMembers(bytes, members);
	} catch (err) {
		throw new NlpResourceError(
			`The zip from ${url} is corrupt (${errorText(err)}). Try again; ${WHY} need it.`,
			{ url, cause: err }
		);
	}
	return members.map((name, i) => {
		const file = files[i];
		if (file === undefined) {
			throw new NlpResourceError(
				`The zip from ${url} has no member ${name}; its layout has changed upstream and ${WHY} ` +
					'cannot use it.',
				{ url }
			);
		}
		return utf8(file, name, url);
	});
}

/**
 * The file at `url`, from the cache when it holds a good copy (one that `read` accepts), else
 * downloaded, read, and then cached.
 */
async function obtain<T>(
	url: string,
	opts: LoadOptions,
	read: (bytes: Uint8Array) => T
): Promise<T> {
	// A cache that fails (storage unavailable, quota) is as good as an empty one.
	const cached = await opts.cache?.get(url).catch(() => undefined);
	if (cached) {
		try {
			const value = read(cached);
			opts.onProgress?.({ url, loaded: cached.length, total: cached.length, fromCache: true });
			return value;
		} catch (err) {
			// A damaged cache entry: fetch the file again (and overwrite it below).
			if (!(err instanceof NlpResourceError)) throw err;
		}
	}
	const bytes = await download(url, opts);
	const value = read(bytes);
	await opts.cache?.put(url, bytes).catch(() => undefined);
	return value;
}

/** data.csv as text, if syllapy could load it (so a cut-off cached copy is fetched again). */
function checkedCsv(bytes: Uint8Array, url: string): string {
	const text = utf8(bytes, 'data.csv', url);
	try {
		parseSyllapyCsv(text);
	} catch (err) {
		throw new NlpResourceError(`data.csv from ${url} is damaged: ${errorText(err)}`, {
			url,
			cause: err
		});
	}
	return text;
}

/** The URLs loadEnglishResourceFiles reads, for the given bases. */
export function resourceUrls(opts: Pick<LoadOptions, 'nltkDataBase' | 'syllapyBase'> = {}) {
	const nltk = (opts.nltkDataBase ?? NLTK_DATA_BASE).replace(/\/+$/, '');
	const syllapy = (opts.syllapyBase ?? SYLLAPY_BASE).replace(/\/+$/, '');
	return {
		punkt: `${nltk}/tokenizers/punkt_tab.zip`,
		tagger: `${nltk}/taggers/averaged_perceptron_tagger_eng.zip`,
		stopwords: `${nltk}/corpora/stopwords.zip`,
		syllapy: `${syllapy}/data.csv`
	};
}

const PUNKT = 'punkt_tab/english/';
const TAGGER = 'averaged_perceptron_tagger_eng/averaged_perceptron_tagger_eng';

/**
 * Fetch (or take from the cache) every file the English NLP port needs, as text.
 * @throws NlpResourceError naming the host, URL, status or zip member at fault.
 * @throws AbortError when `signal` fires.
 */
export async function loadEnglishResourceFiles(
	options: LoadOptions
): Promise<EnglishResourceFiles> {
	const urls = resourceUrls(options);
	// The first failure stops the other downloads.
	const stop = new AbortController();
	const onAbort = () => stop.abort();
	options.signal?.addEventListener('abort', onAbort, { once: true });
	if (options.signal?.aborted) stop.abort();
	const opts = { ...options, signal: stop.signal };
	const all = Promise.all([
		obtain(urls.punkt, opts, (b) =>
			unzipMembers(b, urls.punkt, [
				`${PUNKT}abbrev_types.txt`,
				`${PUNKT}collocations.tab`,
				`${PUNKT}sent_starters.txt`,
				`${PUNKT}ortho_context.tab`
			])
		),
		obtain(urls.tagger, opts, (b) =>
			unzipMembers(b, urls.tagger, [
				`${TAGGER}.weights.json`,
				`${TAGGER}.tagdict.json`,
				`${TAGGER}.classes.json`
			])
		),
		obtain(urls.stopwords, opts, (b) => unzipMembers(b, urls.stopwords, ['stopwords/english'])),
		obtain(urls.syllapy, opts, (b) => checkedCsv(b, urls.syllapy))
	]);
	let files: Awaited<typeof all>;
	try {
		files = await all;
	} catch (err) {
		stop.abort();
		if (options.signal?.aborted)
			throw new AbortError('Loading the English NLP data was cancelled.');
		throw err;
	} finally {
		options.signal?.removeEventListener('abort', onAbort);
	}
	const [punkt, tagger, [stopwords], syllapy] = files;
	return {
		punkt: {
			abbrevTypes: punkt[0],
			collocations: punkt[1],
			sentStarters: punkt[2],
			orthoContext: punkt[3]
		},
		tagger: { weights: tagger[0], tagdict: tagger[1], classes: tagger[2] },
		stopwords,
		syllapy
	};
}
