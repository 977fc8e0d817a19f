/**
 * Which catalog models are already in the browser cache, for the pickers' "cached" badges and the
 * download estimate. Asked through the chosen engine on this device, only where it can run.
 */
export class ModelCacheState {
	#cached = $state.raw<Record<string, boolean>>({});
	#pending: Promise<void> | null = null;

	/** By web-llm model id; absent means not asked yet or unknown. */
	get cached(): Readonly<Record<string, boolean>> {
		return this.#cached;
	}

	/** Ask about every id not yet known. Failures leave the badge off; never rejects. */
	refresh(ids: string[], query: (id: string) => Promise<boolean>): Promise<void> {
		const todo = ids.filter((id, i) => ids.indexOf(id) === i && !(id in this.#cached));
		if (todo.length === 0 || this.#pending) return this.#pending ?? Promise.resolve();
		this.#pending = (async () => {
			const found: Record<string, boolean> = {};
			for (const id of todo) {
				try {
					found[id] = await query(id);
				} catch {
					// Unknown: no badge, and the estimate counts the download.
				}
			}
			this.#cached = { ...this.#cached, ...found };
		})().finally(() => (this.#pending = null));
		return this.#pending;
	}

	/** After a download or a deletion the answers are stale. */
	invalidate(): void {
		this.#cached = {};
	}
}
