/**
 * Retry policy for OpenAI-compatible servers: 429, 5xx and network failures are retried with
 * exponential backoff and jitter, honouring Retry-After; everything else fails at once.
 */
import { AbortError, EngineError } from '../../probe/engine.ts';

export const BASE_DELAY_MS = 500;
export const MAX_BACKOFF_MS = 8_000;
/** A server asking for a longer pause than this is treated as asking for this much. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** An HTTP failure; `retryAfterMs` is the server's Retry-After, when it sent one we could read. */
export class HttpError extends EngineError {
	readonly status: number;
	readonly retryAfterMs?: number;
	constructor(status: number, message: string, recovery: string, retryAfterMs?: number) {
		super('http', message, recovery, status === 429 || status >= 500);
		this.name = 'HttpError';
		this.status = status;
		this.retryAfterMs = retryAfterMs;
	}
}

/** Retry-After is either delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
	if (value === null) return undefined;
	const text = value.trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
	const at = Date.parse(text);
	if (Number.isNaN(at)) return undefined;
	return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
}

/** Attempt n (0-based) waits about BASE·2ⁿ, capped, plus up to 50 % jitter so clients spread out. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
	const base = Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
	return Math.round(base * (1 + 0.5 * random()));
}

/** Only transient failures: timeouts are not retried (a stuck server would stall a run for minutes). */
export function isRetryable(err: unknown): err is EngineError {
	return (
		err instanceof EngineError && err.retryable && (err.code === 'http' || err.code === 'network')
	);
}

/** Injected in tests; the signal lets the default sleep drop its timer when the caller aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
	maxRetries: number;
	sleep: Sleep;
	signal?: AbortSignal;
}

/**
 * Run `attempt` until it succeeds, fails for good, or retries run out (then the last error).
 * @throws AbortError as soon as the signal fires, including while waiting between attempts.
 */
export async function withRetries<T>(attempt: () => Promise<T>, opts: RetryOptions): Promise<T> {
	for (let n = 0; ; n++) {
		if (opts.signal?.aborted) throw new AbortError();
		try {
			return await attempt();
		} catch (err) {
			if (!isRetryable(err) || n >= opts.maxRetries) throw err;
			const wait =
				err instanceof HttpError && err.retryAfterMs !== undefined
					? err.retryAfterMs
					: backoffMs(n);
			await abortable(opts.sleep(wait, opts.signal), opts.signal);
		}
	}
}

/** Resolve with `promise`, or reject with AbortError the moment the signal fires. */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
	if (!signal) return promise;
	if (signal.aborted) return Promise.reject(new AbortError());
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(new AbortError());
		signal.addEventListener('abort', onAbort, { once: true });
		promise.then(
			(v) => {
				signal.removeEventListener('abort', onAbort);
				resolve(v);
			},
			(e) => {
				signal.removeEventListener('abort', onAbort);
				reject(e);
			}
		);
	});
}

/** Resolves after `ms`; on abort it clears its timer (so the CLI can exit) and never resolves. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		const timer = setTimeout(resolve, ms);
		signal?.addEventListener('abort', () => clearTimeout(timer), { once: true });
	});
}
