/**
 * How fast a model download went, from the load progress the engines report (web-llm's "Fetching
 * param cache", wllama's byte counts), so the next estimate can add a download's time honestly:
 * from this browser's own last download, never from a guessed bandwidth. Pure: the run controller
 * feeds it reports with the time, and stores what it returns (DownloadSizes.recordSpeed).
 */
import type { LoadProgress } from '../probe/engine.ts';

/** Less than this is mostly latency, or a read from the cache that reports as a download. */
export const MIN_MEASURED_BYTES = 20 * 1024 * 1024;
export const MIN_MEASURED_MS = 2_000;

/** One download measured: bytes received while the download phase lasted, and how long. */
export interface DownloadSample {
	model: string;
	bytes: number;
	ms: number;
}

interface Span {
	firstMs: number;
	firstBytes: number;
	lastMs: number;
	lastBytes: number;
}

export class DownloadMeter {
	readonly #spans = new Map<string, Span>();

	/**
	 * Note one progress report at `nowMs`. A report past the download phase ends that model's
	 * span: its sample when it was long enough to measure, else null.
	 */
	note(p: LoadProgress, nowMs: number): DownloadSample | null {
		const bytes = p.loaded_bytes;
		if (p.phase === 'downloading' && typeof bytes === 'number' && Number.isFinite(bytes)) {
			const span = this.#spans.get(p.model);
			// Fewer bytes than before: the download started over (a stopped run, a retry).
			if (!span || bytes < span.lastBytes) {
				this.#spans.set(p.model, {
					firstMs: nowMs,
					firstBytes: bytes,
					lastMs: nowMs,
					lastBytes: bytes
				});
			} else {
				span.lastMs = nowMs;
				span.lastBytes = bytes;
			}
			return null;
		}
		return p.phase === 'downloading' ? null : this.end(p.model);
	}

	/** The model finished loading (or stopped): its sample when one was measured, else null. */
	end(model: string): DownloadSample | null {
		const span = this.#spans.get(model);
		this.#spans.delete(model);
		if (!span) return null;
		const bytes = span.lastBytes - span.firstBytes;
		const ms = span.lastMs - span.firstMs;
		return bytes >= MIN_MEASURED_BYTES && ms >= MIN_MEASURED_MS ? { model, bytes, ms } : null;
	}
}
