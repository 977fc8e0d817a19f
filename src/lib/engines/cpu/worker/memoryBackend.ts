/**
 * A model cache in the worker's memory, for browsers without the Origin Private File System that
 * wllama stores models in: WebKitGTK as Debian and GNOME Web ship it has no navigator.storage at
 * all, and wllama then refuses to start ("No supported storage backend found"). With this
 * backend the CPU engine runs there too; the model is downloaded again in each visit, and held
 * twice in memory while it loads (here and in wasm), which small CPU models afford.
 */
import type { CacheManager } from '@wllama/wllama';

/** wllama's StorageBackend, which its package does not export by name. */
export type StorageBackend = NonNullable<ConstructorParameters<typeof CacheManager>[0]>[number];

export class MemoryBackend implements StorageBackend {
	readonly #files = new Map<string, Blob>();

	isSupported(): boolean {
		return true;
	}

	async read(key: string): Promise<Blob | null> {
		return this.#files.get(key) ?? null;
	}

	async write(key: string, stream: ReadableStream): Promise<void> {
		this.#files.set(key, await new Response(stream).blob());
	}

	async getSize(key: string): Promise<number> {
		return this.#files.get(key)?.size ?? -1;
	}

	async list(): Promise<{ key: string; size: number }[]> {
		return [...this.#files].map(([key, blob]) => ({ key, size: blob.size }));
	}

	async delete(key: string): Promise<void> {
		this.#files.delete(key);
	}
}

/** Can wllama keep models in the Origin Private File System here (its default backend)? */
export function hasOpfs(nav: { storage?: { getDirectory?: unknown } } | undefined): boolean {
	return typeof nav?.storage?.getDirectory === 'function';
}
