import { describe, expect, it } from 'vitest';
import { CacheManager } from '@wllama/wllama';
import { hasOpfs, MemoryBackend } from '../../../src/lib/engines/cpu/worker/memoryBackend.ts';

const streamOf = (...parts: string[]) =>
	new ReadableStream<Uint8Array>({
		start(c) {
			for (const p of parts) c.enqueue(new TextEncoder().encode(p));
			c.close();
		}
	});

describe('the CPU engine without OPFS', () => {
	it('keeps a written file whole, reports its size, lists and deletes it', async () => {
		const mem = new MemoryBackend();
		expect(await mem.read('m.gguf')).toBeNull();
		expect(await mem.getSize('m.gguf')).toBe(-1);
		await mem.write('m.gguf', streamOf('GGUF', '-weights'));
		expect(await (await mem.read('m.gguf'))?.text()).toBe('GGUF-weights');
		expect(await mem.getSize('m.gguf')).toBe(12);
		expect(await mem.list()).toEqual([{ key: 'm.gguf', size: 12 }]);
		await mem.write('m.gguf', streamOf('new'));
		expect(await mem.getSize('m.gguf')).toBe(3);
		await mem.delete('m.gguf');
		await mem.delete('m.gguf');
		expect(await mem.list()).toEqual([]);
	});

	it("is a storage backend wllama's cache accepts where it would otherwise refuse to start", () => {
		// Node has no navigator.storage, like WebKitGTK as Debian ships it.
		expect(() => new CacheManager()).toThrow('No supported storage backend found');
		expect(() => new CacheManager([new MemoryBackend()])).not.toThrow();
	});

	it('is used only where OPFS is missing', () => {
		expect(hasOpfs(undefined)).toBe(false);
		expect(hasOpfs({})).toBe(false);
		expect(hasOpfs({ storage: {} })).toBe(false);
		expect(hasOpfs({ storage: { getDirectory: () => undefined } })).toBe(true);
	});
});
