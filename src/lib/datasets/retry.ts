/**
 * One JSON GET with bounded retries. The Hugging Face datasets server answers 429 and the odd 5xx
 * under load; a dataset load is 6–14 requests, so one hiccup must not fail the whole load.
 */
import {
	ATTEMPTS_MAX,
	hostOf,
	HttpDeadlineError,
	HttpNoAnswerError,
	HttpStatusError,
	httpGet,
	type HttpGetOptions
} from '../net/httpGet.ts';
import { AbortError } from '../probe/engine.ts';
import { DatasetError } from './errors.ts';

export { ATTEMPTS_MAX } from '../net/httpGet.ts';

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

export type RetryOptions = HttpGetOptions<FetchResponseLike> & { fetch: FetchLike };

/**
 * GET `url` and parse JSON, retrying 429, 5xx and network failures with the shared backoff (or
 * the server's Retry-After) up to ATTEMPTS_MAX tries (net/httpGet.ts).
 * @throws DatasetError on other HTTP statuses, or when retries run out (with the last status).
 * @throws AbortError when `signal` aborts, including during a backoff wait.
 */
export async function getJsonWithRetry(url: string, opts: RetryOptions): Promise<unknown> {
	return getWithRetry(url, opts, (res) => res.json());
}

/** Like getJsonWithRetry, for a body read as text (a CSV file on the Hub). */
export async function getTextWithRetry(url: string, opts: RetryOptions): Promise<string> {
	return getWithRetry(url, opts, (res) => res.text());
}

async function getWithRetry<T>(
	url: string,
	opts: RetryOptions,
	read: (res: FetchResponseLike) => Promise<T>
): Promise<T> {
	try {
		return await httpGet(url, opts, read);
	} catch (err) {
		if (err instanceof AbortError) throw new AbortError('Loading the dataset was cancelled.');
		if (err instanceof HttpStatusError) {
			throw new DatasetError(
				err.exhausted
					? `Gave up after ${ATTEMPTS_MAX} attempts (HTTP ${err.status}) on ${url}: ${err.reason}`
					: `HTTP ${err.status} from ${url}: ${err.reason}`,
				{ url, status: err.status }
			);
		}
		if (err instanceof HttpDeadlineError) {
			throw new DatasetError(`Loading ${url} stopped: ${err.message}. Try again later.`, {
				url,
				cause: err
			});
		}
		const cause = err instanceof HttpNoAnswerError ? err.cause : err;
		const reason = cause instanceof Error ? cause.message : String(cause);
		const attempts = err instanceof HttpNoAnswerError ? err.attempts : 1;
		throw new DatasetError(
			`${hostOf(url)} could not be reached (network error after ${attempts} attempts: ${reason}). The network may block it, or this device is offline.`,
			{ url, cause, unreachable: true }
		);
	}
}
