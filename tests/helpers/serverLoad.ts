/** How many requests a mock server held at once over a run (mockOpenAI.ts records their times). */
import type { MockRequest } from './mockOpenAI.ts';

/** What the server saw of one run's generation requests: how many at once, at most and on average. */
export interface ServerLoad {
	requests: number;
	peak: number;
	/** Requests open at the server, averaged from the first one's arrival to the last one's end. */
	mean: number;
}

export function serverLoad(requests: readonly MockRequest[]): ServerLoad {
	const spans = requests
		.filter((r) => r.path.endsWith('/completions'))
		.map((r) => ({ from: r.receivedAt, to: r.endedAt ?? performance.now() }));
	if (spans.length === 0) return { requests: 0, peak: 0, mean: 0 };
	// An end before an arrival at the same instant: a connection passed straight on is not two.
	const edges = spans
		.flatMap((s) => [
			{ at: s.from, step: 1 },
			{ at: s.to, step: -1 }
		])
		.sort((a, b) => a.at - b.at || a.step - b.step);
	let open = 0;
	let peak = 0;
	for (const e of edges) peak = Math.max(peak, (open += e.step));
	const first = Math.min(...spans.map((s) => s.from));
	const last = Math.max(...spans.map((s) => s.to));
	const held = spans.reduce((sum, s) => sum + (s.to - s.from), 0);
	return { requests: spans.length, peak, mean: last > first ? held / (last - first) : 0 };
}
