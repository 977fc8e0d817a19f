/**
 * Seeded randomness for everything that must replay: per-user-turn seeds, dataset sampling,
 * annotation draws and bootstrap resampling.
 *
 * STABLE FOREVER: `hashSeed`, `mulberry32` and the shuffles below are part of the file format.
 * Every derived seed in every saved run depends on them, so changing a constant, the separator or
 * the draw order silently changes the results of a re-run. Add new functions instead.
 *
 * Everything is 32-bit integer arithmetic (`Math.imul`, `>>> 0`) on UTF-8 bytes, so Node, every
 * browser and a port to another language give the same numbers.
 */

/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** ASCII unit separator: keeps ("ab", "c") and ("a", "bc") apart. */
const PART_SEPARATOR = '\u001f';
const UINT32_RANGE = 0x1_0000_0000;

let encoder: TextEncoder | undefined;

/**
 * A uint32 seed from any mix of strings and numbers, e.g. `hashSeed(runSeed, itemId, temp, sample)`.
 * Numbers are formatted with `String()` (so `0.7` → "0.7", `1` and `1.0` are the same), joined with
 * a unit separator, hashed with 32-bit FNV-1a over UTF-8 and finished with murmur3's fmix32 so
 * nearby inputs give unrelated seeds.
 */
export function hashSeed(...parts: (string | number)[]): number {
	return fmix32(fnv1a32(parts.map(String).join(PART_SEPARATOR)));
}

/** 32-bit FNV-1a over the UTF-8 bytes of `text` (exported for its published test vectors). */
export function fnv1a32(text: string): number {
	encoder ??= new TextEncoder();
	let h = FNV_OFFSET_BASIS;
	for (const byte of encoder.encode(text)) {
		h ^= byte;
		h = Math.imul(h, FNV_PRIME);
	}
	return h >>> 0;
}

/** murmur3's finalizer: every input bit affects every output bit. */
export function fmix32(x: number): number {
	let h = x >>> 0;
	h ^= h >>> 16;
	h = Math.imul(h, 0x85ebca6b);
	h ^= h >>> 13;
	h = Math.imul(h, 0xc2b2ae35);
	h ^= h >>> 16;
	return h >>> 0;
}

/**
 * mulberry32: a tiny, fast 32-bit generator, plenty for sampling and bootstrap (not for crypto).
 * The seed is taken modulo 2^32, so pass integers.
 */
export function mulberry32(seed: number): Rng {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / UINT32_RANGE;
	};
}

/**
 * mulberry32's draws as integers in [0, n), a batch at a time: each call fills `out` with exactly the
 * numbers `randomInt(mulberry32(seed), n)` would give next, `out.length` of them. The generator is
 * written out inline (no call per draw), which makes a paired bootstrap's ~1 million draws 2–5×
 * faster; tests/unit/probe/random.test.ts holds the two sequences equal.
 */
export function mulberry32Ints(seed: number): (out: Uint32Array, n: number) => void {
	let state = seed >>> 0;
	return (out, n) => {
		for (let i = 0; i < out.length; i++) {
			state = (state + 0x6d2b79f5) >>> 0;
			let t = state;
			t = Math.imul(t ^ (t >>> 15), t | 1);
			t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
			out[i] = Math.floor((((t ^ (t >>> 14)) >>> 0) / UINT32_RANGE) * n);
		}
	};
}

/** A uniform integer in [0, n). */
export function randomInt(rng: Rng, n: number): number {
	return Math.floor(rng() * n);
}

/**
 * A shuffled copy (Fisher–Yates from the front); the input is not touched.
 * The first k elements equal `sampleWithoutReplacement(xs, k, seed)`.
 */
export function seededShuffle<T>(xs: readonly T[], seed: number): T[] {
	return partialShuffle(xs, xs.length, mulberry32(seed));
}

/**
 * k distinct elements in random order. A prefix of the full shuffle with the same seed, so growing k
 * keeps the earlier draws: a sample of 100 items contains the sample of 50.
 * @throws RangeError when k is not an integer in [0, xs.length].
 */
export function sampleWithoutReplacement<T>(xs: readonly T[], k: number, seed: number): T[] {
	if (!Number.isInteger(k) || k < 0 || k > xs.length) {
		throw new RangeError(`Cannot draw ${k} of ${xs.length} elements.`);
	}
	return partialShuffle(xs, k, mulberry32(seed));
}

function partialShuffle<T>(xs: readonly T[], k: number, rng: Rng): T[] {
	const out = xs.slice();
	for (let i = 0; i < k; i++) {
		const j = i + randomInt(rng, out.length - i);
		const tmp = out[i];
		out[i] = out[j];
		out[j] = tmp;
	}
	out.length = k;
	return out;
}

/**
 * Up to `perStratum` elements from each stratum (e.g. each label × condition), for annotation draws
 * that must not be swamped by the majority label. Strata are visited in sorted key order and each
 * gets its own seed from `hashSeed(seed, key)`, so adding a stratum does not reshuffle the others.
 * Returns the draws grouped by stratum, in that order.
 * @throws RangeError when perStratum is not a non-negative integer.
 */
export function stratifiedSample<T>(
	xs: readonly T[],
	stratum: (x: T) => string,
	perStratum: number,
	seed: number
): T[] {
	if (!Number.isInteger(perStratum) || perStratum < 0) {
		throw new RangeError(`perStratum must be a non-negative integer, got ${perStratum}.`);
	}
	const groups = new Map<string, T[]>();
	for (const x of xs) {
		const key = stratum(x);
		const group = groups.get(key);
		if (group) group.push(x);
		else groups.set(key, [x]);
	}
	const out: T[] = [];
	for (const key of [...groups.keys()].sort()) {
		const group = groups.get(key) ?? [];
		const k = Math.min(perStratum, group.length);
		out.push(...sampleWithoutReplacement(group, k, hashSeed(seed, key)));
	}
	return out;
}
