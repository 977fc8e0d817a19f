/**
 * How many threads llama.cpp computes with on the CPU engine, and why: one place, read by the
 * set-up view (to say it) and by the worker (to use it), so the two never disagree.
 *
 * Threads need SharedArrayBuffer, which browsers give only to cross-origin-isolated pages (and
 * their workers). Isolated, the engine takes half the logical cores, as wllama does by default: a
 * core's second hardware thread adds little to matrix work, and llama.cpp's threads wait for each
 * other by spinning, so one thread that the browser's own work pushes off its core stalls them all
 * (on this project's loaded 2-core machine, 2 threads decoded at 0.17–0.35× of 1 thread's speed,
 * and in the device benchmark made 5–14 records per minute against 134–229 at 1 thread, load
 * average 12; idle, 2 threads decoded 1.45× faster, too little to risk that fall on 2 cores).
 */

export interface ThreadFacts {
	/** `crossOriginIsolated` of the page or worker asking. */
	isolated: boolean;
	/** `navigator.hardwareConcurrency` (logical cores); 1 when the browser does not say. */
	cores: number;
}

export type ThreadReason = 'isolated' | 'not-isolated' | 'few-cores';

export interface ThreadPlan {
	threads: number;
	reason: ThreadReason;
}

export function cpuThreads({ isolated, cores }: ThreadFacts): ThreadPlan {
	const n = Number.isFinite(cores) && cores >= 1 ? Math.floor(cores) : 1;
	if (!isolated) return { threads: 1, reason: 'not-isolated' };
	const half = Math.floor(n / 2);
	return half >= 2 ? { threads: half, reason: 'isolated' } : { threads: 1, reason: 'few-cores' };
}

/** The facts of the global scope this runs in (a page or a worker). */
export function threadFactsHere(): ThreadFacts {
	const g = globalThis as {
		crossOriginIsolated?: boolean;
		navigator?: { hardwareConcurrency?: number };
	};
	return { isolated: g.crossOriginIsolated === true, cores: g.navigator?.hardwareConcurrency || 1 };
}
