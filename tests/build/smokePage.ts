/**
 * The page half of workerSmoke.ts, bundled by Vite into the smoke page: drives the real engine
 * worker through WebLLMEngine and returns every outcome as plain data.
 */
import { createWebLLMEngine } from '../../src/lib/engines/webgpu/client.ts';
import { probeGpu } from '../../src/lib/engines/webgpu/gpu.ts';
import { checkMirror } from '../../src/lib/engines/mirror.ts';

const asData = (e: { name: string; code?: string; message: string }) => ({
	name: e.name,
	code: e.code,
	message: e.message
});

export async function runSmoke(origin: string) {
	const model = 'smoke-model';
	// A model record whose files are 404s on our own server: a network failure without a network.
	const engine = createWebLLMEngine({
		appConfig: {
			model_list: [
				{
					model: `${origin}/no-such-model/`,
					model_id: model,
					model_lib: `${origin}/no-such-model.wasm`,
					vram_required_MB: 100
				}
			]
		}
	});
	const request = {
		model,
		prompt: 'Hi',
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 4,
		stop: []
	};
	const abortedLoad = async () => {
		const ctrl = new AbortController();
		const pending = engine.load([model], { signal: ctrl.signal });
		ctrl.abort();
		return pending.then(() => 'resolved', asData);
	};
	const out = {
		gpu: await probeGpu(),
		stats: await engine.stats(),
		cached: await engine.isCached('Qwen3-0.6B-q4f32_1-MLC'),
		complete_before_load: await engine.complete(request).then(() => 'resolved', asData),
		load: await engine.load([model]).then(() => 'resolved', asData),
		aborted_load: await abortedLoad(),
		stats_after: await engine.stats()
	};
	engine.terminate();
	return out;
}

/**
 * A catalog model through a school's model mirror on our own server (`base`, which has the model's
 * mlc-chat-config.json but not its model library): what is cached, and the load's error. With
 * `readIndex`, the mirror is first checked as the app checks it (checkMirror), so its index.json
 * goes with the load; then whether web-llm's cache still holds the mirror's config.
 */
export async function runMirrorSmoke(base: string, model: string, readIndex = false) {
	const check = readIndex
		? await checkMirror({ base, want: [], fetch: (url, init) => fetch(url, init) })
		: undefined;
	const manifest = check?.manifest;
	const engine = createWebLLMEngine({ mirror: () => ({ base, ...(manifest && { manifest }) }) });
	const out = {
		indexed: manifest !== undefined,
		cached: await engine.isCached(model),
		load: await engine.load([model]).then(() => 'resolved', asData),
		config_kept: await caches
			.open('webllm/config')
			.then((c) => c.match(`${base}/mlc-ai/${model}/resolve/main/mlc-chat-config.json`))
			.then((r) => r !== undefined)
	};
	engine.terminate();
	return out;
}

export type SmokeResult = Awaited<ReturnType<typeof runSmoke>>;
export type MirrorSmokeResult = Awaited<ReturnType<typeof runMirrorSmoke>>;
