/**
 * A dataset host's GET (JSON rows, a CSV file) through the shared net/httpGet.ts policy, with
 * its failures worded as DatasetErrors for the set-up view and the CLI. The Hugging Face datasets
 * server answers 429 and the odd 5xx under load; a dataset load is 6–14 requests, so one hiccup
 * must not fail the whole load.
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
import type { FetchLike, JsonResponseLike } from '../net/fetch.ts';
import { AbortError } from '../errors/appError.ts';
import { DatasetError } from './errors.ts';

/** The fetch a dataset loader takes: its rows are read as JSON, GPQA's file as text. */
export type DatasetFetch = FetchLike<JsonResponseLike>;

export type DatasetGetOptions = HttpGetOptions<JsonResponseLike>;

/**
 * GET `url` and parse JSON, retrying 429, 5xx and network failures with the shared backoff (or
 * the server's Retry-After) up to ATTEMPTS_MAX tries (net/httpGet.ts).
 * @throws DatasetError on other HTTP statuses, or when retries run out (with the last status).
 * @throws AbortError when `signal` aborts, including during a backoff wait.
 */
export async function getJsonWithRetry(url: string, opts: DatasetGetOptions): Promise<unknown> {
	return getWithRetry(url, opts, (res) => res.json());
}

/** Like getJsonWithRetry, for a body read as text (a CSV file on the Hub). */
export async function getTextWithRetry(url: string, opts: DatasetGetOptions): Promise<string> {
	return getWithRetry(url, opts, (res) => res.text());
}

async function getWithRetry<T>(
	url: string,
	opts: DatasetGetOptions,
	read: (res: JsonResponseLike) => Promise<T>
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
