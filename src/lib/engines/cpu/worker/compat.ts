/**
 * When the CPU engine uses wllama's compatibility build (Asyncify instead of JSPI, 32-bit memory),
 * and from where. wllama fetches that build from a public CDN unless told otherwise; a school
 * filter that blocks the CDN, or any offline use, would then break the CPU engine on exactly the
 * devices that have no WebGPU. So the build ships with the app (@wllama/wllama-compat, the version
 * matching @wllama/wllama) and is fetched from the app's own origin, only when a browser needs it.
 */

/** wllama's setCompat mode: 'safari' keeps Firefox on the default build, 'firefox_safari' does not. */
export type CompatMode = 'safari' | 'firefox_safari';

/**
 * Firefox runs wllama's default build without JSPI (it then reads the model into memory instead of
 * streaming it), but not without 64-bit memory (Firefox before 134, e.g. ESR 128): only then must
 * Firefox take the slower compatibility build too. Safari and WebKit take it whenever either
 * feature is missing, which wllama decides itself.
 */
export function compatMode(hasMemory64: boolean): CompatMode {
	return hasMemory64 ? 'safari' : 'firefox_safari';
}

/** Does this WebAssembly engine support 64-bit memories (the Memory64 proposal)? */
export function supportsMemory64(wasm: typeof WebAssembly = WebAssembly): boolean {
	try {
		new wasm.Memory({ address: 'i64', initial: 1n } as unknown as WebAssembly.MemoryDescriptor);
		return true;
	} catch {
		return false;
	}
}
