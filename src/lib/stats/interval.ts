/**
 * Confidence intervals: Wilson for a single proportion, a seeded percentile bootstrap for anything
 * else (κ, paired differences, clustered rates).
 */
import { mulberry32, mulberry32Ints, randomInt } from '../probe/random.ts';

/** A proportion k/n with its confidence interval. */
export interface Rate {
	k: number;
	n: number;
	/** k/n; NaN when n = 0. */
	p: number;
	lo: number;
	hi: number;
}

export interface Interval {
	estimate: number;
	lo: number;
	hi: number;
}

export interface BootstrapOptions {
	/** Same seed, same interval: reports and tests can be replayed exactly. */
	seed: number;
	/** Resamples; 2,000 keeps the 2.5% / 97.5% percentiles stable to about ±0.005 for rates. */
	reps?: number;
	/** Two-sided coverage, e.g. 0.95. */
	level?: number;
}

/** The normal quantile for a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;
export const DEFAULT_BOOTSTRAP_REPS = 2000;
export const DEFAULT_LEVEL = 0.95;

/**
 * Wilson score interval (Wilson 1927; recommended by Newcombe 1998 and Brown, Cai & DasGupta 2001
 * because it keeps its coverage near 0 and 1, where the follow-up rates of small models live).
 *
 * n = 0 gives p = NaN with the vacuous interval [0, 1]: nothing is known, and a chart can still
 * draw the band. Bounds are clamped to [0, 1] against rounding at k = 0 and k = n.
 * @throws RangeError unless k and n are integers with 0 ≤ k ≤ n.
 */
export function wilson(k: number, n: number, z = Z_95): Rate {
	if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || k > n) {
		throw new RangeError(`wilson needs integers 0 ≤ k ≤ n, got k=${k}, n=${n}.`);
	}
	if (n === 0) return { k, n, p: Number.NaN, lo: 0, hi: 1 };
	const p = k / n;
	const z2 = z * z;
	const denom = 1 + z2 / n;
	const center = (p + z2 / (2 * n)) / denom;
	const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
	return {
		k,
		n,
		p,
		lo: k === 0 ? 0 : Math.max(0, center - half),
		hi: k === n ? 1 : Math.min(1, center + half)
	};
}

/**
 * Seeded percentile bootstrap: resample `xs` with replacement `reps` times and take the
 * (1 − level)/2 and (1 + level)/2 quantiles of `stat`. To respect correlation, pass clusters as the
 * elements (e.g. one element per item holding all its samples), not the correlated units.
 *
 * `stat` is handed one scratch array reused across resamples: read it, do not keep it.
 * Resamples where `stat` is not finite (e.g. a ratio with an empty denominator) are dropped; if all
 * are, lo and hi are NaN. An empty `xs` gives NaN throughout.
 * @throws RangeError when reps < 1 or level is not in (0, 1).
 */
export function bootstrapCI<T>(
	xs: readonly T[],
	stat: (sample: T[]) => number,
	opts: BootstrapOptions
): Interval {
	const reps = opts.reps ?? DEFAULT_BOOTSTRAP_REPS;
	const level = opts.level ?? DEFAULT_LEVEL;
	if (!Number.isInteger(reps) || reps < 1) throw new RangeError(`reps must be ≥ 1, got ${reps}.`);
	if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}.`);
	if (xs.length === 0) return { estimate: Number.NaN, lo: Number.NaN, hi: Number.NaN };

	const rng = mulberry32(opts.seed);
	const sample = new Array<T>(xs.length);
	const stats: number[] = [];
	for (let r = 0; r < reps; r++) {
		for (let i = 0; i < xs.length; i++) sample[i] = xs[randomInt(rng, xs.length)];
		const value = stat(sample);
		if (Number.isFinite(value)) stats.push(value);
	}
	stats.sort((a, b) => a - b);
	const tail = (1 - level) / 2;
	return { estimate: stat(xs.slice()), lo: quantile(stats, tail), hi: quantile(stats, 1 - tail) };
}

/**
 * The cluster bootstrap of a ratio of sums (Σ sums / Σ counts over resampled clusters), as
 * bootstrapCI(clusters, ratioOfSums) computes it with the same draws, written out over typed arrays:
 * the paired effects run it with up to 10,000 resamples, and the generic loop's callback and scratch
 * array made that several times slower. Same conventions as bootstrapCI (NaN when empty, resamples
 * with a zero denominator dropped).
 * @throws RangeError when reps < 1 or level is not in (0, 1).
 */
export function ratioBootstrapCI(
	sums: readonly number[],
	counts: readonly number[],
	opts: BootstrapOptions
): Interval {
	const reps = opts.reps ?? DEFAULT_BOOTSTRAP_REPS;
	const level = opts.level ?? DEFAULT_LEVEL;
	if (!Number.isInteger(reps) || reps < 1) throw new RangeError(`reps must be ≥ 1, got ${reps}.`);
	if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}.`);
	const n = sums.length;
	if (n === 0) return { estimate: Number.NaN, lo: Number.NaN, hi: Number.NaN };
	const s = Float64Array.from(sums);
	const c = Float64Array.from(counts);
	const draw = mulberry32Ints(opts.seed);
	const picks = new Uint32Array(n);
	const stats = new Float64Array(reps);
	let kept = 0;
	for (let r = 0; r < reps; r++) {
		draw(picks, n);
		let num = 0;
		let den = 0;
		for (let i = 0; i < n; i++) {
			const k = picks[i];
			num += s[k];
			den += c[k];
		}
		if (den !== 0) stats[kept++] = num / den;
	}
	// A typed array sorts numerically, and faster than a comparator over a plain array.
	const sorted = stats.subarray(0, kept).sort();
	let num = 0;
	let den = 0;
	for (let i = 0; i < n; i++) {
		num += s[i];
		den += c[i];
	}
	const tail = (1 - level) / 2;
	return { estimate: num / den, lo: quantile(sorted, tail), hi: quantile(sorted, 1 - tail) };
}

/**
 * Linear-interpolation quantile of an ascending array (Hyndman & Fan type 7, the default in R and
 * NumPy). NaN for an empty array.
 */
export function quantile(sorted: ArrayLike<number>, q: number): number {
	if (sorted.length === 0) return Number.NaN;
	const h = (sorted.length - 1) * q;
	const below = Math.floor(h);
	const above = Math.min(below + 1, sorted.length - 1);
	return sorted[below] + (h - below) * (sorted[above] - sorted[below]);
}
