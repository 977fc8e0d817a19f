/**
 * A set of string keys in a fixed number of bytes per key, exactly: what resume and `summarize`
 * hold for a run of a million records instead of a Map of a million strings (about 380 bytes a key
 * as a Map entry with its string; 16–24 bytes here).
 *
 * A record's key is `item|temperature|perturbation|sample` (plan.ts `recordKey`, with the run id in
 * front where a table holds several runs): a million keys are a few thousand items times a few
 * dozen conditions. So each key is cut in two, its head (up to the third `|` from the end) and its
 * tail, and each part is interned once as a small code; a key is held as its two codes, and two
 * keys are the same exactly when both codes are. No hash stands in for a key, so no two keys can
 * be mistaken for each other; the hash of the two codes only picks where the search starts.
 * The interned strings grow with the distinct items, which the dataset itself holds anyway.
 *
 * Each key gets a dense index, 0, 1, 2… in the order keys were first added, for the caller's own
 * per-key arrays.
 */

const INITIAL_KEYS = 1024;
const INITIAL_PARTS = 64;
/** `|`s a record key has after its item id: temperature, perturbation, sample. */
const TAIL_FIELDS = 3;

/** Where the search for a (head, tail) pair of codes starts: any 32-bit mix spreads them. */
export type CodeHash = (head: number, tail: number) => number;

/** The default CodeHash: murmur3's finalizer over both codes. */
export const mixCodes: CodeHash = (head, tail) => {
	let x = Math.imul(head, 0x9e3779b1) ^ tail;
	x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
	x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
	return (x ^ (x >>> 16)) >>> 0;
};

const PIPE = 0x7c;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * One backward pass over `key`: where it is cut (before its third `|` from the end, or at its end
 * when it has fewer) and each part's hash (FNV-1a, read backwards), left in `cutAt`, `headHash`
 * and `tailHash` (unsigned, mixed) for the caller to read at once: a million keys make no tuple and
 * no substring.
 */
let cutAt = 0;
let headHash = 0;
let tailHash = 0;
function split(key: string): void {
	let h = FNV_OFFSET;
	let bars = 0;
	for (let i = key.length - 1; i >= 0; i--) {
		const ch = key.charCodeAt(i);
		h = Math.imul(h ^ ch, FNV_PRIME);
		if (ch === PIPE && ++bars === TAIL_FIELDS) {
			cutAt = i;
			tailHash = mixCodes(h, 0);
			h = FNV_OFFSET;
			for (let j = i - 1; j >= 0; j--) h = Math.imul(h ^ key.charCodeAt(j), FNV_PRIME);
			headHash = mixCodes(h, 0);
			return;
		}
	}
	cutAt = key.length;
	headHash = mixCodes(h, 0);
	tailHash = mixCodes(FNV_OFFSET, 0);
}

/**
 * Distinct strings, each given the next code, found by a part of a key without slicing it out:
 * a million lookups make no string (a slice and a Map lookup per part cost twice the time).
 */
class Interned {
	#strings: string[] = [];
	#hashes = new Uint32Array(INITIAL_PARTS);
	/** Open addressing: 1 + a string's code, 0 for an empty cell; at most half full. */
	#cells = new Int32Array(INITIAL_PARTS * 2);

	/** The code of `key.slice(from, to)` (whose hash is `hash`), given it when new. */
	code(key: string, from: number, to: number, hash: number): number {
		const cell = this.#find(key, from, to, hash);
		if (this.#cells[cell] !== 0) return this.#cells[cell] - 1;
		const code = this.#strings.length;
		this.#strings.push(key.slice(from, to));
		if (code === this.#hashes.length) this.#hashes = grown(this.#hashes);
		this.#hashes[code] = hash;
		if (this.#strings.length * 2 > this.#cells.length) this.#rehash();
		else this.#cells[cell] = code + 1;
		return code;
	}

	/** The code of `key.slice(from, to)`, or -1 when it was never given one (nothing is added). */
	find(key: string, from: number, to: number, hash: number): number {
		return this.#cells[this.#find(key, from, to, hash)] - 1;
	}

	#find(key: string, from: number, to: number, hash: number): number {
		const mask = this.#cells.length - 1;
		for (let cell = hash & mask; ; cell = (cell + 1) & mask) {
			const at = this.#cells[cell];
			if (at === 0) return cell;
			const s = this.#strings[at - 1];
			if (this.#hashes[at - 1] === hash && s.length === to - from && key.startsWith(s, from))
				return cell;
		}
	}

	#rehash(): void {
		this.#cells = new Int32Array(this.#cells.length * 2);
		const mask = this.#cells.length - 1;
		for (let code = 0; code < this.#strings.length; code++) {
			let cell = this.#hashes[code] & mask;
			while (this.#cells[cell] !== 0) cell = (cell + 1) & mask;
			this.#cells[cell] = code + 1;
		}
	}
}

export class KeyTable {
	readonly #heads = new Interned();
	readonly #tails = new Interned();
	readonly #hash: CodeHash;
	#head = new Uint32Array(INITIAL_KEYS);
	#tail = new Uint32Array(INITIAL_KEYS);
	/** Open addressing: 1 + a key's index, 0 for an empty cell; at most half full. */
	#cells = new Int32Array(INITIAL_KEYS * 2);
	#size = 0;

	/** `hash`: where a key's search starts (tests pass one that sends every key to one cell). */
	constructor(hash: CodeHash = mixCodes) {
		this.#hash = hash;
	}

	/** Keys added. */
	get size(): number {
		return this.#size;
	}

	/** The key's index, or -1 when it was never added. */
	indexOf(key: string): number {
		split(key);
		const head = this.#heads.find(key, 0, cutAt, headHash);
		const tail = this.#tails.find(key, cutAt, key.length, tailHash);
		if (head === -1 || tail === -1) return -1;
		return this.#cells[this.#find(head, tail)] - 1;
	}

	has(key: string): boolean {
		return this.indexOf(key) !== -1;
	}

	/** The key's index: its existing one, or the next (`size` before the call) when it is new. */
	add(key: string): number {
		split(key);
		const head = this.#heads.code(key, 0, cutAt, headHash);
		const tail = this.#tails.code(key, cutAt, key.length, tailHash);
		let cell = this.#find(head, tail);
		if (this.#cells[cell] !== 0) return this.#cells[cell] - 1;
		const index = this.#size++;
		if (index === this.#head.length) {
			this.#head = grown(this.#head);
			this.#tail = grown(this.#tail);
		}
		this.#head[index] = head;
		this.#tail[index] = tail;
		if (this.#size * 2 > this.#cells.length) {
			this.#rehash();
			cell = this.#find(head, tail);
		}
		this.#cells[cell] = index + 1;
		return index;
	}

	/** The cell holding (head, tail), or the empty cell where it would go. */
	#find(head: number, tail: number): number {
		const mask = this.#cells.length - 1;
		for (let cell = this.#hash(head, tail) & mask; ; cell = (cell + 1) & mask) {
			const at = this.#cells[cell];
			if (at === 0 || (this.#head[at - 1] === head && this.#tail[at - 1] === tail)) return cell;
		}
	}

	#rehash(): void {
		this.#cells = new Int32Array(this.#cells.length * 2);
		const mask = this.#cells.length - 1;
		for (let index = 0; index < this.#size; index++) {
			let cell = this.#hash(this.#head[index], this.#tail[index]) & mask;
			while (this.#cells[cell] !== 0) cell = (cell + 1) & mask;
			this.#cells[cell] = index + 1;
		}
	}
}

/** A copy twice as long (the caller's per-key arrays grow the same way). */
export function grown<T extends Uint32Array | Uint8Array | Float64Array>(a: T): T {
	const b = new (a.constructor as new (n: number) => T)(a.length * 2);
	b.set(a);
	return b;
}
