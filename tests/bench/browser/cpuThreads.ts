/**
 * The CPU engine's speed-up from threads: decode tokens/s at 1 thread and at the thread count the
 * engine plans when the page is cross-origin isolated (half the cores; 2 where that is 1, so a
 * 2-core machine still shows what a second thread does), on the same tiny real model in the same
 * Chromium page, beside the machine's core count. Reported, not budgeted: it depends on the
 * machine and on what else runs on it.
 */
import { fileURLToPath } from 'node:url';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { serveGguf } from '../../helpers/ggufServer.ts';
import { buildTinyModel } from '../../helpers/tinyModel/index.ts';
import { openSmokePage } from '../../build/smokeHost.ts';
import { median, round } from '../stats.ts';
import { failed, measured, type BrowserMetric } from './metric.ts';

const PAGE = fileURLToPath(new URL('./cpuThreadsPage.ts', import.meta.url));
const ROUNDS = 5;
const MAX_TOKENS = 64;
const TIMEOUT_MS = 240_000;

export const CPU_THREADS_METHOD =
	`Tiny real model (tests/helpers/tinyModel, random weights, Qwen2.5's vocabulary) from 127.0.0.1 ` +
	`in a page served with COOP same-origin + COEP credentialless; two CPU-engine workers, one at 1 ` +
	`thread and one at the engine's isolated plan (threads.ts; 2 where the plan is 1), alternate ` +
	`${ROUNDS} seeded completions (T=1) of up to ${MAX_TOKENS} tokens after a warm-up each; ` +
	`llama.cpp's own decode tokens/s, median per side; the value is multi over single.`;

interface Sample {
	decode_tps?: number;
	prefill_tps?: number;
	tokens: number;
}

interface PageResult {
	isolated: boolean;
	cores: number;
	plannedThreads: number;
	threads: { single?: number; multi?: number };
	single: Sample[];
	multi: Sample[];
	/** Per device-benchmark round (probe records through the pipeline), each side. */
	recordsPerMinute: { single: number[]; multi: number[] };
}

const tps = (xs: Sample[], k: 'decode_tps' | 'prefill_tps') =>
	median(xs.map((x) => x[k]).filter((v): v is number => typeof v === 'number'));

/**
 * @param recordRounds device benchmarks per side after the decode rounds, for records per minute
 *   (reported in the note; 0 in the full bench, which only needs the decode ratio).
 */
/** Records per minute, each round in order, e.g. "; records/min 1 thread [6.1, 5.8], 2: [4.0, 3.9]". */
function recordsNote({ single, multi }: PageResult['recordsPerMinute']): string {
	if (single.length === 0) return '';
	const list = (xs: number[]) => `[${xs.map((x) => round(x)).join(', ')}]`;
	return `; records/min at 1 thread ${list(single)}, at more ${list(multi)}`;
}

export async function measureCpuThreads(
	recordRounds = 0
): Promise<BrowserMetric & { result?: PageResult }> {
	const model = await buildTinyModel({ seed: 16 });
	const files = await serveGguf({ 'tiny-qwen2.gguf': model.path });
	try {
		const { page, close } = await openSmokePage({
			module: PAGE,
			exports: ['measureCpuThreads'],
			webgpu: false,
			timeoutMs: TIMEOUT_MS,
			prefix: 'bench-cpu-threads-',
			isolated: true
		});
		try {
			const records = { rounds: recordRounds, template: fixtureTemplate() };
			const call = `measureCpuThreads(${JSON.stringify(files.url('tiny-qwen2.gguf'))}, ${ROUNDS}, ${MAX_TOKENS}, ${JSON.stringify(records)})`;
			const r = (await page.evaluate(call)) as PageResult;
			if (!r.isolated) return failed('the bench page was not cross-origin isolated');
			const single = tps(r.single, 'decode_tps');
			const multi = tps(r.multi, 'decode_tps');
			if (!(single > 0) || !(multi > 0)) return failed(`no decode tokens/s: ${JSON.stringify(r)}`);
			return {
				...measured(
					round(multi / single),
					`${r.cores} cores (isolated plan: ${r.plannedThreads} thread(s)); decode ` +
						`${round(single)} tok/s at ${r.threads.single} thread, ${round(multi)} tok/s at ` +
						`${r.threads.multi} threads, median tokens ${median(r.multi.map((x) => x.tokens))} (prefill ` +
						`${round(tps(r.single, 'prefill_tps'))} vs ${round(tps(r.multi, 'prefill_tps'))} tok/s)` +
						recordsNote(r.recordsPerMinute)
				),
				result: r
			};
		} finally {
			await close();
		}
	} finally {
		await files.close();
	}
}
