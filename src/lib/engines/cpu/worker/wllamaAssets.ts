/**
 * wllama's wasm builds as assets of the app's own origin. The build (vite.wllamaAssets.ts) also
 * puts this module in place of wllama's own src/wasm-from-cdn.ts, whose URLs name a public CDN:
 * so no built file names that CDN, and even wllama's 'default' compatibility build is ours.
 *
 * The compatibility build (Asyncify instead of JSPI, 32-bit memory; see compat.ts) is two assets:
 * its JS is a URL, not `?raw` as wllama's README suggests, because wllama fetches it only when it
 * uses that build: browsers with JSPI and Memory64 never download its 170 KB, nor its 16 MB wasm.
 */
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import compatWasmUrl from '@wllama/wllama-compat/wasm/wllama.wasm?url';
import compatJsUrl from '@wllama/wllama-compat/wasm/wllama.js?url';

/** The name wllama imports; the value is our origin's copy of @wllama/wllama-compat. */
export const WasmCompatFromCDN = { worker: compatJsUrl, wasm: compatWasmUrl };

/** wllama's default build (JSPI + Memory64). */
export const WLLAMA_WASM_URL = wasmUrl;

export default { default: wasmUrl };
