/**
 * How many bytes one model takes in the browser cache, so the UI can say what deleting it frees.
 * web-llm has no such helper: it stores files by URL in the Cache API scopes below (0.2.86
 * cache_util), so we sum the entries under the model's URL plus its wasm library.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { CacheSizes } from '../../worker/protocol.ts';

/**
 * The Cache API scopes web-llm 0.2.86 stores a model's files in (cache_util, by URL), in the order
 * its reload reads them: the config, the model library, then the tokenizer and weights.
 */
export const WEBLLM_CACHES = ['webllm/config', 'webllm/wasm', 'webllm/model'] as const;

/** Whether web-llm keeps this list's files in the Cache API (its default), where we can read them. */
export function usesCacheApi(appConfig: AppConfig): boolean {
	return (appConfig.cacheBackend ?? 'cache') === 'cache';
}

/** The parts of CacheStorage / StorageManager we use, injected so tests can fake them. */
export interface CacheEnv {
	caches?: {
		has(name: string): Promise<boolean>;
		open(name: string): Promise<{
			keys(): Promise<readonly { url: string }[]>;
			match(url: string): Promise<ResponseLike | undefined>;
		}>;
	};
	storage?: { estimate(): Promise<{ usage?: number; quota?: number }> };
}

interface ResponseLike {
	headers: { get(name: string): string | null };
	blob(): Promise<{ size: number }>;
}

/** Same normalisation as web-llm's cleanModelUrl: HF repo URL → ".../resolve/main/". */
export function modelBaseUrl(modelUrl: string): string {
	let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
	if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
	return new URL(url).href;
}

export async function cacheSizes(
	model: string,
	appConfig: AppConfig,
	env: CacheEnv
): Promise<CacheSizes> {
	const out: CacheSizes = { model };
	const estimate = await env.storage?.estimate().catch(() => undefined);
	if (estimate?.usage !== undefined) out.usage_bytes = estimate.usage;
	if (estimate?.quota !== undefined) out.quota_bytes = estimate.quota;

	const record = appConfig.model_list.find((r) => r.model_id === model);
	// Other backends (IndexedDB, OPFS) keep files where we cannot attribute them to a model.
	if (!record || !env.caches || !usesCacheApi(appConfig)) return out;

	const base = modelBaseUrl(record.model);
	let total = 0;
	for (const scope of WEBLLM_CACHES) {
		if (!(await env.caches.has(scope))) continue;
		const cache = await env.caches.open(scope);
		for (const request of await cache.keys()) {
			const ours = request.url.startsWith(base) || request.url === record.model_lib;
			if (!ours) continue;
			const response = await cache.match(request.url);
			if (response) total += await sizeOf(response);
		}
	}
	out.model_bytes = total;
	return out;
}

async function sizeOf(response: ResponseLike): Promise<number> {
	const header = Number(response.headers.get('content-length'));
	if (Number.isFinite(header) && header > 0) return header;
	// Cached entries are disk-backed blobs: reading .size does not load the bytes.
	return (await response.blob()).size;
}
