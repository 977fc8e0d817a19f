import { describe, expect, it } from 'vitest';
import type { LoadProgress } from '../../../src/lib/probe/engine.ts';
import { isRuntimeDeath } from '../../../src/lib/engines/cpu/worker/errors.ts';
import { fakeCpuEngine, runtimeDeath } from '../../helpers/fakeWllama.ts';

const URL_A = 'http://127.0.0.1:9/a/model-a.gguf';
const URL_B = 'http://127.0.0.1:9/b/model-b.gguf';

function req(model: string) {
	return {
		model,
		prompt:
			'<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello.<|im_end|>\n<|im_start|>user\n',
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 64,
		stop: ['<|im_end|>']
	};
}

const judge = (model: string) => ({
	model,
	messages: [
		{ role: 'system' as const, content: 'You label user turns.' },
		{ role: 'user' as const, content: 'Label this.' }
	],
	schema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
	temperature: 0,
	top_p: 1,
	seed: 3,
	max_tokens: 128
});

describe('CPU engine worker handler', () => {
	it('reports monotone download progress per model, ending ready at 1', async () => {
		const { engine, close } = fakeCpuEngine();
		const seen: LoadProgress[] = [];
		await engine.load([URL_A], { onProgress: (p) => seen.push(p) });
		expect(seen.map((p) => p.fraction)).toEqual(
			[...seen.map((p) => p.fraction)].sort((a, b) => a - b)
		);
		expect(seen.at(-1)).toMatchObject({ model: URL_A, fraction: 1, phase: 'ready' });
		expect(seen.some((p) => p.phase === 'downloading' && p.total_bytes === 4_000_000)).toBe(true);
		close();
	});

	it('sends the load context size and the llama.cpp completion fields', async () => {
		const { engine, fake, received, close } = fakeCpuEngine({ n_ctx: 2048 });
		await engine.load([URL_A]);
		expect(received[0]).toMatchObject({ kind: 'load', models: [URL_A], n_ctx: 2048 });
		const res = await engine.complete({ ...req(URL_A), temperature: 0.7, seed: 9, top_p: 0.9 });
		expect(fake.calls[0]).toMatchObject({
			temperature: 0.7,
			seed: 9,
			top_p: 0.9,
			max_tokens: 64,
			stop: ['<|im_end|>'],
			stream: true
		});
		expect(fake.calls[0].json_schema).toBeUndefined();
		expect(res.usage).toMatchObject({
			prefill_tps: 400,
			decode_tps: 25,
			ttft_ms: 80,
			total_ms: 500
		});
		close();
	});

	it('judges with a streamed raw completion: the GGUF chat template renders, the schema constrains', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		const res = await engine.chatJson(judge(URL_A));
		expect(JSON.parse(res.text)).toMatchObject({ label: 'genuine_followup' });
		const call = fake.calls[0];
		expect(call.prompt).toBe(
			'<|im_start|>system\nYou label user turns.<|im_end|>\n<|im_start|>user\nLabel this.<|im_end|>\n<|im_start|>assistant\n'
		);
		expect(call.json_schema).toEqual(judge(URL_A).schema);
		expect(call.stop).toContain('<|im_end|>');
		close();
	});

	it('refuses to judge with a GGUF that has no chat template, in words that say so', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		fake.chatTemplate = null;
		await engine.load([URL_A]);
		await expect(engine.chatJson(judge(URL_A))).rejects.toMatchObject({
			code: 'bad_model',
			message: expect.stringContaining('tokenizer.chat_template')
		});
		close();
	});

	it('a model not loaded fails with model_not_loaded', async () => {
		const { engine, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		await expect(engine.complete(req(URL_B))).rejects.toMatchObject({ code: 'model_not_loaded' });
		close();
	});

	it('loading another model exits the one not asked for; the same model stays resident', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		await engine.load([URL_A]);
		expect(fake.opened).toEqual([URL_A]);
		await engine.load([URL_B]);
		expect(fake.exited).toEqual([URL_A]);
		expect((await engine.stats()).loaded).toEqual([URL_B]);
		await engine.unload();
		expect(fake.exited).toEqual([URL_A, URL_B]);
		expect((await engine.stats()).loaded).toEqual([]);
		close();
	});

	it('cancelling a download rejects at once and leaves no model resident', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		fake.progressDelayMs = 20;
		fake.progressSteps = 50;
		const ctrl = new AbortController();
		const pending = engine.load([URL_A], {
			signal: ctrl.signal,
			onProgress: (p) => {
				if (p.fraction > 0.1) ctrl.abort();
			}
		});
		await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
		// The worker finishes the cancelled load before the next request.
		expect((await engine.stats()).loaded).toEqual([]);
		fake.progressSteps = 2;
		await engine.load([URL_B]);
		expect((await engine.stats()).loaded).toEqual([URL_B]);
		expect(fake.opened).toEqual([URL_B]);
		close();
	});

	it('a runtime that dies mid-generation (the invalid UTF-8 crash) fails that request alone and is restarted', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		fake.failNext.complete = runtimeDeath();
		await expect(engine.complete(req(URL_A))).rejects.toMatchObject({
			code: 'unknown',
			message: expect.stringContaining('invalid UTF-8 byte')
		});
		expect(fake.exited).toEqual([URL_A]);
		expect(fake.opened).toEqual([URL_A, URL_A]);
		const next = await engine.complete(req(URL_A));
		expect(next.finish_reason).toBe('stop');
		expect((await engine.stats()).restarts).toBe(1);
		close();
	});

	it('names the file when its runtime stops on every generation before any text (a header-only GGUF)', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		fake.failNext.complete = runtimeDeath();
		await expect(engine.complete(req(URL_A))).rejects.toMatchObject({
			code: 'unknown',
			recovery: expect.stringContaining('the file is invalid or incomplete')
		});
		fake.failNext.complete = runtimeDeath();
		await expect(engine.complete(req(URL_A))).rejects.toMatchObject({
			code: 'bad_model',
			message: expect.stringContaining(`cannot run ${URL_A}`)
		});
		expect((await engine.stats()).loaded).toEqual([]);
		close();
	});

	it("maps llama.cpp's context overflow to the per-item context_window error", async () => {
		const { engine, fake, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		fake.failNext.complete = new Error(
			'request (5000 tokens) exceeds the available context size (2048 tokens), try increasing it'
		);
		await expect(engine.complete(req(URL_A))).rejects.toMatchObject({ code: 'context_window' });
		fake.failNext.complete = new Error('Model failed to start inference');
		await expect(engine.complete(req(URL_A))).rejects.toMatchObject({ code: 'unknown' });
		expect((await engine.stats()).restarts).toBe(0);
		close();
	});

	it('maps open failures to typed errors naming the file', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		fake.failNext.open = new Error('Invalid model URL: http://x/y.bin; URL must ends with ".gguf"');
		await expect(engine.load(['http://x/y.bin'])).rejects.toMatchObject({ code: 'bad_model' });
		fake.failNext.open = new TypeError('Failed to fetch');
		await expect(engine.load([URL_A])).rejects.toMatchObject({
			code: 'network',
			retryable: true,
			recovery: expect.stringMatching(/^Check the URL/)
		});
		// A catalog model on a blocked Hub: nobody typed that URL, so the network is named instead.
		const hub = 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/q.gguf';
		fake.failNext.open = new TypeError('Failed to fetch');
		const blocked = await engine.load([hub]).catch((e: unknown) => e);
		expect(blocked).toMatchObject({ code: 'network', message: expect.stringContaining(hub) });
		expect((blocked as { recovery: string }).recovery).toMatch(/huggingface\.co is blocked/);
		expect((blocked as { recovery: string }).recovery).not.toMatch(/Check the URL/);
		fake.failNext.open = new Error('llama_model_load: unknown model architecture');
		await expect(engine.load([URL_A])).rejects.toMatchObject({
			code: 'bad_model',
			message: expect.stringContaining(URL_A)
		});
		close();
	});

	it('answers cache queries: has, sizes and delete (which also unloads the model)', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		expect(await engine.isCached(URL_A)).toBe(false);
		await engine.load([URL_A]);
		expect(await engine.isCached(URL_A)).toBe(true);
		expect(await engine.cacheSizes(URL_A)).toMatchObject({ model: URL_A, model_bytes: 4_000_000 });
		await engine.deleteCached(URL_A);
		expect(await engine.isCached(URL_A)).toBe(false);
		expect(fake.exited).toEqual([URL_A]);
		expect((await engine.stats()).loaded).toEqual([]);
		close();
	});

	it('plans generator and judge in phases unless they are one model', () => {
		const { engine, close } = fakeCpuEngine();
		expect(engine.capabilities().can_co_load([URL_A, URL_A])).toBe(true);
		expect(engine.capabilities().can_co_load([URL_A, URL_B])).toBe(false);
		close();
	});

	it('a crashed worker fails pending and later calls', async () => {
		const { engine, fake, crash, close } = fakeCpuEngine();
		await engine.load([URL_A]);
		fake.tokenDelayMs = 20;
		const pending = engine.complete(req(URL_A));
		crash('out of memory');
		await expect(pending).rejects.toMatchObject({
			message: expect.stringContaining('out of memory')
		});
		await expect(engine.complete(req(URL_A))).rejects.toMatchObject({ code: 'unknown' });
		close();
	});

	it('tells runtime deaths from ordinary errors', () => {
		expect(isRuntimeDeath(runtimeDeath())).toBe(true);
		expect(isRuntimeDeath(new Error('(ABORT) Aborted(native code called abort())'))).toBe(true);
		expect(isRuntimeDeath(new Error('Model failed to start inference'))).toBe(false);
	});
});
