/**
 * A set of string keys in a fixed number of bytes per key, whatever the keys' length: what resume
 * and `summarize` hold for a run of a million records instead of a Map of a million strings (about
 * 380 bytes a key as a Map entry with its string; 16–32 bytes here).
 *
 * Each key is kept as its 64-bit hash (two 32-bit halves, in typed arrays) and gets a dense index,
 * 0, 1, 2… in the order keys were first added, for the caller's own per-key arrays. Two different
 * keys share a hash with probability about n² / 2⁶⁵: below 3 × 10⁻⁸ for a million keys, the
 * price of not keeping the strings.
 */

const INITIAL_KEYS = 1024;

/** The 64-bit hash of `key` as two uint32 halves (cyrb53's mixing, both halves kept). */
export function hash64(key: string): [number, number] {
	let h1 = 0xdeadbeef;
	let h2 = 0x41c6ce57;
	for (let i = 0; i < key.length; i++) {
		const ch = key.charCodeAt(i);
		h1 = Math.imul(h1 ^ ch, 2654435761);
		h2 = Math.imul(h2 ^ ch, 1597334677);
	}
	h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
	h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
	h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
	h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
	return [h1 >>> 0, h2 >>> 0];
}

export class KeyTable {
	#hi = new Uint32Array(INITIAL_KEYS);
	#lo = new Uint32Array(INITIAL_KEYS);
	/** Open addressing: 1 + a key's index, 0 for an empty cell; at most half full. */
	#cells = new Int32Array(INITIAL_KEYS * 2);
	#size = 0;

	/** Keys added. */
	get size(): number {
		return this.#size;
	}

	/** The key's index, or -1 when it was never added. */
	indexOf(key: string): number {
		const [hi, lo] = hash64(key);
		const cell = this.#find(hi, lo);
		return this.#cells[cell] - 1;
	}

	has(key: string): boolean {
		return this.indexOf(key) !== -1;
	}

	/** The key's index: its existing one, or the next (`size` before the call) when it is new. */
	add(key: string): number {
		const [hi, lo] = hash64(key);
		let cell = this.#find(hi, lo);
		if (this.#cells[cell] !== 0) return this.#cells[cell] - 1;
		const index = this.#size++;
		if (index === this.#hi.length) {
			this.#hi = grown(this.#hi);
			this.#lo = grown(this.#lo);
		}
		this.#hi[index] = hi;
		this.#lo[index] = lo;
		if (this.#size * 2 > this.#cells.length) {
			this.#rehash();
			cell = this.#find(hi, lo);
		}
		this.#cells[cell] = index + 1;
		return index;
	}

	/** The cell holding (hi, lo), or the empty cell where it would go. */
	#find(hi: number, lo: number): number {
		const mask = this.#cells.length - 1;
		for (let cell = lo & mask; ; cell = (cell + 1) & mask) {
			const at = this.#cells[cell];
			if (at === 0 || (this.#hi[at - 1] === hi && this.#lo[at - 1] === lo)) return cell;
		}
	}

	#rehash(): void {
		this.#cells = new Int32Array(this.#cells.length * 2);
		const mask = this.#cells.length - 1;
		for (let index = 0; index < this.#size; index++) {
			let cell = this.#lo[index] & mask;
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
