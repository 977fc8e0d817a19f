/** Order statistics for timing samples. */

/**
 * The q-quantile (0..1) by the nearest-rank method: always a value that was actually measured.
 * @throws RangeError on an empty sample or q outside [0, 1].
 */
export function quantile(values: readonly number[], q: number): number {
	if (values.length === 0) throw new RangeError('quantile of an empty sample');
	if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile ${q} is outside [0, 1]`);
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil(q * sorted.length));
	return sorted[rank - 1];
}

export function median(values: readonly number[]): number {
	return quantile(values, 0.5);
}

/** Rounded for reports: three decimals below 1, two below 100, one above. */
export function round(x: number): number {
	const digits = Math.abs(x) < 1 ? 3 : Math.abs(x) < 100 ? 2 : 1;
	const f = 10 ** digits;
	return Math.round(x * f) / f;
}
