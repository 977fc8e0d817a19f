/**
 * Group commit: writes that arrive while a transaction is committing wait for it, then go
 * together in the next one. A run with six requests in flight made one IndexedDB transaction
 * per record, each waiting its turn behind the last (they share their tables); now the first
 * write goes at once and the rest of a burst share one commit.
 *
 * Each write's promise resolves only once the transaction holding it has committed, so what the
 * pipeline reports stored is durable (a reload right after loses nothing), and a crash before
 * the commit reports nothing. When a batch fails, its writes are tried again one by one, so one
 * bad write fails alone, as it did when each had its own transaction.
 */

/** At most this many writes share a transaction: a burst never makes one huge commit. */
export const MAX_GROUP_WRITES = 64;

interface Waiting<T> {
	item: T;
	resolve: () => void;
	reject: (err: unknown) => void;
}

export class GroupCommit<T> {
	readonly #commit: (items: readonly T[]) => Promise<void>;
	#waiting: Waiting<T>[] = [];
	#running = false;

	/** `commit`: writes the items in one transaction, resolving once it has committed. */
	constructor(commit: (items: readonly T[]) => Promise<void>) {
		this.#commit = commit;
	}

	/** Resolves once `item` is committed; rejects with the commit's error. */
	write(item: T): Promise<void> {
		return new Promise<void>((resolve, reject) => {
			this.#waiting.push({ item, resolve, reject });
			if (!this.#running) void this.#drain();
		});
	}

	async #drain(): Promise<void> {
		this.#running = true;
		try {
			while (this.#waiting.length > 0) {
				const batch = this.#waiting.splice(0, MAX_GROUP_WRITES);
				await this.#commitBatch(batch);
			}
		} finally {
			this.#running = false;
		}
	}

	async #commitBatch(batch: Waiting<T>[]): Promise<void> {
		try {
			await this.#commit(batch.map((w) => w.item));
			for (const w of batch) w.resolve();
		} catch (err) {
			if (batch.length === 1) return batch[0].reject(err);
			// One at a time, in order: only the write that cannot be stored fails.
			for (const w of batch) await this.#commitBatch([w]);
		}
	}
}
