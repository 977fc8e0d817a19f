/**
 * wllama's model cache in the Origin Private File System, written without a worker of its own.
 *
 * wllama's own OPFS backend writes each file (a model, then its metadata) through a new nested
 * worker holding a sync access handle. In Firefox, under load, creating or first messaging a nested
 * worker from the CPU worker sometimes never returned: the CPU worker's own timers stopped firing
 * and the run sat at 0 records with no error (6 of 29 Firefox CPU runs right after the first page
 * load; 3 of the 6 were seen stuck on one of these two workers). A writable file stream
 * (createWritable) writes the same files from the CPU worker itself, which leaves one nested
 * worker per model (llama.cpp's, which wllama needs): 1 of 27 runs then still hung, on it. It
 * keeps wllama's folder and file names, so models cached before stay cached. Browsers without
 * createWritable (Safari before 26) keep wllama's backend.
 */
import type { StorageBackend } from './memoryBackend.ts';

/** wllama's cache folder in the OPFS root. */
const CACHE_DIR = 'cache';

export class OpfsBackend implements StorageBackend {
	readonly #root: () => Promise<FileSystemDirectoryHandle>;

	/** @param root the OPFS root, e.g. `() => navigator.storage.getDirectory()` */
	constructor(root: () => Promise<FileSystemDirectoryHandle>) {
		this.#root = root;
	}

	isSupported(): boolean {
		return true;
	}

	async read(key: string): Promise<Blob | null> {
		const file = await this.#file(key);
		return file ? file.getFile() : null;
	}

	/** A failed stream aborts the write: the file keeps what it held before. */
	async write(key: string, stream: ReadableStream): Promise<void> {
		const handle = await (await this.#dir()).getFileHandle(key, { create: true });
		await stream.pipeTo(await handle.createWritable());
	}

	async getSize(key: string): Promise<number> {
		const file = await this.#file(key);
		return file ? (await file.getFile()).size : -1;
	}

	async list(): Promise<{ key: string; size: number }[]> {
		const out: { key: string; size: number }[] = [];
		const dir = (await this.#dir()) as FileSystemDirectoryHandle & {
			entries(): AsyncIterable<[string, FileSystemHandle]>;
		};
		for await (const [key, handle] of dir.entries()) {
			if (handle.kind !== 'file') continue;
			out.push({ key, size: (await (handle as FileSystemFileHandle).getFile()).size });
		}
		return out;
	}

	async delete(key: string): Promise<void> {
		try {
			await (await this.#dir()).removeEntry(key);
		} catch (err) {
			if ((err as { name?: string })?.name !== 'NotFoundError') throw err;
		}
	}

	async #dir(): Promise<FileSystemDirectoryHandle> {
		return (await this.#root()).getDirectoryHandle(CACHE_DIR, { create: true });
	}

	async #file(key: string): Promise<FileSystemFileHandle | null> {
		try {
			return await (await this.#dir()).getFileHandle(key);
		} catch (err) {
			if ((err as { name?: string })?.name === 'NotFoundError') return null;
			throw err;
		}
	}
}

/** Can files in the OPFS be written with a writable stream here (not in Safari before 26)? */
export function hasWritableOpfs(
	handle: { prototype: object } | undefined = globalThis.FileSystemFileHandle
): boolean {
	return handle !== undefined && 'createWritable' in handle.prototype;
}
