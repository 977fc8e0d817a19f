/**
 * CPU time for the unit tests that bound how much work a function does. A wall clock counts the
 * time other jobs hold the cores too: on 2 shared cores with four busy loops beside it, the same
 * call reads several times slower by wall time, and a bound set on a quiet machine flakes. The CPU
 * time this process spends (user + system, every thread of it: the collector's work is the call's
 * work) moves far less with the machine's load, so a bound on it still fails when the code does
 * more. Below a millisecond it still moves (a busy sibling hyperthread slows the core): such a
 * bound is counted in yardsticks taken in turns with the work.
 */
import { referenceWork } from '../bench/referenceWork.ts';

/** What `fn` returned, and the milliseconds of this process's CPU time it took. */
export function cpuTimed<T>(fn: () => T): { value: T; ms: number } {
	const start = process.cpuUsage();
	const value = fn();
	const { user, system } = process.cpuUsage(start);
	return { value, ms: (user + system) / 1000 };
}

/** Milliseconds of this process's CPU time spent in `fn`. */
export function cpuMs(fn: () => unknown): number {
	return cpuTimed(fn).ms;
}

/**
 * Milliseconds of CPU per call over the cheapest of `batches` batches of `size` calls: the
 * steady state, without a batch that met a collection or a cold cache.
 */
export function cheapestBatchCpuMs(run: (i: number) => void, batches = 10, size = 50): number {
	let best = Infinity;
	for (let b = 0; b < batches; b++) {
		const ms = cpuMs(() => {
			for (let i = 0; i < size; i++) run(b * size + i);
		});
		best = Math.min(best, ms / size);
	}
	return best;
}

/** The bench's yardstick at a tenth of its size: a few milliseconds, beside sub-millisecond work. */
const YARDSTICK_ROWS = 2_000;

/**
 * CPU per call of `run` in yardsticks: its cheapest batch over the yardstick's cheapest run, the
 * two taken in turns so they meet the same machine at the same moment.
 */
export function cheapestBatchInYardsticks(
	run: (i: number) => void,
	batches = 20,
	size = 50
): number {
	let bestRun = Infinity;
	let bestYardstick = Infinity;
	for (let b = 0; b < batches; b++) {
		bestYardstick = Math.min(
			bestYardstick,
			cpuMs(() => referenceWork(YARDSTICK_ROWS))
		);
		const ms = cpuMs(() => {
			for (let i = 0; i < size; i++) run(b * size + i);
		});
		bestRun = Math.min(bestRun, ms / size);
	}
	return bestRun / bestYardstick;
}
