/**
 * Whether a running run is waiting for its engine: set while the engine has been silent for a
 * while, or is retrying a failed request, so the live view says "waiting for the server…" instead
 * of showing a frozen ETA. The run controller starts it when the run starts and stops it when the
 * run stops, and tells it every event it hears.
 */
import type { ProbeEvent } from '../probe/events.ts';

/** What the run is waiting for, when the engine has gone quiet or is retrying. */
export interface ServerWait {
	/** Time since the last event from the engine. */
	silent_ms: number;
	/** The retry in progress, when a request failed and is being asked again. */
	retry?: { retry: number; of: number; message: string };
}

/** Silence from the engine after which the view says it is waiting for the server. */
const STALL_MS = 10_000;

export class StallWatch {
	#waiting = $state.raw<ServerWait | null>(null);
	readonly #stallMs: number;
	#lastEventAt = 0;
	#retry: ServerWait['retry'] = undefined;
	#timer: ReturnType<typeof setInterval> | undefined;

	/** `stallMs`: silence after which the run is waiting (default 10 s). */
	constructor(stallMs = STALL_MS) {
		this.#stallMs = stallMs;
	}

	get waiting(): ServerWait | null {
		return this.#waiting;
	}

	/** Any event is a sign of life; a retry says why the engine is waiting. */
	heard(e: ProbeEvent): void {
		this.#lastEventAt = performance.now();
		if (e.type === 'retry') {
			this.#retry = { retry: e.retry, of: e.of, message: e.message };
		} else if (e.type === 'token' || e.type === 'record' || e.type === 'answer') {
			this.#retry = undefined;
		} else if (e.type !== 'progress' && e.type !== 'stage') {
			return;
		}
		this.#update();
	}

	start(): void {
		this.#lastEventAt = performance.now();
		this.#retry = undefined;
		this.#waiting = null;
		clearInterval(this.#timer);
		this.#timer = setInterval(() => this.#update(), Math.min(1000, this.#stallMs));
	}

	stop(): void {
		clearInterval(this.#timer);
		this.#timer = undefined;
		this.#retry = undefined;
		this.#waiting = null;
	}

	#update(): void {
		if (this.#timer === undefined) return;
		const silentMs = performance.now() - this.#lastEventAt;
		const next: ServerWait | null =
			this.#retry || silentMs >= this.#stallMs ? { silent_ms: silentMs, retry: this.#retry } : null;
		// Only changes re-render: a null stays null, and a wait is replaced once a second at most.
		if (next === null && this.#waiting === null) return;
		this.#waiting = next;
	}
}
