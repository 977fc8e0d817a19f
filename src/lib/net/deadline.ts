/**
 * One request's cancellation: fires when the caller aborts or when the other side stays silent for
 * `timeoutMs` (reset by touch() on every chunk received, so a long streamed reply is fine). Each
 * client words the failure itself (the server engine: engines/server/http.ts, attemptError).
 */
import { onAbort } from './onAbort.ts';

export class IdleDeadline {
	/** Give this to fetch: it aborts on the caller's abort or after `timeoutMs` of silence. */
	readonly signal: AbortSignal;
	readonly timeoutMs: number;
	#ctrl = new AbortController();
	#outer?: AbortSignal;
	#timer?: ReturnType<typeof setTimeout>;
	#timedOut = false;
	#fired: Promise<never>;
	#fire: () => void = () => {};
	#unsubscribe?: () => void;

	constructor(outer: AbortSignal | undefined, timeoutMs: number) {
		this.signal = this.#ctrl.signal;
		this.#outer = outer;
		this.timeoutMs = timeoutMs;
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
		this.touch();
	}

	/** True when it fired because the other side went silent (not because the caller aborted). */
	get timedOut(): boolean {
		return this.#timedOut;
	}

	/** True when the caller's own signal aborted. */
	get callerAborted(): boolean {
		return this.#outer?.aborted ?? false;
	}

	/** Something arrived: the silence starts again. */
	touch(): void {
		clearTimeout(this.#timer);
		if (this.signal.aborted) return;
		this.#timer = setTimeout(() => {
			this.#timedOut = true;
			this.#ctrl.abort();
		}, this.timeoutMs);
	}

	/** Settle with `promise`, or reject the moment this deadline fires (fetch impls may lag). */
	race<T>(promise: Promise<T>): Promise<T> {
		return Promise.race([promise, this.#fired]);
	}

	/** The request is over (read or failed): drop every listener and timer it holds. */
	dispose(): void {
		clearTimeout(this.#timer);
		this.signal.removeEventListener('abort', this.#fire);
		this.#unsubscribe?.();
	}
}
