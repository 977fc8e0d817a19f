/** What a run has made so far, and the `progress` and `done` counts the pipeline reports from it. */
import type { ProbeEventOf } from './events.ts';
import { grown, KeyTable } from './keyTable.ts';

type Progress = ProbeEventOf<'progress'>;

export class RunTally {
	/**
	 * Each key stored this session, and whether it has had a label, so re-stores don't double: a
	 * KeyTable and a byte per key, as a run of a million records stores a million keys.
	 */
	readonly #keys = new KeyTable();
	#hasLabel = new Uint8Array(1024);
	#labeled = 0;
	#generated = 0;
	#unitsThisSession = 0;
	#tokens = 0;
	#total = 0;
	#phased = false;

	/**
	 * The plan's size, and what earlier sessions stored of it (resume): `labeled` records, and the
	 * records `waiting` for the judge, which this session stores again (those already labelled are
	 * among `labeled`).
	 */
	begin(
		total: number,
		phased: boolean,
		before: { labeled: number; waiting: readonly { key: string; label: unknown }[] }
	): void {
		this.#total = total;
		this.#phased = phased;
		this.#labeled = this.#generated = before.labeled;
		for (const r of before.waiting) {
			// A labelled one (it awaits its reference comparison) is among `labeled` already.
			if (this.#remember(r.key, r.label !== null).isNew && r.label === null) this.#generated++;
		}
	}

	/** `unit`: the store finishes a unit of work (false for a pending copy stored before judging). */
	stored(record: { key: string; label: unknown }, unit: boolean): void {
		const { isNew, had } = this.#remember(record.key, record.label !== null);
		if (isNew) this.#generated++;
		if (!had && record.label !== null) this.#labeled++;
		if (unit) this.#unitsThisSession++;
	}

	/** Note `key` as stored, labelled if it is now or was before; whether it is new, had a label. */
	#remember(key: string, labeled: boolean): { isNew: boolean; had: boolean } {
		const before = this.#keys.size;
		const index = this.#keys.add(key);
		if (index === this.#hasLabel.length) this.#hasLabel = grown(this.#hasLabel);
		const isNew = index === before;
		const had = !isNew && this.#hasLabel[index] === 1;
		if (labeled) this.#hasLabel[index] = 1;
		return { isNew, had };
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
		const generated = this.#generated;
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
