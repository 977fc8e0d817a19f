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
