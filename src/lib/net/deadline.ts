/**
 * One request's cancellation: fires when the caller aborts, when the other side stays silent for
 * `timeoutMs` (reset by touch() on every chunk received, so a long streamed reply is fine), or when
 * the whole request has taken `totalMs` (a server that trickles a token every half second, forever,
 * is never silent for long). Each client words the failure itself (the server engine:
 * engines/server/http.ts, attemptError).
 *
 * A deadline may start later than it is made: a request a browser holds in its own queue until a
 * connection to the host frees (engines/server/limit.ts, ConnectionSlots) is not yet silent, and
 * its clocks start when it is sent, or at the first sign of an answer, whichever comes first.
 */
import { onAbort } from './onAbort.ts';

export class IdleDeadline {
	/** Give this to fetch: it aborts on the caller's abort or after `timeoutMs` of silence. */
	readonly signal: AbortSignal;
	readonly timeoutMs: number;
	/** The whole request's limit, reply included; undefined: none. */
	readonly totalMs?: number;
	#ctrl = new AbortController();
	#outer?: AbortSignal;
	#timer?: ReturnType<typeof setTimeout>;
	/** performance.now() when something last arrived. */
	#heard = 0;
	#timedOut = false;
	#total?: ReturnType<typeof setTimeout>;
	#overTotal = false;
	#fired: Promise<never>;
	#fire: () => void = () => {};
	#unsubscribe?: () => void;
	#startedAt?: number;
	#disposed = false;

	/** `started: false` leaves both clocks stopped until start() or the first touch(). */
	constructor(
		outer: AbortSignal | undefined,
		timeoutMs: number,
		totalMs?: number,
		{ started = true }: { started?: boolean } = {}
	) {
		this.signal = this.#ctrl.signal;
		this.#outer = outer;
		this.timeoutMs = timeoutMs;
		this.totalMs = totalMs;
		this.#fired = new Promise<never>((_, reject) => {
			this.#fire = () => reject(this.signal.reason);
		});
		this.#fired.catch(() => {});
		// Removed again in dispose(): fetch (undici) keeps the signal it was given reachable after the
		// request, and a listener left on it would keep this deadline and every race() promise alive.
		this.signal.addEventListener('abort', this.#fire, { once: true });
		// Through onAbort: a run's one signal carries one listener however many requests share it.
		if (outer?.aborted) this.#ctrl.abort();
		else if (outer) this.#unsubscribe = onAbort(outer, () => this.#ctrl.abort());
		if (started) this.start();
	}

	/** performance.now() when the clocks started; undefined while they wait. */
	get startedAt(): number | undefined {
		return this.#startedAt;
	}

	/** Start the silence and the whole request's clocks (once; nothing after dispose()). */
	start(): void {
		if (this.#startedAt !== undefined || this.#disposed || this.signal.aborted) return;
		this.#startedAt = performance.now();
		const totalMs = this.totalMs;
		if (totalMs !== undefined && Number.isFinite(totalMs))
			this.#total = setTimeout(() => {
				this.#overTotal = true;
				this.#ctrl.abort();
			}, totalMs);
		this.touch();
	}

	/** True when it fired because the whole request took longer than `totalMs`. */
	get overTotal(): boolean {
		return this.#overTotal;
	}

	/** True when it fired because the other side went silent (not because the caller aborted). */
	get timedOut(): boolean {
		return this.#timedOut;
	}

	/** True when the caller's own signal aborted. */
	get callerAborted(): boolean {
		return this.#outer?.aborted ?? false;
	}

	/**
	 * Something arrived: the silence starts again. Called on every chunk of a streamed reply, so it
	 * only notes the time; the one timer, when it fires, looks at how long the silence has been
	 * and waits out the rest (a tab's timer set and cleared per chunk cost more than the parse).
	 */
	touch(): void {
		if (this.signal.aborted) return;
		if (this.#startedAt === undefined) return this.start();
		this.#heard = performance.now();
		this.#timer ??= setTimeout(() => this.#checkSilence(), this.timeoutMs);
	}

	#checkSilence(): void {
		const silent = performance.now() - this.#heard;
		if (silent < this.timeoutMs) {
			this.#timer = setTimeout(() => this.#checkSilence(), this.timeoutMs - silent);
			return;
		}
		this.#timedOut = true;
		this.#ctrl.abort();
	}

	/** Settle with `promise`, or reject the moment this deadline fires (fetch impls may lag). */
	race<T>(promise: Promise<T>): Promise<T> {
		return Promise.race([promise, this.#fired]);
	}

	/** The request is over (read or failed): drop every listener and timer it holds. */
	dispose(): void {
		this.#disposed = true;
		clearTimeout(this.#timer);
		clearTimeout(this.#total);
		this.signal.removeEventListener('abort', this.#fire);
		this.#unsubscribe?.();
	}
}
