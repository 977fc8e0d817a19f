/**
 * One HTTP GET with the app's retry policy, for files fetched from public hosts (Hugging Face's
 * datasets, NLTK's data): 429 and 5xx are tried again after the shared backoff or the server's
 * Retry-After; a request that gets no answer within `timeoutMs`, or whose body breaks off, is
 * tried NETWORK_ATTEMPTS_MAX times in all, because a blocked host or an offline device fails the
 * same way every time and the person should hear so soon. Failures come back as three errors the
 * caller words for its own users.
 */
import { AbortError, AppError } from '../errors/appError.ts';
import type { FetchLike, ResponseLike } from './fetch.ts';
import { DEFAULT_RETRIES, parseRetryAfter, type Sleep, withRetries } from './retry.ts';

/** Total tries per request when the server answers 429 or 5xx, the first included. */
export const ATTEMPTS_MAX = DEFAULT_RETRIES + 1;
/** Tries when no answer comes at all (or the body breaks off). */
export const NETWORK_ATTEMPTS_MAX = 2;
/** One request's wait for an answer (a firewall that drops packets never answers). */
export const REQUEST_TIMEOUT_MS = 20_000;
/**
 * One download's whole time, every try, backoff and the body included: a host that trickles a
 * byte now and then, or stalls mid-body, ends here rather than never.
 */
export const DOWNLOAD_DEADLINE_MS = 300_000;
/** Enough of an error body to show the server's reason without flooding the UI. */
const ERROR_BODY_CHARS_MAX = 300;

export interface HttpGetOptions<R extends ResponseLike = ResponseLike> {
	fetch: FetchLike<R>;
	signal?: AbortSignal;
	headers?: Record<string, string>;
	/** Injected so tests run instantly; defaults to the shared abortable sleep. */
	sleep?: Sleep;
	/** Jitter source in [0, 1); defaults to Math.random. */
	random?: () => number;
	/** Wall clock for HTTP-date Retry-After values. */
	now?: () => number;
	/** How long one request may wait for an answer before it counts as no answer. */
	timeoutMs?: number;
	/** The whole download's time (default DOWNLOAD_DEADLINE_MS); tests shorten it. */
	deadlineMs?: number;
}

/** The server answered with an error status: final (a 4xx), or 429/5xx on every try. */
export class HttpStatusError extends AppError {
	constructor(
		readonly url: string,
		readonly status: number,
		/** The server's `{"error": …}`, else the start of its body. */
		readonly reason: string,
		/** True when the status was worth retrying and every try got it. */
		readonly exhausted: boolean
	) {
		super(`HTTP ${status} from ${url}: ${reason}`, { code: 'http', retryable: exhausted });
		this.name = 'HttpStatusError';
	}
}

/** No answer on any try: refused, blocked, timed out, or the body broke off (see `cause`). */
export class HttpNoAnswerError extends AppError {
	constructor(
		readonly url: string,
		readonly attempts: number,
		cause: unknown
	) {
		super(
			`no answer from ${hostOf(url)} after ${attempts} attempts: ${cause instanceof Error ? cause.message : String(cause)}`,
			{ code: 'network', retryable: true, cause }
		);
		this.name = 'HttpNoAnswerError';
	}
}

/** The download did not finish within its deadline: the host trickles, or stalled mid-body. */
export class HttpDeadlineError extends AppError {
	constructor(
		readonly url: string,
		readonly ms: number
	) {
		super(
			`the download from ${hostOf(url)} did not finish within ${ms / 1000} s ` +
				'(the host or the connection is too slow, or stalled)',
			{ code: 'network', retryable: true }
		);
		this.name = 'HttpDeadlineError';
	}
}

/** `url`'s host, for messages ("huggingface.co could not be reached"). */
export function hostOf(url: string): string {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
}

export function isRetryableStatus(status: number): boolean {
	return status === 429 || (status >= 500 && status <= 599);
}

/** A 429 or 5xx on one try. */
class Transient extends Error {
	constructor(
		readonly status: number,
		readonly reason: string,
		readonly retryAfterMs: number | undefined
	) {
		super(reason);
	}
}

/** No answer within `ms`: a network failure (the request is aborted too). */
class NoAnswer extends Error {
	constructor(ms: number) {
		super(`no answer within ${Math.round(ms / 1000)} s`);
		this.name = 'NoAnswer';
	}
}

/**
 * GET `url` and `read` the body of its 2xx answer, retrying as described above, all within one
 * deadline. The caller's signal cancels the request, its body and any backoff wait.
 * @throws HttpStatusError, HttpNoAnswerError, HttpDeadlineError, or AbortError when `signal` aborts.
 */
export async function httpGet<T, R extends ResponseLike>(
	url: string,
	opts: HttpGetOptions<R>,
	read: (res: R) => Promise<T>
): Promise<T> {
	const ms = opts.deadlineMs ?? DOWNLOAD_DEADLINE_MS;
	// Aborted by the caller or at the deadline: either way the request and its body are dropped.
	const ctl = new AbortController();
	const onAbort = () => ctl.abort();
	opts.signal?.addEventListener('abort', onAbort, { once: true });
	if (opts.signal?.aborted) ctl.abort();
	let timer: ReturnType<typeof setTimeout> | undefined;
	const late = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			// Settle first: aborting makes the attempt reject at once with a vaguer AbortError.
			reject(new HttpDeadlineError(url, ms));
			ctl.abort();
		}, ms);
	});
	try {
		return await Promise.race([attempts(url, { ...opts, signal: ctl.signal }, read), late]);
	} finally {
		clearTimeout(timer);
		opts.signal?.removeEventListener('abort', onAbort);
	}
}

async function attempts<T, R extends ResponseLike>(
	url: string,
	opts: HttpGetOptions<R>,
	read: (res: R) => Promise<T>
): Promise<T> {
	const now = opts.now ?? Date.now;
	const ms = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
	let networkFailures = 0;
	try {
		return await withRetries(
			async () => {
				const ctl = new AbortController();
				const onAbort = () => ctl.abort();
				opts.signal?.addEventListener('abort', onAbort, { once: true });
				if (opts.signal?.aborted) ctl.abort();
				try {
					const res = await answerWithin(
						opts.fetch(url, { signal: ctl.signal, headers: opts.headers }),
						ms,
						ctl
					);
					if (res.ok) return await read(res);
					const reason = await errorReason(res);
					if (!isRetryableStatus(res.status))
						throw new HttpStatusError(url, res.status, reason, false);
					throw new Transient(
						res.status,
						reason,
						parseRetryAfter(res.headers?.get('retry-after'), now())
					);
				} finally {
					opts.signal?.removeEventListener('abort', onAbort);
				}
			},
			{
				retries: ATTEMPTS_MAX - 1,
				signal: opts.signal,
				sleep: opts.sleep,
				random: opts.random,
				classify: (err) => {
					if (err instanceof HttpStatusError || isFinal(err)) return false;
					if (err instanceof Transient) return { retryAfterMs: err.retryAfterMs };
					networkFailures++;
					return networkFailures < NETWORK_ATTEMPTS_MAX ? {} : false;
				}
			}
		);
	} catch (err) {
		if (err instanceof HttpStatusError || isFinal(err)) throw err;
		if (opts.signal?.aborted || err instanceof AbortError) throw new AbortError();
		if (err instanceof Transient) throw new HttpStatusError(url, err.status, err.reason, true);
		throw new HttpNoAnswerError(url, networkFailures, err);
	}
}

/** An error `read` marks `retryable: false` (a body too large): thrown as it is, never retried. */
function isFinal(err: unknown): boolean {
	return (err as { retryable?: unknown } | null)?.retryable === false;
}

/** The response, unless `ms` pass first: then the request is aborted and NoAnswer raised. */
async function answerWithin<R>(request: Promise<R>, ms: number, ctl: AbortController): Promise<R> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => {
			// Settle first: aborting makes the request reject at once with a vaguer AbortError.
			reject(new NoAnswer(ms));
			ctl.abort();
		}, ms);
	});
	try {
		return await Promise.race([request, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

/** The server's `{"error": "…"}` if it sent one, else the start of the body. */
async function errorReason(res: ResponseLike): Promise<string> {
	let body: string;
	try {
		body = (await res.text()).trim();
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
