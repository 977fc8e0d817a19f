/**
 * A judge that stays resident in the engine worker while the generator beside it changes: the page's
 * WebLLMEngine over a real MessageChannel to the worker handler, against the fake of web-llm 0.2.86
 * (whose reload frees every model of its engine, so only an engine of the judge's own keeps it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '@mlc-ai/web-llm';
import { KEPT_TEXT } from '../../../src/lib/engines/webgpu/worker/handler.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import {
	EngineError,
	type JsonChatRequest,
	type LoadProgress
} from '../../../src/lib/probe/engine.ts';
import { deviceLostError, fakeEngine, firstVisitReports } from '../../helpers/fakeWebLLM.ts';
import { defaultScript } from '../../helpers/script.ts';

const GEN_1 = 'SmolLM2-360M-Instruct-q4f16_1-MLC';
const GEN_2 = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
const GEN_3 = 'Llama-3.2-1B-Instruct-q4f16_1-MLC';
const JUDGE = 'Qwen2.5-3B-Instruct-q4f16_1-MLC';

let closers: (() => void)[] = [];
afterEach(() => {
	for (const close of closers) close();
	closers = [];
});

function setup(opts: Parameters<typeof fakeEngine>[0] = {}) {
	const t = fakeEngine(opts);
	t.fake.reportsFor = () => firstVisitReports(2);
	closers.push(t.close);
	return t;
}

type Setup = ReturnType<typeof setup>;

const JUDGMENT: JsonChatRequest = {
	model: JUDGE,
	messages: [{ role: 'user', content: 'Label this user turn.' }],
	schema: { type: 'object' },
	temperature: 0,
	top_p: 1,
	seed: 1,
	max_tokens: 64
};

/** One generation on `model` and one judgment: both must answer. */
async function use(t: Setup, generator: string) {
	const turn = await t.engine.complete({
		model: generator,
		prompt: '<|im_start|>user\nQ<|im_end|>\n<|im_start|>assistant\nA<|im_end|>\n<|im_start|>user\n',
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 16,
		stop: ['<|im_end|>']
	});
	const verdict = await t.engine.chatJson(JUDGMENT);
	return { turn: turn.text, verdict: verdict.text };
}

/**
 * What is loaded once the worker is idle. The page answers an aborted load at once, while web-llm
 * in the worker finishes the reload it was cancelling (as real web-llm does) and frees it after.
 */
async function loadedWhenIdle(t: Setup): Promise<string[]> {
	for (;;) {
		const stats = await t.engine.stats();
		if (stats.running === null) return stats.loaded;
		await new Promise((r) => setTimeout(r, 5));
	}
}

/** The engine the fake made for `model` that still holds it. */
const holderOf = (t: Setup, model: string) =>
	t.fake.engines.filter((e) => e.resident.includes(model));

describe('a judge that stays between loads', () => {
	it('loads once across three generators while each generator swaps in and out', async () => {
		const t = setup();
		for (const gen of [GEN_1, GEN_2, GEN_3]) {
			await t.engine.load([gen, JUDGE]);
			expect((await t.engine.stats()).loaded).toEqual([gen, JUDGE]);
			const out = await use(t, gen);
			expect(out.turn.length).toBeGreaterThan(0);
			expect(JSON.parse(out.verdict)).toHaveProperty('label');
		}
		expect(t.fake.reloads).toEqual([[GEN_1], [JUDGE], [GEN_2], [GEN_3]]);
		const [judgeEngine] = holderOf(t, JUDGE);
		expect(judgeEngine.reloads).toEqual([[JUDGE]]);
		expect(t.fake.resident).toEqual([JUDGE, GEN_3]);
		// The previous generator went before the next one loaded: never two generators at once.
		const calls = t.fake.calls.map((c) => c.request.model);
		expect(calls).toEqual([GEN_1, JUDGE, GEN_2, JUDGE, GEN_3, JUDGE]);
	});

	it("reports the kept judge ready at once, and the new generator's own progress", async () => {
		const t = setup();
		await t.engine.load([GEN_1, JUDGE]);
		const seen: LoadProgress[] = [];
		await t.engine.load([GEN_2, JUDGE], { onProgress: (p) => seen.push(p) });
		expect(seen.filter((p) => p.model === JUDGE)).toEqual([
			{ model: JUDGE, fraction: 1, phase: 'ready', text: KEPT_TEXT }
		]);
		const gen = seen.filter((p) => p.model === GEN_2);
		expect(gen).toHaveLength(firstVisitReports(2).length);
		expect(gen.at(-1)).toMatchObject({ fraction: 1, phase: 'ready' });
	});

	it("stops a judgment by interrupting the judge's engine only", async () => {
		const t = setup();
		await t.engine.load([GEN_1, JUDGE]);
		// A judgment of 200 tokens at 5 ms each, stopped 30 ms in.
		t.fake.script = (req) => (req.kind === 'chat' ? 'word '.repeat(200) : defaultScript(req));
		t.fake.slowNextRequest(5);
		const ctrl = new AbortController();
		const judging = t.engine.chatJson({ ...JUDGMENT, signal: ctrl.signal });
		setTimeout(() => ctrl.abort(), 30);
		await expect(judging).rejects.toBeInstanceOf(AbortError);
		await loadedWhenIdle(t);
		expect(t.fake.engines.map((e) => [e.resident, e.interrupts])).toEqual([
			[[GEN_1], 0],
			[[JUDGE], 1]
		]);
		expect((await use(t, GEN_1)).turn.length).toBeGreaterThan(0);
	});

	it('reloads a kept model only when its record changed (a fixed custom model)', async () => {
		const record = (lib: string): AppConfig => ({
			model_list: [GEN_1, GEN_2, 'my-judge'].map((id) => ({
				model: `https://example.org/${id}`,
				model_id: id,
				model_lib: id === 'my-judge' ? lib : 'https://example.org/gen.wasm'
			}))
		});
		let appConfig = record('https://example.org/v1.wasm');
		const t = setup({ appConfig: () => appConfig });
		await t.engine.load([GEN_1, 'my-judge']);
		await t.engine.load([GEN_2, 'my-judge']);
		appConfig = record('https://example.org/v2.wasm');
		await t.engine.load([GEN_2, 'my-judge']);
		expect(t.fake.reloads.filter((r) => r[0] === 'my-judge')).toHaveLength(2);
		expect(t.fake.reloads.filter((r) => r[0] === GEN_2)).toHaveLength(1);
	});
});

describe('a judge that stays, when the next generator cannot load', () => {
	it.each([
		['runs out of memory', deviceLostError, 'device_lost'],
		['cannot download', () => new TypeError('Failed to fetch'), 'network']
	])('%s: the load fails plainly and the judge stays usable', async (_, failure, code) => {
		const t = setup();
		await t.engine.load([GEN_1, JUDGE]);
		t.fake.failLoadOf[GEN_2] = failure();
		const err = await t.engine.load([GEN_2, JUDGE]).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ code });
		expect((await t.engine.stats()).loaded).toEqual([JUDGE]);
		expect(t.fake.resident).toEqual([JUDGE]);
		// The judge answers, and the next generator loads beside it without reloading it.
		await t.engine.load([GEN_3, JUDGE]);
		expect(JSON.parse((await use(t, GEN_3)).verdict)).toHaveProperty('label');
		expect(holderOf(t, JUDGE)[0].reloads).toEqual([[JUDGE]]);
	});

	it('frees a generator whose device was lost mid-generation, so the next load reloads it', async () => {
		const t = setup();
		await t.engine.load([GEN_1, JUDGE]);
		t.fake.failNext.complete = deviceLostError();
		await expect(use(t, GEN_1)).rejects.toMatchObject({ code: 'device_lost' });
		expect((await t.engine.stats()).loaded).toEqual([JUDGE]);
		await t.engine.load([GEN_1, JUDGE]);
		expect(t.fake.reloads).toEqual([[GEN_1], [JUDGE], [GEN_1]]);
	});
});

describe('a judge that stays, when a load is aborted', () => {
	/** Load `models` slowly and abort once `midway` is a tenth loaded. */
	async function abortedLoad(t: Setup, models: string[], midway: string) {
		t.fake.reportsFor = (model) => (model === midway ? firstVisitReports(50) : []);
		t.fake.reportDelayMs = 2;
		const ctrl = new AbortController();
		const pending = t.engine.load(models, {
			signal: ctrl.signal,
			onProgress: (p) => {
				if (p.model === midway && p.fraction > 0.1) ctrl.abort();
			}
		});
		await expect(pending).rejects.toBeInstanceOf(AbortError);
	}

	it('frees the half-loaded generator and keeps the judge, consistent with stats', async () => {
		const t = setup();
		await t.engine.load([GEN_1, JUDGE]);
		await abortedLoad(t, [GEN_2, JUDGE], GEN_2);
		expect(await loadedWhenIdle(t)).toEqual([JUDGE]);
		expect(t.fake.resident).toEqual([JUDGE]);
		t.fake.reportsFor = () => [];
		await t.engine.load([GEN_2, JUDGE]);
		expect(JSON.parse((await use(t, GEN_2)).verdict)).toHaveProperty('label');
		expect(holderOf(t, JUDGE)[0].reloads).toEqual([[JUDGE]]);
	});

	it('leaves nothing when the abort lands while the judge itself is loading', async () => {
		const t = setup();
		await abortedLoad(t, [GEN_1, JUDGE], JUDGE);
		expect(await loadedWhenIdle(t)).toEqual([]);
		expect(t.fake.resident).toEqual([]);
	});
});
