/**
 * Where the latest line of each record (or answer) is in its file, per run: what the CLI's store
 * keeps in memory instead of the records. Kept small because it holds one entry per record of a
 * run of any size: a key string and a slot number per entry, the run id once per run, and the
 * offsets and label in typed arrays (about 100 bytes a record, against ~500 as objects).
 */
import { LABELS, type Label } from '../lib/probe/types.ts';

export interface IndexEntry {
	key: string;
	label: Label | null;
	/** Byte offsets of the line: [start, end), without its "\n". */
	start: number;
	end: number;
}

const INITIAL_SLOTS = 1024;
const LABEL_CODE = new Map<Label, number>(LABELS.map((l, i) => [l, i + 1]));

export class LineIndex {
	readonly #runs = new Map<string, Map<string, number>>();
	#start = new Float64Array(INITIAL_SLOTS);
	#end = new Float64Array(INITIAL_SLOTS);
	/** 0: no label yet; otherwise 1 + the label's place in LABELS. */
	#label = new Uint8Array(INITIAL_SLOTS);
	#slots = 0;

	/** Entries, over every run. */
	get size(): number {
		return this.#slots;
	}

	/** Point `key` of `runId` at a line; true when it replaced an earlier line of the same key. */
	set(runId: string, key: string, label: Label | null, start: number, end: number): boolean {
		let keys = this.#runs.get(runId);
		if (!keys) this.#runs.set(runId, (keys = new Map()));
		let slot = keys.get(key);
		const replaced = slot !== undefined;
		if (slot === undefined) {
			slot = this.#slots++;
			if (slot === this.#start.length) this.#grow();
			keys.set(key, slot);
		}
		this.#start[slot] = start;
		this.#end[slot] = end;
		this.#label[slot] = label === null ? 0 : (LABEL_CODE.get(label) ?? 0);
		return replaced;
	}

	get(runId: string, key: string): IndexEntry | undefined {
		const slot = this.#runs.get(runId)?.get(key);
		return slot === undefined ? undefined : this.#entry(key, slot);
	}

	/** The run's entries, in the order their keys were first stored. */
	*entries(runId: string): Iterable<IndexEntry> {
		const keys = this.#runs.get(runId);
		if (keys) for (const [key, slot] of keys) yield this.#entry(key, slot);
	}

	/** Every entry's line start, to tell a latest line from one a later line replaced. */
	starts(): Set<number> {
		return new Set(this.#start.subarray(0, this.#slots));
	}

	/** Move every line to where `moved` says it now starts (after the file was rewritten). */
	relocate(moved: ReadonlyMap<number, number>): void {
		for (let slot = 0; slot < this.#slots; slot++) {
			const to = moved.get(this.#start[slot]);
			if (to === undefined) continue;
			this.#end[slot] = to + (this.#end[slot] - this.#start[slot]);
			this.#start[slot] = to;
		}
	}

	#entry(key: string, slot: number): IndexEntry {
		const code = this.#label[slot];
		return {
			key,
			label: code === 0 ? null : LABELS[code - 1],
			start: this.#start[slot],
			end: this.#end[slot]
		};
	}

	#grow(): void {
		const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
			const b = make(a.length * 2);
			b.set(a);
			return b;
		};
		this.#start = grow(this.#start, (n) => new Float64Array(n));
		this.#end = grow(this.#end, (n) => new Float64Array(n));
		this.#label = grow(this.#label, (n) => new Uint8Array(n));
	}
}
