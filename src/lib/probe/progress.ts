/** What a run has made so far, and the `progress` and `done` counts the pipeline reports from it. */
import type { ProbeEventOf } from './events.ts';

type Progress = ProbeEventOf<'progress'>;

export class RunTally {
	/**
	 * Each key stored, and whether it has had a label: one map (a resumed run holds one entry per
	 * stored record), so re-stores don't double.
	 */
	readonly #stored = new Map<string, boolean>();
	#labeled = 0;
	#unitsThisSession = 0;
	#tokens = 0;
	#total = 0;
	#phased = false;

	/** The plan's size, and what earlier sessions stored (resume). */
	begin(
		total: number,
		phased: boolean,
		existing: readonly { key: string; label: unknown }[]
	): void {
		this.#total = total;
		this.#phased = phased;
		for (const r of existing) this.stored(r, false);
	}

	/** `unit`: the store finishes a unit of work (false for a pending copy stored before judging). */
	stored(record: { key: string; label: unknown }, unit: boolean): void {
		const had = this.#stored.get(record.key) ?? false;
		const has = had || record.label !== null;
		this.#stored.set(record.key, has);
		if (has && !had) this.#labeled++;
		if (unit) this.#unitsThisSession++;
	}

	addTokens(n: number): void {
		this.#tokens += n;
	}

	/** Records with a label. */
	get done(): number {
		return this.#labeled;
	}

	progress(elapsed: number): Progress {
		const done = this.#labeled;
		const generated = this.#stored.size;
		// Each record is two units of work when judging waits for its own phase, one otherwise.
		const remaining = this.#total - done + (this.#phased ? this.#total - generated : 0);
		const rate = this.#unitsThisSession / Math.max(elapsed, 1);
		return {
			type: 'progress',
			done,
			generated,
			total: this.#total,
			elapsed_ms: elapsed,
			eta_ms: this.#unitsThisSession > 0 ? Math.max(0, remaining) / rate : null,
			decode_tps: elapsed > 0 && this.#tokens > 0 ? (this.#tokens / elapsed) * 1000 : null
		};
	}
}
