/**
 * wllama behind CpuRuntime: one Wllama instance (its own wasm runtime and inner worker) per model,
 * files cached by wllama's ModelManager in OPFS (in memory where a browser has no OPFS). Imported
 * only by the CPU worker.
 */
import { CacheManager, Wllama, type RawCompletionParams } from '@wllama/wllama';
import { compatMode, supportsMemory64 } from './compat.ts';
import { hasOpfs, MemoryBackend } from './memoryBackend.ts';
import { hasWritableOpfs, OpfsBackend } from './opfsBackend.ts';
import { WasmCompatFromCDN as COMPAT, WLLAMA_WASM_URL } from './wllamaAssets.ts';
import type { CpuCompletionParams, CpuModel, CpuRuntime } from './surface.ts';
import { mirroredFetch, verifyMirrorCopy, type MirrorSource } from './mirrorFetch.ts';

const quiet = {
	...console,
	debug: () => {},
	log: () => {},
	info: () => {}
};

/** A Wllama that takes its compatibility build, when it needs one, from the app's origin. */
function createWllama(config: ConstructorParameters<typeof Wllama>[1]): Wllama {
	const wllama = new Wllama({ default: WLLAMA_WASM_URL }, config);
	wllama.setCompat(COMPAT, compatMode(supportsMemory64()));
	return wllama;
}

/**
 * Where models are cached: the OPFS, written from this worker (opfsBackend.ts); wllama's own OPFS
 * backend where files cannot be written that way; memory without OPFS, where wllama's default
 * (built in every constructor) would throw.
 */
function modelCache(): CacheManager | undefined {
	if (!hasOpfs(navigator)) return new CacheManager([new MemoryBackend()]);
	if (!hasWritableOpfs()) return undefined;
	return new CacheManager([new OpfsBackend(() => navigator.storage.getDirectory())]);
}

/**
 * wllama fetches with the global fetch and knows no mirror: this worker's fetch takes catalog
 * files from the mirror the current load names (mirrorFetch.ts), while wllama keeps the Hub URL.
 */
function routeThroughMirror(): { use(m: MirrorSource | undefined): void; fetched: Set<string> } {
	let current: MirrorSource | undefined;
	const fetched = new Set<string>();
	globalThis.fetch = mirroredFetch(globalThis.fetch.bind(globalThis), () => current, fetched);
	return {
		use(m) {
			current = m;
			fetched.clear();
		},
		fetched
	};
}

export function createWllamaRuntime(): CpuRuntime {
	const cacheManager = modelCache();
	const mirror = routeThroughMirror();
	// One manager for cache queries, shared with every instance so they agree on what is cached.
	const manager = createWllama({ logger: quiet, cacheManager }).modelManager;
	const findCached = async (url: string) => (await manager.getModels()).find((m) => m.url === url);

	return {
		async open(url, { n_ctx, n_threads, signal, onProgress, mirror: source }): Promise<CpuModel> {
			if (source?.base) {
				// Download first (from the mirror), and check it before llama.cpp reads it.
				mirror.use(source);
				try {
					await manager.getModelOrDownload({ url }, { signal, progressCallback: onProgress });
				} finally {
					mirror.use(undefined);
				}
				await verifyMirrorCopy(url, source, mirror.fetched, findCached);
			}
			const wllama = createWllama({
				logger: quiet,
				cacheManager,
				modelManager: manager,
				suppressNativeLog: true
			});
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
			if (!navigator.storage?.estimate) return {};
			const est = await navigator.storage.estimate();
			return { usage: est.usage, quota: est.quota };
		}
	};
}
