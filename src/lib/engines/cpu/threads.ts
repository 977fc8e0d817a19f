/**
 * How many threads llama.cpp computes with on the CPU engine, and why: one place, read by the
 * set-up view (to say it) and by the worker (to use it), so the two never disagree.
 *
 * Threads need SharedArrayBuffer, which browsers give only to cross-origin-isolated pages (and
 * their workers). Isolated, the engine takes half the logical cores, as wllama does by default
 * (a core's second hardware thread adds little to matrix work), but at least 2 where there are 2:
 * on a two-core Chromebook half would be 1, and isolation would buy nothing.
 */

export interface ThreadFacts {
	/** `crossOriginIsolated` of the page or worker asking. */
	isolated: boolean;
	/** `navigator.hardwareConcurrency` (logical cores); 1 when the browser does not say. */
	cores: number;
}

export type ThreadReason = 'isolated' | 'not-isolated' | 'one-core';

export interface ThreadPlan {
	threads: number;
	reason: ThreadReason;
}

export function cpuThreads({ isolated, cores }: ThreadFacts): ThreadPlan {
	const n = Number.isFinite(cores) && cores >= 1 ? Math.floor(cores) : 1;
	if (!isolated) return { threads: 1, reason: 'not-isolated' };
	if (n < 2) return { threads: 1, reason: 'one-core' };
	return { threads: Math.max(2, Math.floor(n / 2)), reason: 'isolated' };
}

/** The facts of the global scope this runs in (a page or a worker). */
export function threadFactsHere(): ThreadFacts {
	const g = globalThis as {
		crossOriginIsolated?: boolean;
		navigator?: { hardwareConcurrency?: number };
	};
	return { isolated: g.crossOriginIsolated === true, cores: g.navigator?.hardwareConcurrency || 1 };
}
