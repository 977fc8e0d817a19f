import { describe, expect, it } from 'vitest';
import { compatMode, supportsMemory64 } from '../../../src/lib/engines/cpu/worker/compat.ts';
import { checkWllamaVersions, WllamaVersionMismatchError } from '../../../vite.wllamaAssets.ts';

describe('wllama compatibility build', () => {
	it('keeps Firefox on the default build while it has 64-bit memory', () => {
		expect(compatMode(true)).toBe('safari');
	});

	it('sends Firefox without 64-bit memory (before 134, e.g. ESR 128) to the compatibility build', () => {
		expect(compatMode(false)).toBe('firefox_safari');
	});

	it("reads Memory64 support off the engine's WebAssembly.Memory", () => {
		class NoMemory64 {
			constructor(d: { address?: string }) {
				if (d.address === 'i64') throw new TypeError('invalid address type');
			}
		}
		const without = { Memory: NoMemory64 } as unknown as typeof WebAssembly;
		expect(supportsMemory64(without)).toBe(false);
		const seen: unknown[] = [];
		const withIt = {
			Memory: class {
				constructor(d: unknown) {
					seen.push(d);
				}
			}
		} as unknown as typeof WebAssembly;
		expect(supportsMemory64(withIt)).toBe(true);
		expect(seen).toEqual([{ address: 'i64', initial: 1n }]);
	});

	it('ships the compatibility package at the version of wllama itself', () => {
		expect(checkWllamaVersions()).toBe('3.8.1');
		expect(new WllamaVersionMismatchError('3.8.1', '3.7.0').message).toBe(
			'@wllama/wllama-compat is 3.7.0 but @wllama/wllama is 3.8.1: install the compat package at 3.8.1.'
		);
	});
});
