/**
 * Download sizes the app has measured in this browser: the catalog does not list them (web-llm's
 * prebuilt config carries none, and the Hub could not be read when it was curated), so the first
 * time a model's files are listed in the cache their total is stored here and shown from then on.
 * Also how fast the last model download went, so the estimate can add a download's time.
 */
import type { DownloadSample } from '../setup/downloadSpeed.ts';
import type { MeasuredDownload } from '../setup/estimate.ts';
import { Persisted, browserStorage, type KeyValueStorage } from './persisted.svelte.ts';

export interface MeasuredSize {
	bytes: number;
	/** ISO time it was measured. */
	at: string;
}

const MB = 1024 * 1024;

export class DownloadSizes {
	readonly #sizes: Persisted<Record<string, MeasuredSize>>;
	/** The last measured download; MB_per_s 0: none yet. */
	readonly #speed: Persisted<MeasuredDownload>;

	constructor(storage: KeyValueStorage | undefined = browserStorage()) {
		this.#sizes = new Persisted<Record<string, MeasuredSize>>('utp:download-sizes', {}, storage);
		this.#speed = new Persisted<MeasuredDownload>(
			'utp:download-speed',
			{ MB_per_s: 0, at: '' },
			storage
		);
	}

	/** How fast the last measured download went in this browser; undefined before any. */
	get speed(): MeasuredDownload | undefined {
		const s = this.#speed.current;
		return Number.isFinite(s.MB_per_s) && s.MB_per_s > 0 && typeof s.at === 'string'
			? s
			: undefined;
	}

	/** Keep a measured download's speed: the newest one stands for this connection. */
	recordSpeed(sample: DownloadSample, at: string = isoNow()): void {
		if (!(sample.bytes > 0 && sample.ms > 0)) return;
		this.#speed.current = { MB_per_s: sample.bytes / MB / (sample.ms / 1000), at };
	}

	/** The measured size in MB (rounded), or null when not measured here yet. */
	mb(model: string): number | null {
		const s = this.#sizes.current[model];
		if (!s || typeof s.bytes !== 'number' || !(s.bytes > 0) || !Number.isFinite(s.bytes)) {
			return null;
		}
		return Math.round(s.bytes / MB);
	}

	/** Every measured size in MB, by model id. */
	get all(): Record<string, number> {
		const out: Record<string, number> = {};
		for (const id of Object.keys(this.#sizes.current)) {
			const mb = this.mb(id);
			if (mb !== null) out[id] = mb;
		}
		return out;
	}

	/** Store a listed total; a non-positive or non-finite byte count (nothing listed) is ignored. */
	record(model: string, bytes: number | undefined, at: string = isoNow()): void {
		if (bytes === undefined || !Number.isFinite(bytes) || bytes <= 0) return;
		if (this.#sizes.current[model]?.bytes === bytes) return;
		this.#sizes.current = { ...this.#sizes.current, [model]: { bytes, at } };
	}

	/** Ids that are cached but whose size is not stored yet. */
	missing(cached: Readonly<Record<string, boolean>>): string[] {
		return Object.keys(cached).filter((id) => cached[id] === true && this.mb(id) === null);
	}
}

/** A plain timestamp: no reactive Date is needed for a value that is only stored. */
function isoNow(): string {
	return new Date(Date.now()).toISOString();
}
