/**
 * How the server engine talks to one server: a request with its key, idle and whole-request
 * deadlines and the engine's fetch, the reading of a capped reply body, the retry loop around an
 * attempt, and the quiet small lookups (/v1/models, /props) that say nothing when they fail.
 * client.ts decides what to ask; this module only carries it.
 */
import type { EngineRetryNotice } from '../../probe/engine.ts';
import { AbortError } from '../../errors/appError.ts';
import { IdleDeadline } from '../../net/deadline.ts';
import { readCappedText } from '../../net/cappedBody.ts';
import { type RetryNotice, type Sleep, withRetries } from '../../net/retry.ts';
import {
	attemptError,
	classifyEngineError,
	type LimitHints,
	fetchHints,
	httpError,
	notJsonError
} from './http.ts';
import { ConnectionSlots } from './limit.ts';
import { SMALL_REPLY_MAX_BYTES } from './replyLimits.ts';

/** An opened request: its response, whose body the caller reads, then closes. */
export interface Opened {
	res: Response;
	deadline: IdleDeadline;
	/** performance.now() when the request went out (after any wait in the browser's queue). */
	sentAt: number;
	/** The request is over (read or failed): its deadline's timers go, its connection frees. */
	close(): void;
}

export interface TransportOptions {
	/** The normalised API root, ending in /v1. */
	baseUrl: string;
	/** Sent as "Authorization: Bearer …" only when given. */
	apiKey?: string;
	fetch: typeof fetch;
	/** Longest silence from the server: before the reply starts, or between chunks. */
	timeoutMs: number;
	sleep: Sleep;
	/** How a person raises the limits, said in the errors. */
	hints: LimitHints;
	/**
	 * Connections the fetch opens to the host, where it queues requests beyond them itself (a
	 * browser over HTTP/1.1: six); undefined: every request is sent at once.
	 */
	connections?: number;
}

export class ServerTransport {
	readonly baseUrl: string;
	#apiKey?: string;
	#fetch: typeof fetch;
	#timeoutMs: number;
	#sleep: Sleep;
	#hints: LimitHints;
	#slots?: ConnectionSlots;

	constructor(opts: TransportOptions) {
		this.baseUrl = opts.baseUrl;
		this.#apiKey = opts.apiKey;
		this.#fetch = opts.fetch;
		this.#timeoutMs = opts.timeoutMs;
		this.#sleep = opts.sleep;
		this.#hints = opts.hints;
		if (opts.connections !== undefined) this.#slots = new ConnectionSlots(opts.connections);
	}

	/** One request and the reading of its reply, retried whole while the failure is transient. */
	retrying<T>(
		signal: AbortSignal | undefined,
		retries: number,
		onRetry: ((notice: EngineRetryNotice) => void) | undefined,
		attempt: () => Promise<T>
	): Promise<T> {
		return withRetries(attempt, {
			retries,
			signal,
			sleep: this.#sleep,
			classify: classifyEngineError,
			onRetry: onRetry && ((n: RetryNotice) => onRetry(engineNotice(n)))
		});
	}

	/**
	 * Send one request (one attempt); the caller reads the body, then closes. `totalMs` bounds
	 * the whole request (default: two idle timeouts, for the small replies). Where the fetch queues
	 * requests beyond its connections, the deadline starts when this one leaves that queue.
	 */
	async open(
		method: 'GET' | 'POST',
		path: string,
		body: unknown,
		signal: AbortSignal | undefined,
		totalMs = 2 * this.#timeoutMs
	): Promise<Opened> {
		const url = `${this.baseUrl}${path}`;
		const headers: Record<string, string> = {};
		if (body !== undefined) headers['Content-Type'] = 'application/json';
		if (this.#apiKey) headers.Authorization = `Bearer ${this.#apiKey}`;
		const init = {
			method,
			headers,
			body: body === undefined ? undefined : JSON.stringify(body),
			...fetchHints(this.baseUrl)
		};
		const turn = this.#slots?.enter();
		const deadline = new IdleDeadline(signal, this.#timeoutMs, totalMs, { started: !turn });
		void turn?.sent.then(() => deadline.start());
		const close = () => {
			deadline.dispose();
			turn?.leave();
		};
		try {
			const res = await deadline.race(this.#fetch(url, { ...init, signal: deadline.signal }));
			// An answer came, so it was sent, whatever the count says (a server over HTTP/2 takes more).
			deadline.start();
			if (!res.ok) throw await deadline.race(httpError(res, this.baseUrl));
			return { res, deadline, sentAt: deadline.startedAt ?? performance.now(), close };
		} catch (err) {
			close();
			throw attemptError(deadline, err, this.baseUrl, false, { hints: this.#hints });
		}
	}

	/**
	 * GET (or POST `body` to) a small JSON document (SMALL_REPLY_MAX_BYTES at most); undefined on
	 * any failure but the caller's abort. `timeoutMs` replaces the engine's idle timeout (for /props).
	 */
	async quietJson(
		url: string,
		signal: AbortSignal | undefined,
		body?: unknown,
		timeoutMs = this.#timeoutMs
	): Promise<unknown> {
		const headers: Record<string, string> = {};
		if (this.#apiKey) headers.Authorization = `Bearer ${this.#apiKey}`;
		if (body !== undefined) headers['Content-Type'] = 'application/json';
		const deadline = new IdleDeadline(signal, timeoutMs, 2 * timeoutMs);
		try {
			const res = await deadline.race(
				this.#fetch(url, {
					method: body === undefined ? 'GET' : 'POST',
					headers,
					body: body === undefined ? undefined : JSON.stringify(body),
					...fetchHints(this.baseUrl),
					signal: deadline.signal
				})
			);
			if (!res.ok) return undefined;
			const text = await deadline.race(
				readCappedText(res, SMALL_REPLY_MAX_BYTES, { onChunk: () => deadline.touch() })
			);
			return JSON.parse(text) as unknown;
		} catch {
			if (signal?.aborted) throw new AbortError();
			return undefined;
		} finally {
			deadline.dispose();
		}
	}

	/** The body, up to `maxBytes`; `what` names it in the error past that. */
	async readText(
		res: Response,
		deadline: IdleDeadline,
		maxBytes: number,
		what: string
	): Promise<string> {
		try {
			return await deadline.race(
				readCappedText(res, maxBytes, { onChunk: () => deadline.touch() })
			);
		} catch (err) {
			throw attemptError(deadline, err, this.baseUrl, true, { what, hints: this.#hints });
		}
	}

	async readJson(
		res: Response,
		deadline: IdleDeadline,
		maxBytes: number,
		what: string
	): Promise<unknown> {
		const text = await this.readText(res, deadline, maxBytes, what);
		try {
			return JSON.parse(text) as unknown;
		} catch {
			throw notJsonError(this.baseUrl, text);
		}
	}
}

function engineNotice(n: RetryNotice): EngineRetryNotice {
	const message = n.error instanceof Error ? n.error.message : String(n.error);
	return { retry: n.retry, of: n.of, delay_ms: n.delayMs, message };
}
