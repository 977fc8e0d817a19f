/**
 * The app's only contact with the two engines that run on this device (WebGPU and CPU), kept
 * narrow so a change there touches one file: an Engine, a cache query for the "cached" badges, and
 * a way to let go of the memory. "Device" means this device: both of them, never WebGPU alone.
 */
import type { DeviceEngine } from '../engines/provider.ts';
import { createWebLLMEngine, type WebLLMEngine } from '../engines/webgpu/client.ts';
import { getCatalog } from '../engines/webgpu/catalog.ts';
import { createCpuEngine, type CpuEngine } from '../engines/cpu/client.ts';
import { WLLAMA_VERSION } from '../engines/cpu/catalog.ts';

export type { DeviceEngine };

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
		async facts(): Promise<Record<string, string>> {
			const { threads } = await engine.stats();
			return threads === undefined ? {} : { cpu_threads: String(threads) };
		},
		unload: () => engine.unload(),
		dispose: () => engine.terminate()
	};
}
