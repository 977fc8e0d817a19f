/**
 * At most one commit per animation frame. A fast engine reports hundreds of events a frame; the
 * screen can show one state a frame, so state that only feeds the screen is committed once, when
 * the frame is about to paint, instead of once per event.
 */

/** Calls `run` once, later: before the next paint in a browser. Tests inject their own. */
export type Schedule = (run: () => void) => void;

/** requestAnimationFrame where there is one (a hidden tab pauses it: nothing to paint there). */
export const nextFrame: Schedule = (run) => {
	if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => run());
	else setTimeout(run, 0);
};

export interface FrameBatchOptions {
	schedule?: Schedule;
	/** Least time between commits: fewer frames than the display could show, for less work. */
	minIntervalMs?: number;
	now?: () => number;
}

export class FrameBatch {
	readonly #schedule: Schedule;
	readonly #commit: () => void;
	/** Least time between commits; a run may change it once it knows its engine. */
	minIntervalMs: number;
	readonly #now: () => number;
	#pending = false;
	#last = -Infinity;

	constructor(commit: () => void, options: FrameBatchOptions = {}) {
		this.#commit = commit;
		this.#schedule = options.schedule ?? nextFrame;
		this.minIntervalMs = options.minIntervalMs ?? 0;
		this.#now = options.now ?? (() => performance.now());
	}

	/** Something changed: commit it with a coming frame (once, however many changes come first). */
	request(): void {
		if (this.#pending) return;
		this.#pending = true;
		const wait = this.#last + this.minIntervalMs - this.#now();
		if (wait > 0) setTimeout(() => this.#schedule(() => this.flush()), wait);
		else this.#schedule(() => this.flush());
	}

	/** Commit now if anything is waiting, e.g. when the run stops and its last state must show. */
	flush(): void {
		if (!this.#pending) return;
		this.#pending = false;
		this.#last = this.#now();
		this.#commit();
	}
}
