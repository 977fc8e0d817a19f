import type { AppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import {
	cacheSizes,
	modelBaseUrl,
	type CacheEnv
} from '../../../src/lib/engines/webgpu/worker/cacheSizes.ts';

const APP: AppConfig = {
	model_list: [
		{
			model: 'https://huggingface.co/mlc-ai/Qwen3-0.6B-q4f16_1-MLC',
			model_id: 'Qwen3-0.6B-q4f16_1-MLC',
			model_lib: 'https://raw.githubusercontent.com/mlc-ai/libs/qwen3-0.6b.wasm'
		}
	]
};
const BASE = 'https://huggingface.co/mlc-ai/Qwen3-0.6B-q4f16_1-MLC/resolve/main/';

/** A CacheStorage fake: scope → url → [content-length header or null, blob size]. */
function fakeCaches(
	scopes: Record<string, Record<string, [string | null, number]>>
): CacheEnv['caches'] {
	return {
		has: async (name) => name in scopes,
		open: async (name) => ({
			keys: async () => Object.keys(scopes[name] ?? {}).map((url) => ({ url })),
			match: async (url) => {
				const entry = scopes[name]?.[url];
				if (!entry) return undefined;
				return { headers: { get: () => entry[0] }, blob: async () => ({ size: entry[1] }) };
			}
		})
	};
}

describe('cacheSizes', () => {
	it("normalises a repo URL the way web-llm's cleanModelUrl does", () => {
		expect(modelBaseUrl('https://huggingface.co/mlc-ai/X')).toBe(
			'https://huggingface.co/mlc-ai/X/resolve/main/'
		);
		expect(modelBaseUrl('https://h.co/a/X/resolve/v2/')).toBe('https://h.co/a/X/resolve/v2/');
	});

	it("sums the model's weights, config and wasm, and nothing of other models", async () => {
		const caches = fakeCaches({
			'webllm/model': {
				[`${BASE}params_shard_0.bin`]: ['1000', 0],
				[`${BASE}params_shard_1.bin`]: [null, 500],
				'https://huggingface.co/mlc-ai/Other-MLC/resolve/main/params_shard_0.bin': ['9999', 0]
			},
			'webllm/config': { [`${BASE}mlc-chat-config.json`]: ['20', 0] },
			'webllm/wasm': { [APP.model_list[0].model_lib]: ['300', 0] }
		});
		const storage = { estimate: async () => ({ usage: 5000, quota: 100000 }) };
		const sizes = await cacheSizes('Qwen3-0.6B-q4f16_1-MLC', APP, { caches, storage });
		expect(sizes).toEqual({
			model: 'Qwen3-0.6B-q4f16_1-MLC',
			model_bytes: 1820,
			usage_bytes: 5000,
			quota_bytes: 100000
		});
	});

	it('reports 0 bytes for a model with nothing cached', async () => {
		const sizes = await cacheSizes('Qwen3-0.6B-q4f16_1-MLC', APP, { caches: fakeCaches({}) });
		expect(sizes.model_bytes).toBe(0);
	});

	it('leaves model_bytes unknown for other cache backends and unknown models', async () => {
		const caches = fakeCaches({ 'webllm/model': { [`${BASE}a.bin`]: ['10', 0] } });
		const idb = await cacheSizes(
			'Qwen3-0.6B-q4f16_1-MLC',
			{ ...APP, cacheBackend: 'indexeddb' },
			{ caches }
		);
		expect(idb.model_bytes).toBeUndefined();
		expect((await cacheSizes('nope', APP, { caches })).model_bytes).toBeUndefined();
	});
});
