/**
 * Download progress on stderr, one line per file at most every few seconds: a slow host shows
 * as bytes arriving slowly, not as a silent wait. Files read from the cache are not mentioned.
 */
import type { LoadProgress } from '../lib/nlp/load.ts';

const EVERY_MS = 5_000;

const mb = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MB`;

export function downloadProgress(
	stderr: { write(s: string): unknown },
	now: () => number = Date.now
): (p: LoadProgress) => void {
	const last = new Map<string, number>();
	return (p) => {
		if (p.fromCache) return;
		const done = p.total !== undefined && p.loaded >= p.total;
		const t = now();
		const previous = last.get(p.url);
		if (previous === undefined) last.set(p.url, t);
		else if (!done && t - previous < EVERY_MS) return;
		else last.set(p.url, t);
		stderr.write(
			`downloading ${p.url}: ${mb(p.loaded)}${p.total === undefined ? '' : ` of ${mb(p.total)}`}\n`
		);
	};
}
