/**
 * The CLI under sustained load: 15,000 streamed requests at 64 in flight against the mock server
 * (30 ms to the first token, then 4 ms per token), in its own process. Memory must hold still: the
 * heap after a full GC at the end is compared with the heap after the first 1,000 requests (a
 * per-request leak makes the ratio grow with the run's length), and peak RSS is bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockOpenAI } from '../helpers/mockOpenAI.ts';
import { cliCommand, runArgs, writeItems } from './cli100k.ts';
import { round } from './stats.ts';

const ITEMS = 1_000;
// 7 temperatures × 2 perturbations × 1 sample = 14 conditions: 1,000 answers + 14,000 user turns.
const TEMPERATURES = [0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1];
const PERTURBATIONS = ['none', 'truncate'];
export const CLI_LOAD_REQUESTS = ITEMS * (1 + TEMPERATURES.length * PERTURBATIONS.length);
export const CLI_LOAD_CONCURRENCY = 64;
const HEAP_AFTER_REQUESTS = 1_000;

export const CLI_LOAD_METHOD =
	`One CLI run in its own process: ${ITEMS} items × ${TEMPERATURES.length * PERTURBATIONS.length} ` +
	`conditions, rules judging, --concurrency ${CLI_LOAD_CONCURRENCY}: ${CLI_LOAD_REQUESTS} streamed ` +
	'completions from the mock server (30 ms to first token, 4 ms per token, ~12 tokens). Heap = ' +
	`heapUsed after a forced full GC, once ${HEAP_AFTER_REQUESTS} requests were sent and at the end; ` +
	'peak RSS = ru_maxrss; warnings = the process warnings it emitted.';

export interface CliLoadResult {
	requests: number;
	wallMs: number;
	cpuMs: number;
	peakRssMB: number;
	heapAfterFirstMB: number;
	heapAtEndMB: number;
	/** heapAtEnd / heapAfterFirst: ~1 when memory holds still, growing with the run when it leaks. */
	heapGrowth: number;
	warnings: string[];
}

export async function measureCliLoad(): Promise<CliLoadResult> {
	const dir = mkdtempSync(join(tmpdir(), 'utp-bench-load-'));
	const server = await startMockOpenAI({
		models: ['gen'],
		script: (req) =>
			req.prompt.endsWith('assistant\n')
				? 'She sold 48 clips in April and half as many in May, so 72 in all.<|im_end|>'
				: 'Why is the total 72 and not 96?<|im_end|>'
	});
	server.firstTokenDelayMs = 30;
	server.tokenDelayMs = 4;
	try {
		const dataset = writeItems(join(dir, 'items.jsonl'), ITEMS);
		const run = await cliCommand(
			[
				'run',
				...runArgs(server.url, dataset, join(dir, 'run.jsonl')),
				'--temperatures',
				TEMPERATURES.join(','),
				'--perturbations',
				PERTURBATIONS.join(','),
				'--limit',
				'0',
				'--concurrency',
				String(CLI_LOAD_CONCURRENCY)
			],
			join(dir, 'usage.json'),
			{ UTP_BENCH_HEAP_AFTER: String(HEAP_AFTER_REQUESTS) }
		);
		const { usage } = run;
		if (usage.heapAfterFirstMB === undefined || usage.heapAtEndMB === undefined) {
			throw new Error(`the run sent only ${usage.requests} requests`);
		}
		return {
			requests: usage.requests,
			wallMs: run.wallMs,
			cpuMs: run.cpuMs,
			peakRssMB: run.peakRssMB,
			heapAfterFirstMB: round(usage.heapAfterFirstMB),
			heapAtEndMB: round(usage.heapAtEndMB),
			heapGrowth: round(usage.heapAtEndMB / usage.heapAfterFirstMB),
			warnings: usage.warnings
		};
	} finally {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}
