/**
 * Where the latest line of each record (or answer) is in its file, per run: what the CLI's store
 * keeps in memory instead of the records. It holds one entry per record of a run of any size, so
 * every entry is a fixed number of bytes (about 45, a million records in ~45 MB): the key as its
 * two interned codes in a KeyTable (exact), the offsets, label and run in typed arrays; no string
 * per record.
 */
import { grown, KeyTable } from '../lib/probe/keyTable.ts';
import { LABELS, type Label } from '../lib/probe/types.ts';

export interface IndexEntry {
	label: Label | null;
	/** Byte offsets of the line: [start, end), without its "\n". */
	start: number;
	end: number;
}

const INITIAL_SLOTS = 1024;
const LABEL_CODE = new Map<Label, number>(LABELS.map((l, i) => [l, i + 1]));

export class LineIndex {
	readonly #keys = new KeyTable();
	readonly #runs = new Map<string, number>();
	#start = new Float64Array(INITIAL_SLOTS);
	#end = new Float64Array(INITIAL_SLOTS);
	/** 0: no label yet; otherwise 1 + the label's place in LABELS. */
	#label = new Uint8Array(INITIAL_SLOTS);
	/** The entry's run, as its place in #runs. */
	#run = new Uint32Array(INITIAL_SLOTS);

	/** Entries, over every run. */
	get size(): number {
		return this.#keys.size;
	}

	/** Point `key` of `runId` at a line; true when it replaced an earlier line of the same key. */
	set(runId: string, key: string, label: Label | null, start: number, end: number): boolean {
		const before = this.#keys.size;
		const slot = this.#keys.add(slotKey(runId, key));
		const replaced = slot < before;
		if (!replaced) {
			if (slot === this.#start.length) this.#grow();
			let run = this.#runs.get(runId);
			if (run === undefined) this.#runs.set(runId, (run = this.#runs.size));
			this.#run[slot] = run;
		}
		this.#start[slot] = start;
		this.#end[slot] = end;
		this.#label[slot] = label === null ? 0 : (LABEL_CODE.get(label) ?? 0);
		return replaced;
	}

	get(runId: string, key: string): IndexEntry | undefined {
		const slot = this.#keys.indexOf(slotKey(runId, key));
		return slot === -1 ? undefined : this.#entry(slot);
	}

	/** The run's entries, in the order their keys were first stored. */
	*entries(runId: string): Iterable<IndexEntry> {
		const run = this.#runs.get(runId);
		if (run === undefined) return;
		for (let slot = 0; slot < this.size; slot++)
			if (this.#run[slot] === run) yield this.#entry(slot);
	}

	/** Every entry's line start, ascending: the lines a rewrite keeps, in the file's order. */
	sortedStarts(): Float64Array {
		return this.#start.slice(0, this.size).sort();
	}

	/** After a rewrite moved the line at `from[i]` (ascending) to `to[i]`: point every entry there. */
	relocate(from: Float64Array, to: Float64Array): void {
		for (let slot = 0; slot < this.size; slot++) {
			const i = binarySearch(from, this.#start[slot]);
			if (i === -1) continue;
			this.#end[slot] = to[i] + (this.#end[slot] - this.#start[slot]);
			this.#start[slot] = to[i];
		}
	}

	#entry(slot: number): IndexEntry {
		const code = this.#label[slot];
		return {
			label: code === 0 ? null : LABELS[code - 1],
			start: this.#start[slot],
			end: this.#end[slot]
		};
	}

	#grow(): void {
		this.#start = grown(this.#start);
		this.#end = grown(this.#end);
		this.#label = grown(this.#label);
		this.#run = grown(this.#run);
	}
}

/** Run and key in one string (a NUL is in neither). */
const slotKey = (runId: string, key: string) => `${runId}\u0000${key}`;

function binarySearch(sorted: Float64Array, value: number): number {
	let lo = 0;
	let hi = sorted.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >>> 1;
		if (sorted[mid] < value) lo = mid + 1;
		else if (sorted[mid] > value) hi = mid - 1;
		else return mid;
	}
	return -1;
}
