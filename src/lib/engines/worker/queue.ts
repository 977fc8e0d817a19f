/**
 * Runs one job at a time, in arrival order. An engine worker must never serve two requests at
 * once: in web-llm two streams on one pipeline corrupt each other's output and interruptGenerate()
 * stops whatever is running engine-wide, so "abort request 7" is only safe when 7 is the only
 * thing running; in wllama a second request only competes for the same cores.
 */
export interface QueueJob<K> {
	id: number;
	kind: K;
	run: () => Promise<void>;
}

export class SerialQueue<K = string> {
	#waiting: QueueJob<K>[] = [];
	#running: QueueJob<K> | null = null;

	/** Id and kind of the job running now, or null when idle. */
	get running(): { id: number; kind: K } | null {
		return this.#running && { id: this.#running.id, kind: this.#running.kind };
	}

	get length(): number {
		return this.#waiting.length;
	}

	/** Queue a job; `run` must settle (its rejections are swallowed: it reports its own errors). */
	push(job: QueueJob<K>): void {
		this.#waiting.push(job);
		if (!this.#running) void this.#drain();
	}

	/** Remove a job that has not started. Returns false if it is running or unknown. */
	remove(id: number): boolean {
		const i = this.#waiting.findIndex((job) => job.id === id);
		if (i < 0) return false;
		this.#waiting.splice(i, 1);
		return true;
	}

	async #drain(): Promise<void> {
		let job = this.#waiting.shift();
		while (job) {
			this.#running = job;
			try {
				await job.run();
			} catch {
				// The job owns its reply; a throw here must not stall the jobs behind it.
			}
			this.#running = null;
			job = this.#waiting.shift();
		}
	}
}
