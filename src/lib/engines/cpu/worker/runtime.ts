/**
 * wllama behind CpuRuntime: one Wllama instance (its own wasm runtime and inner worker) per model,
 * files cached by wllama's ModelManager in OPFS. Imported only by the CPU worker.
 */
import { Wllama, type RawCompletionParams } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import type { CpuCompletionParams, CpuModel, CpuRuntime } from './handler.ts';

const quiet = {
	...console,
	debug: () => {},
	log: () => {},
	info: () => {}
};

export function createWllamaRuntime(): CpuRuntime {
	// One manager for cache queries, shared with every instance so they agree on what is cached.
	const manager = new Wllama({ default: wasmUrl }, { logger: quiet }).modelManager;
	const findCached = async (url: string) => (await manager.getModels()).find((m) => m.url === url);

	return {
		async open(url, { n_ctx, n_threads, signal, onProgress }): Promise<CpuModel> {
			const wllama = new Wllama(
				{ default: wasmUrl },
				{ logger: quiet, modelManager: manager, suppressNativeLog: true }
			);
			await wllama.loadModelFromUrl(url, {
				n_ctx,
				// The page's plan (threads.ts), so the engine computes with what set-up says.
				n_threads,
				// One request at a time: a single slot gets the whole context.
				n_parallel: 1,
				// CPU only, even where WebGPU exists: this is the engine for devices without it.
				n_gpu_layers: 0,
				signal,
				progressCallback: onProgress
			});
			return {
				createCompletion: (params: CpuCompletionParams) =>
					wllama.createCompletion(
						params as unknown as RawCompletionParams & {
							stream: true;
							onData: (c: unknown) => void;
						}
					),
				getChatTemplate: () => wllama.getChatTemplate(),
				getNumThreads: () => wllama.getNumThreads(),
				exit: () => wllama.exit()
			};
		},
		isCached: async (url) => (await findCached(url)) !== undefined,
		async deleteCached(url) {
			await (await findCached(url))?.remove();
		},
		cachedBytes: async (url) => (await findCached(url))?.size,
		storageEstimate: async () => {
			const est = await navigator.storage.estimate();
			return { usage: est.usage, quota: est.quota };
		}
	};
}
