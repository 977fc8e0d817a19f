/**
 * The page half of cpuThreads.ts, bundled by Vite into a cross-origin-isolated page: two CPU
 * engines (real workers, wllama) on the same tiny model, one held to 1 thread and one at the
 * engine's isolated plan (or 2 where the plan is 1), taking turns on the same seeded completion;
 * llama.cpp's own timings. With record rounds, they then take turns on "Benchmark this device"
 * (src/lib/bench/device.ts: probe records through the real pipeline) for records per minute.
 */
import { benchmarkDevice } from '../../../src/lib/bench/device.ts';
import { createCpuEngine } from '../../../src/lib/engines/cpu/client.ts';
import { cpuThreads, threadFactsHere } from '../../../src/lib/engines/cpu/threads.ts';
import type { CompletionRequest } from '../../../src/lib/probe/engine.ts';
import type { ChatTemplate } from '../../../src/lib/probe/template.ts';

const PROMPT =
	'<|im_start|>user\nWrite a long story about a lighthouse keeper.<|im_end|>\n<|im_start|>assistant\n';

interface Sample {
	decode_tps?: number;
	prefill_tps?: number;
	tokens: number;
}

/** Device-benchmark rounds per side; the template is the tiny model's own (Qwen2.5's). */
export interface RecordRounds {
	rounds: number;
	template: ChatTemplate;
}

export async function measureCpuThreads(
	url: string,
	rounds: number,
	maxTokens: number,
	records?: RecordRounds
) {
	const plan = cpuThreads(threadFactsHere());
	const one = createCpuEngine({ n_ctx: 1024, n_threads: 1 });
	const many = createCpuEngine({ n_ctx: 1024, n_threads: Math.max(2, plan.threads) });
	try {
		await one.load([url]);
		await many.load([url]);
		const req: CompletionRequest = {
			model: url,
			prompt: PROMPT,
			// Sampled, not greedy: greedy decoding of the random-weight model ends after a few tokens.
			temperature: 1,
			top_p: 1,
			seed: 7,
			max_tokens: maxTokens,
			stop: []
		};
		const run = async (engine: typeof one): Promise<Sample> => {
			const res = await engine.complete({ ...req });
			return {
				decode_tps: res.usage.decode_tps,
				prefill_tps: res.usage.prefill_tps,
				tokens: res.usage.completion_tokens
			};
		};
		// One unmeasured warm-up each, then alternate so the machine's load falls on both alike.
		await run(one);
		await run(many);
		const single: Sample[] = [];
		const multi: Sample[] = [];
		for (let i = 0; i < rounds; i++) {
			single.push(await run(one));
			multi.push(await run(many));
		}
		const recordsPerMinute: { single: number[]; multi: number[] } = { single: [], multi: [] };
		if (records) {
			const perMinute = async (engine: typeof one) =>
				(await benchmarkDevice({ engine, model: url, template: records.template })).results
					.records_per_minute;
			for (let i = 0; i < records.rounds; i++) {
				recordsPerMinute.single.push(await perMinute(one));
				recordsPerMinute.multi.push(await perMinute(many));
			}
		}
		return {
			isolated: crossOriginIsolated,
			cores: navigator.hardwareConcurrency,
			plannedThreads: plan.threads,
			threads: { single: (await one.stats()).threads, multi: (await many.stats()).threads },
			single,
			multi,
			recordsPerMinute
		};
	} finally {
		one.terminate();
		many.terminate();
	}
}
