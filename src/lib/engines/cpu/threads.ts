/**
 * How many threads llama.cpp computes with on the CPU engine, and why: one place, read by the
 * set-up view (to say it) and by the worker (to use it), so the two never disagree.
 *
 * Threads need SharedArrayBuffer, which browsers give only to cross-origin-isolated pages (and
 * their workers). Isolated, the engine takes half the logical cores, as wllama does by default: a
 * core's second hardware thread adds little to matrix work, and llama.cpp's threads wait for each
 * other by spinning, so one thread that the browser's own work pushes off its core stalls them all
 * (on this project's 2-core machine, `npm run bench -- --only cpuThreads`: at load average 12, 2
 * threads made 5–14 records per minute in the device benchmark against 134–229 at 1 thread; at
 * load average 2, 346–492 against 297–327. On 2 cores a second thread gains about 1.4× when
 * nothing else runs and loses over 10× when something does, so 2 cores keep 1 thread).
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
