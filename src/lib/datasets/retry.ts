/**
 * One JSON GET with bounded retries. The Hugging Face datasets server answers 429 and the odd 5xx
 * under load; a dataset load is 6–14 requests, so one hiccup must not fail the whole load.
 */
import { AbortError } from '../probe/engine.ts';
import { DatasetError } from './errors.ts';

/** The slice of `fetch` this module uses; the global `fetch` satisfies it, tests pass a fake. */
export interface FetchLike {
	(
		url: string,
		init?: { signal?: AbortSignal; headers?: Record<string, string> }
	): Promise<FetchResponseLike>;
}

export interface FetchResponseLike {
	ok: boolean;
	status: number;
	json(): Promise<unknown>;
	text(): Promise<string>;
	/** Optional so minimal fakes work; when present, Retry-After is honoured. */
	headers?: { get(name: string): string | null };
}

export interface RetryOptions {
	fetch: FetchLike;
	signal?: AbortSignal;
	headers?: Record<string, string>;
	/** Injected so tests run instantly; defaults to setTimeout. */
	sleep?: (ms: number) => Promise<void>;
	/** Jitter source in [0, 1); defaults to Math.random (jitter need not replay). */
	random?: () => number;
	/** Wall clock for HTTP-date Retry-After values. */
	now?: () => number;
}

/** Total tries per request, the first included. */
export const ATTEMPTS_MAX = 5;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;
/** A server asking for longer than this is treated as asking for this long. */
const RETRY_AFTER_CAP_MS = 60_000;
/** Enough of an error body to show the server's reason without flooding the UI. */
const ERROR_BODY_CHARS_MAX = 300;

/**
 * GET `url` and parse JSON, retrying 429, 5xx and network failures with exponential backoff and
 * jitter (or the server's Retry-After) up to ATTEMPTS_MAX tries.
 * @throws DatasetError on other HTTP statuses, or when retries run out (with the last status).
 * @throws AbortError when `signal` aborts, including during a backoff wait.
 */
export async function getJsonWithRetry(url: string, opts: RetryOptions): Promise<unknown> {
	const random = opts.random ?? Math.random;
	let last: { status?: number; reason: string; cause?: unknown } = { reason: 'no attempt made' };
	for (let attempt = 1; attempt <= ATTEMPTS_MAX; attempt++) {
		throwIfAborted(opts.signal);
		let retryAfterMs: number | undefined;
		try {
			const res = await opts.fetch(url, { signal: opts.signal, headers: opts.headers });
			if (res.ok) return await res.json();
			const reason = await errorReason(res);
			if (!isRetryableStatus(res.status)) {
				throw new DatasetError(`HTTP ${res.status} from ${url}: ${reason}`, {
					url,
					status: res.status
				});
			}
			last = { status: res.status, reason };
			retryAfterMs = parseRetryAfter(res.headers?.get('retry-after') ?? null, opts.now);
		} catch (err) {
			if (err instanceof DatasetError) throw err;
			throwIfAborted(opts.signal);
			last = { reason: err instanceof Error ? err.message : String(err), cause: err };
		}
		if (attempt < ATTEMPTS_MAX) {
			const delay = retryAfterMs ?? backoffMs(attempt, random);
			await abortableSleep(opts.sleep, delay, opts.signal);
		}
	}
	const what = last.status === undefined ? 'network error' : `HTTP ${last.status}`;
	throw new DatasetError(
		`Gave up after ${ATTEMPTS_MAX} attempts (${what}) on ${url}: ${last.reason}`,
		{ url, status: last.status, cause: last.cause }
	);
}

export function isRetryableStatus(status: number): boolean {
	return status === 429 || (status >= 500 && status <= 599);
}

/** "Equal jitter": half the doubled delay is fixed, half random, so retries spread out. */
export function backoffMs(attempt: number, random: () => number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(
	value: string | null,
	now: () => number = Date.now
): number | undefined {
	if (value === null || value.trim() === '') return undefined;
	const trimmed = value.trim();
	const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1_000 : Date.parse(trimmed) - now();
	if (Number.isNaN(ms)) return undefined;
	return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms));
}

/** The server's `{"error": "…"}` if it sent one, else the start of the body. */
async function errorReason(res: FetchResponseLike): Promise<string> {
	let body: string;
	try {
		body = await res.text();
	} catch {
		return 'no response body';
	}
	try {
		const parsed: unknown = JSON.parse(body);
		if (parsed && typeof parsed === 'object' && 'error' in parsed) {
			return String(parsed.error);
		}
	} catch {
		// Not JSON (a proxy's HTML page, say): fall through to the raw text.
	}
	return body.slice(0, ERROR_BODY_CHARS_MAX) || 'empty response body';
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new AbortError('Loading the dataset was cancelled.');
}

/** Waits `ms`, rejecting with AbortError the moment `signal` aborts (and clearing the timer). */
function abortableSleep(
	sleep: ((ms: number) => Promise<void>) | undefined,
	ms: number,
	signal: AbortSignal | undefined
): Promise<void> {
	throwIfAborted(signal);
	return new Promise<void>((resolve, reject) => {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const onAbort = () => {
			if (timer !== undefined) clearTimeout(timer);
			reject(new AbortError('Loading the dataset was cancelled.'));
		};
		signal?.addEventListener('abort', onAbort, { once: true });
		const done = () => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		};
		if (sleep) {
			sleep(ms).then(done, (err: unknown) => {
				signal?.removeEventListener('abort', onAbort);
				reject(err);
			});
		} else {
			timer = setTimeout(done, ms);
		}
	});
}
