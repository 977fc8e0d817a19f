/**
 * One CLI command in its own process, for the CLI benches: runs main(argv) exactly as the bin does,
 * then writes the process's CPU time and peak RSS (getrusage) to $UTP_BENCH_USAGE, with every
 * process warning it printed (a MaxListenersExceededWarning is a leak's first sign).
 *
 * With $UTP_BENCH_HEAP_AFTER=N it also counts the model requests the CLI sends (through fetch) and
 * takes the heap after a full GC once N have been sent and again at the end: a heap that keeps
 * growing with the request count is a leak, one that stays flat is a working set.
 */
import { writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { main } from '../../src/cli/probe.ts';

const warnings: string[] = [];
process.on('warning', (w) => warnings.push(`${w.name}: ${w.message}`));

const heapAfter = Number(process.env.UTP_BENCH_HEAP_AFTER ?? 0);
let heapAfterFirstMB: number | undefined;
let requests = 0;
let gc: (() => void) | undefined;
if (heapAfter > 0) {
	setFlagsFromString('--expose-gc');
	gc = runInNewContext('gc') as () => void;
	const fetch = globalThis.fetch;
	globalThis.fetch = (input, init) => {
		if (String(input instanceof Request ? input.url : input).endsWith('/completions')) {
			if (++requests === heapAfter) heapAfterFirstMB = heapMB();
		}
		return fetch(input, init);
	};
}

function heapMB(): number {
	gc?.();
	return process.memoryUsage().heapUsed / 2 ** 20;
}

const started = performance.now();
const code = await main(process.argv.slice(2));
const mainMs = performance.now() - started;
const heapAtEndMB = gc ? heapMB() : undefined;
const u = process.resourceUsage();
const path = process.env.UTP_BENCH_USAGE;
if (path)
	writeFileSync(
		path,
		JSON.stringify({
			code,
			cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
			maxRssMB: u.maxRSS / 1024,
			mainMs,
			warnings,
			requests,
			heapAfterFirstMB,
			heapAtEndMB
		})
	);
process.exitCode = code;
