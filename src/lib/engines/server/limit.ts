/**
 * At most `max` requests in flight per engine: servers batch well, but an unbounded burst from a
 * probe run would only queue on the server and time out there instead of here.
 */
import { AbortError } from '../../errors/appError.ts';
import { onAbort } from '../../net/onAbort.ts';

export class Limiter {
	readonly max: number;
	#active = 0;
	#waiting: (() => void)[] = [];

	constructor(max: number) {
		this.max = Math.max(1, Math.floor(max));
	}

	get active(): number {
		return this.#active;
	}

	/** @throws AbortError when the signal fires while waiting for a slot. */
	async run<T>(signal: AbortSignal | undefined, task: () => Promise<T>): Promise<T> {
		await this.#acquire(signal);
		try {
			return await task();
		} finally {
			this.#release();
		}
	}

	#acquire(signal?: AbortSignal): Promise<void> {
		if (signal?.aborted) return Promise.reject(new AbortError());
		if (this.#active < this.max) {
			this.#active++;
			return Promise.resolve();
		}
		return new Promise((resolve, reject) => {
			// Many requests wait on the run's one signal: one listener for all of them (onAbort).
			const leave = signal
				? onAbort(signal, () => {
						this.#waiting = this.#waiting.filter((w) => w !== grant);
						reject(new AbortError());
					})
				: () => {};
			const grant = () => {
				leave();
				resolve();
			};
			this.#waiting.push(grant);
		});
	}

	#release(): void {
		const next = this.#waiting.shift();
		// Hand the slot straight to the next waiter, so #active stays put.
		if (next) next();
		else this.#active--;
	}
}

/** One request's hold on a connection: `sent` once it has one; leave() when it ends, however. */
export interface ConnectionTurn {
	/** Resolves when this request holds a connection (at once, while one is free). */
	sent: Promise<void>;
	leave(): void;
}

/**
 * Which of the requests handed to fetch hold one of the host's connections. A browser opens at
 * most six HTTP/1.1 connections to a host and queues further requests itself, sending the next the
 * moment a reply ends, without a round trip through the page (which, on a busy or loaded machine,
 * left a connection idle for milliseconds after every reply). An engine that hands it a few more
 * requests than it has connections keeps every connection busy; this tells those extra requests
 * when they are sent, so their deadlines do not run while they only wait in the browser's queue.
 * It assumes, as browsers do, that queued requests go out in the order they were made.
 */
export class ConnectionSlots {
	readonly connections: number;
	#free: number;
	#queued: (() => void)[] = [];

	constructor(connections: number) {
		this.connections = Math.max(1, Math.floor(connections));
		this.#free = this.connections;
	}

	/** Requests waiting for a connection. */
	get queued(): number {
		return this.#queued.length;
	}

	enter(): ConnectionTurn {
		let holds = false;
		let left = false;
		let markSent: () => void = () => {};
		const sent = new Promise<void>((resolve) => (markSent = resolve));
		const take = () => {
			holds = true;
			markSent();
		};
		if (this.#free > 0) {
			this.#free--;
			take();
		} else this.#queued.push(take);
		return {
			sent,
			leave: () => {
				if (left) return;
				left = true;
				if (!holds) {
					this.#queued = this.#queued.filter((t) => t !== take);
					return;
				}
				// The connection this request held now carries the oldest queued one.
				const next = this.#queued.shift();
				if (next) next();
				else this.#free++;
			}
		};
	}
}
