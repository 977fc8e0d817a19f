/**
 * The page half of cpuSmoke.ts, bundled by Vite into the smoke page: drives the real CPU worker
 * (wllama 3.8.1, llama.cpp in WebAssembly) through CpuEngine, on the tiny real model, and returns
 * every outcome as plain data.
 */
import { createCpuEngine } from '../../src/lib/engines/cpu/client.ts';
import type { CompletionRequest, LoadProgress } from '../../src/lib/probe/engine.ts';

const PROMPT =
	'<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhat is 2 + 3?<|im_end|>\n<|im_start|>assistant\nIt is 5.<|im_end|>\n<|im_start|>user\n';

const JUDGE_SCHEMA = {
	type: 'object',
	properties: {
		label: { type: 'string', enum: ['genuine_followup', 'assistant_like', 'other'] },
		rationale: { type: 'string', maxLength: 40 }
	},
	required: ['label', 'rationale'],
	additionalProperties: false
};

function asData(err: unknown) {
	const e = err as { name?: string; code?: string; message?: string };
	return { name: e?.name, code: e?.code, message: e?.message ?? String(err) };
}

async function attempt<T>(
	run: () => Promise<T>
): Promise<{ ok: T } | { error: ReturnType<typeof asData> }> {
	try {
		return { ok: await run() };
	} catch (err) {
		return { error: asData(err) };
	}
}

export async function runCpuSmoke(urls: { plain: string; split: string; headerOnly: string }) {
	const engine = createCpuEngine({ n_ctx: 2048 });
	const req = (model: string, over: Partial<CompletionRequest> = {}): CompletionRequest => ({
		model,
		prompt: PROMPT,
		temperature: 0,
		top_p: 1,
		seed: 1,
		max_tokens: 48,
		stop: ['<|im_end|>', '<|endoftext|>'],
		...over
	});
	const out: Record<string, unknown> = {};
	out.cached_before = await engine.isCached(urls.plain);
	out.complete_before_load = await attempt(() => engine.complete(req(urls.plain)));
	const progress: LoadProgress[] = [];
	let t = performance.now();
	await engine.load([urls.plain], { onProgress: (p) => progress.push(p) });
	out.load_ms = performance.now() - t;
	out.progress = {
		count: progress.length,
		monotone: progress.every((p, i) => i === 0 || p.fraction >= progress[i - 1].fraction),
		last: progress.at(-1),
		phases: [...new Set(progress.map((p) => p.phase))]
	};
	out.cached_after = await engine.isCached(urls.plain);

	const deltas: string[] = [];
	t = performance.now();
	const first = await engine.complete(req(urls.plain, { onToken: (d) => deltas.push(d) }));
	out.complete_ms = performance.now() - t;
	out.complete = first;
	out.deltas = deltas.length;
	out.deltas_add_up = deltas.join('') === first.text;
	out.greedy_again = (await engine.complete(req(urls.plain))).text === first.text;
	const hot = req(urls.plain, { temperature: 1, seed: 5 });
	out.seeded_again = (await engine.complete(hot)).text === (await engine.complete({ ...hot })).text;
	out.length = await engine.complete(req(urls.plain, { max_tokens: 3, stop: [] }));
	out.judge = await attempt(() =>
		engine.chatJson({
			model: urls.plain,
			messages: [
				{ role: 'system', content: 'Label the user turn. Answer in JSON.' },
				{ role: 'user', content: 'User turn: "thanks, and what about 3 + 4?"' }
			],
			schema: JUDGE_SCHEMA,
			temperature: 0,
			top_p: 1,
			seed: 1,
			max_tokens: 96
		})
	);

	const ctrl = new AbortController();
	let seen = 0;
	out.aborted = await attempt(() =>
		engine.complete(
			req(urls.plain, {
				max_tokens: 400,
				stop: [],
				signal: ctrl.signal,
				onToken: () => {
					if (++seen === 3) ctrl.abort();
				}
			})
		)
	);
	out.after_abort = await attempt(() => engine.complete(req(urls.plain)));
	// Longer than n_ctx (2048): llama.cpp refuses it; the pipeline must see a per-item error.
	out.too_long = await attempt(() =>
		engine.complete(req(urls.plain, { prompt: `${'word '.repeat(3000)}\n` }))
	);

	// The UTF-8 hazard: a model that emits tokens that are not valid UTF-8 alone, cut at every length.
	await engine.load([urls.split]);
	const cuts: { seed: number; max_tokens: number; text?: string; error?: unknown }[] = [];
	for (let seed = 0; seed <= 6; seed++) {
		for (let k = 1; k <= 12; k++) {
			// Seed 0 is greedy; the others sample at T = 1, so the pairs land at many cut points.
			const over = { max_tokens: k, stop: [], temperature: seed === 0 ? 0 : 1, seed };
			const r = await attempt(() => engine.complete(req(urls.split, over)));
			cuts.push(
				'ok' in r
					? { seed, max_tokens: k, text: r.ok.text }
					: { seed, max_tokens: k, error: r.error }
			);
		}
	}
	out.split_cuts = cuts;
	out.split_judge = await attempt(() =>
		engine.chatJson({
			model: urls.split,
			messages: [{ role: 'user', content: 'Label this.' }],
			schema: JUDGE_SCHEMA,
			temperature: 0,
			top_p: 1,
			seed: 1,
			max_tokens: 16
		})
	);
	out.stats = await engine.stats();
	// A GGUF cut after its header loads in wllama, then kills its runtime on every generation: the
	// first death restarts it, the second names the file as invalid (after the stats above, which
	// count restarts of the healthy models only).
	out.header_only_load = await attempt(() => engine.load([urls.headerOnly]));
	const headerOnly = [];
	for (let i = 0; i < 3; i++)
		headerOnly.push(await attempt(() => engine.complete(req(urls.headerOnly))));
	out.header_only = headerOnly;
	await engine.deleteCached(urls.plain);
	out.cached_after_delete = await engine.isCached(urls.plain);
	engine.terminate();
	return out;
}

/** The hazard itself, outside our engine: wllama's non-streamed completion on the split model. */
export async function reproduceHazard(url: string) {
	const { Wllama } = await import('@wllama/wllama');
	const { default: wasm } = await import('@wllama/wllama/esm/wasm/wllama.wasm?url');
	const wllama = new Wllama(
		{ default: wasm },
		{
			suppressNativeLog: true,
			logger: { ...console, debug: () => {}, log: () => {}, warn: () => {}, error: () => {} }
		}
	);
	await wllama.loadModelFromUrl(url, { n_ctx: 2048, n_parallel: 1, n_gpu_layers: 0 });
	const results: unknown[] = [];
	// Seeds 1-6 at T = 1, cut at 1-12 tokens: some cuts fall right after a lead token.
	for (const stream of [false, true]) {
		for (let n = 0; n < 72; n++) {
			const [seed, k] = [1 + Math.floor(n / 12), 1 + (n % 12)];
			try {
				let text = '';
				const params = { prompt: PROMPT, max_tokens: k, temperature: 1, top_p: 1, seed, stop: [] };
				if (stream) {
					await wllama.createCompletion({
						...params,
						stream: true,
						onData: (c) => (text += c.choices[0]?.text ?? '')
					});
				} else {
					text = (await wllama.createCompletion(params)).choices[0]?.text ?? '';
				}
				results.push({ stream, seed, k, text });
			} catch (err) {
				results.push({ stream, seed, k, error: asData(err) });
				await wllama.exit().catch(() => undefined);
				return results;
			}
		}
	}
	await wllama.exit().catch(() => undefined);
	return results;
}
