import { describe, expect, it } from 'vitest';
import { CacheManager } from '@wllama/wllama';
import { hasWritableOpfs, OpfsBackend } from '../../../src/lib/engines/cpu/worker/opfsBackend.ts';

const streamOf = (...parts: string[]) =>
	new ReadableStream<Uint8Array>({
		start(c) {
			for (const p of parts) c.enqueue(new TextEncoder().encode(p));
			c.close();
		}
	});

const notFound = () =>
	Object.assign(new Error('A requested file or directory could not be found'), {
		name: 'NotFoundError'
	});

/**
 * The OPFS as browsers give it, in memory: a writable stream writes to a swap copy that replaces
 * the file only when it closes, and an aborted one leaves the file as it was.
 */
class FakeFile {
	readonly kind = 'file';
	constructor(public data = new Uint8Array()) {}
	async getFile(): Promise<Blob> {
		return new Blob([this.data]);
	}
	async createWritable(): Promise<WritableStream<Uint8Array>> {
		const parts: Uint8Array<ArrayBuffer>[] = [];
		return new WritableStream({
			write: (chunk) => void parts.push(new Uint8Array(chunk)),
			close: async () => {
				this.data = new Uint8Array(await new Blob(parts).arrayBuffer());
			}
		});
	}
}

class FakeDir {
	readonly kind = 'directory';
	readonly #entries = new Map<string, FakeFile | FakeDir>();
	async getDirectoryHandle(name: string, opts: { create?: boolean } = {}): Promise<FakeDir> {
		const found = this.#entries.get(name);
		if (found instanceof FakeDir) return found;
		if (!opts.create) throw notFound();
		const dir = new FakeDir();
		this.#entries.set(name, dir);
		return dir;
	}
	async getFileHandle(name: string, opts: { create?: boolean } = {}): Promise<FakeFile> {
		const found = this.#entries.get(name);
		if (found instanceof FakeFile) return found;
		if (!opts.create) throw notFound();
		const file = new FakeFile();
		this.#entries.set(name, file);
		return file;
	}
	async removeEntry(name: string): Promise<void> {
		if (!this.#entries.delete(name)) throw notFound();
	}
	async *entries(): AsyncIterable<[string, FakeFile | FakeDir]> {
		yield* this.#entries;
	}
}

function backend() {
	const root = new FakeDir();
	const opfs = new OpfsBackend(async () => root as unknown as FileSystemDirectoryHandle);
	return { root, opfs };
}

describe('the CPU engine writing its model cache to OPFS itself', () => {
	it('keeps a written file whole in wllama\'s "cache" folder, sizes, lists and deletes it', async () => {
		const { root, opfs } = backend();
		expect(await opfs.read('m.gguf')).toBeNull();
		expect(await opfs.getSize('m.gguf')).toBe(-1);
		await opfs.write('m.gguf', streamOf('GGUF', '-weights'));
		expect(await (await opfs.read('m.gguf'))?.text()).toBe('GGUF-weights');
		expect(await opfs.getSize('m.gguf')).toBe(12);
		const cache = await root.getDirectoryHandle('cache');
		expect(await (await (await cache.getFileHandle('m.gguf')).getFile()).text()).toBe(
			'GGUF-weights'
		);
		await opfs.write('m.gguf', streamOf('new'));
		expect(await opfs.list()).toEqual([{ key: 'm.gguf', size: 3 }]);
		await opfs.delete('m.gguf');
		await opfs.delete('m.gguf');
		expect(await opfs.list()).toEqual([]);
	});

	it('leaves a file as it was when its download fails part-way', async () => {
		const { opfs } = backend();
		await opfs.write('m.gguf', streamOf('complete'));
		let sent = false;
		const failing = new ReadableStream<Uint8Array>({
			pull(c) {
				if (sent) return c.error(new TypeError('NetworkError when attempting to fetch resource.'));
				sent = true;
				c.enqueue(new TextEncoder().encode('par'));
			}
		});
		await expect(opfs.write('m.gguf', failing)).rejects.toThrow('NetworkError');
		expect(await (await opfs.read('m.gguf'))?.text()).toBe('complete');
	});

	it("serves wllama's cache: a file and its metadata written, then opened", async () => {
		const { opfs } = backend();
		const cache = new CacheManager([opfs]);
		const url = 'http://127.0.0.1:9/models/tiny.gguf';
		const name = await cache.getNameFromURL(url);
		await cache.write(name, streamOf('GGUF'), { originalURL: url, originalSize: 4, etag: '' });
		expect(await (await cache.open(name))?.text()).toBe('GGUF');
		expect((await cache.list()).map((e) => [e.name, e.size, e.metadata.originalURL])).toEqual([
			[name, 4, url]
		]);
	});

	it('is used where OPFS files can be written with a stream', () => {
		expect(hasWritableOpfs(undefined)).toBe(false);
		expect(hasWritableOpfs(class {})).toBe(false);
		expect(hasWritableOpfs(FakeFile)).toBe(true);
	});
});
