/**
 * The app's only contact with the two engines that run on this device (WebGPU and CPU), kept
 * narrow so a change there touches one file: an Engine, a cache query for the "cached" badges, and
 * a way to let go of the memory. "Device" means this device: both of them, never WebGPU alone.
 */
import type { Engine } from '../probe/engine.ts';
import { createWebLLMEngine, type WebLLMEngine } from '../engines/webgpu/client.ts';
import { getCatalog } from '../engines/webgpu/catalog.ts';
import { createCpuEngine, type CpuEngine } from '../engines/cpu/client.ts';
import { WLLAMA_VERSION } from '../engines/cpu/catalog.ts';

export interface DeviceEngine {
	readonly engine: Engine;
	/** The runtime's version (web-llm's the catalog is pinned to, or wllama's), for the manifest. */
	readonly version: string;
	/** Are the model's files already in the browser cache (no download needed)? */
	isCached(model: string): Promise<boolean>;
	/** Delete the model's files from the browser cache (CPU engine only). */
	deleteCached?(model: string): Promise<void>;
	/** Bytes the model's files take in the cache, when the browser can tell. */
	cachedBytes?(model: string): Promise<number | undefined>;
	/** Free the GPU memory but keep the worker (Cancel). */
	unload(): Promise<void>;
	/** Stop the worker; the engine is unusable afterwards. */
	dispose(): void;
}

export function createWebgpuDevice(
	make: () => WebLLMEngine = () => createWebLLMEngine()
): DeviceEngine {
	const engine = make();
	return {
		engine,
		version: getCatalog().webllm_version,
		isCached: (model) => engine.isCached(model),
		cachedBytes: async (model) => (await engine.cacheSizes(model)).model_bytes,
		unload: () => engine.unload(),
		dispose: () => engine.terminate()
	};
}

/** The CPU engine (wllama in its own worker), for devices without WebGPU. */
export function createCpuDevice(make: () => CpuEngine = () => createCpuEngine()): DeviceEngine {
	const engine = make();
	return {
		engine,
		version: `wllama-${WLLAMA_VERSION}`,
		isCached: (model) => engine.isCached(model),
		deleteCached: (model) => engine.deleteCached(model),
		cachedBytes: async (model) => (await engine.cacheSizes(model)).model_bytes,
		unload: () => engine.unload(),
		dispose: () => engine.terminate()
	};
}
