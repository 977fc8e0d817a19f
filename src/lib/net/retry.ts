/**
 * The one retry policy for everything that talks to a server: the OpenAI-compatible engine and the
 * dataset downloads. One Retry-After reading, one backoff, one abortable sleep, one loop.
 */
import { AbortError } from '../errors/appError.ts';
import { onAbort } from './onAbort.ts';

/** Retries after the first attempt (so 5 tries in all): about 15 s of backoff at most. */
export const DEFAULT_RETRIES = 4;
export const BACKOFF_BASE_MS = 1_000;
export const BACKOFF_CAP_MS = 30_000;
/** A server asking for a longer pause than this is treated as asking for this much. */
export const RETRY_AFTER_CAP_MS = 60_000;

/**
 * Retry-After is delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or
 * unreadable. Fractional seconds are accepted (some proxies send them); a date in the past is 0.
 */
export function parseRetryAfter(
	value: string | null | undefined,
	now: number = Date.now()
): number | undefined {
	const text = value?.trim() ?? '';
	if (text === '') return undefined;
	// A date has a weekday and month name; anything else ("-5", "soon") is unreadable.
	const seconds = /^\d+(\.\d+)?$/.test(text);
	if (!seconds && !/[a-z]/i.test(text)) return undefined;
	const ms = seconds ? Number(text) * 1_000 : Date.parse(text) - now;
	if (Number.isNaN(ms)) return undefined;
	return Math.round(Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms)));
}

/**
 * The wait before retry `n` (0-based): the ceiling BASE·2ⁿ (capped) with "equal jitter", half of
 * it fixed and half random, so clients that failed together spread out.
 */
export function backoffMs(n: number, random: () => number = Math.random): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** n);
	return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Waits `ms`; rejects with AbortError the moment `signal` fires. Injected in tests. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The default Sleep. Its abort listener goes when the timer fires, and however many requests wait
 * on one run's signal at once, that signal carries one listener (onAbort): Node warns past 10.
 */
export const sleep: Sleep = (ms, signal) => {
	if (signal?.aborted) return Promise.reject(new AbortError());
	return new Promise<void>((resolve, reject) => {
		const leave = signal
			? onAbort(signal, () => {
					clearTimeout(timer);
					reject(new AbortError());
				})
			: () => {};
		const timer = setTimeout(() => {
			leave();
			resolve();
		}, ms);
	});
};

/** Resolve with `promise`, or reject with AbortError the moment the signal fires (no leak). */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return promise;
	if (signal.aborted) return Promise.reject(new AbortError());
	return new Promise<T>((resolve, reject) => {
		const leave = onAbort(signal, () => reject(new AbortError()));
		promise.then(
			(v) => {
				leave();
				resolve(v);
			},
			(e: unknown) => {
				leave();
				reject(e);
			}
		);
	});
}

/** What the caller is told before each wait (the UI shows "waiting for the server… (retrying)"). */
export interface RetryNotice {
	/** 1 for the first retry. */
	retry: number;
	/** Retries allowed in all. */
	of: number;
	delayMs: number;
	/** The failure being retried. */
	error: unknown;
}

export interface RetryOptions {
	/** Retries after the first attempt. */
	retries: number;
	signal?: AbortSignal;
	sleep?: Sleep;
	random?: () => number;
	/**
	 * Whether `err` is transient, and if so how long the server asked us to wait (undefined: use
	 * the backoff). Return false to fail at once.
	 */
	classify: (err: unknown) => false | { retryAfterMs?: number };
	onRetry?: (notice: RetryNotice) => void;
}

/**
 * Run `attempt` until it succeeds, fails for good, or the retries run out (then its last error).
 * @throws AbortError as soon as the signal fires, including while waiting between attempts.
 */
export async function withRetries<T>(
	attempt: (n: number) => Promise<T>,
	opts: RetryOptions
): Promise<T> {
	const wait = opts.sleep ?? sleep;
	for (let n = 0; ; n++) {
		if (opts.signal?.aborted) throw new AbortError();
		try {
			return await attempt(n);
		} catch (err) {
			if (opts.signal?.aborted) throw new AbortError();
			const verdict = n < opts.retries ? opts.classify(err) : false;
			if (verdict === false) throw err;
			const delayMs = verdict.retryAfterMs ?? backoffMs(n, opts.random);
			opts.onRetry?.({ retry: n + 1, of: opts.retries, delayMs, error: err });
			// An injected sleep may ignore the signal: race it so an abort still ends the wait.
			await abortable(wait(delayMs, opts.signal), opts.signal);
		}
	}
}
