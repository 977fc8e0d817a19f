/**
 * The p-values beside the paired effects: an exact paired sign-flip (permutation) test over items,
 * and Holm's step-down adjustment over the comparisons shown together.
 *
 * The test reads what the paired bootstrap reads (clustered.ts pairedDifference): per item, the sum
 * over its pairs of (b − a), each pair's outcome 0 or 1. Under the null hypothesis that the two
 * conditions are exchangeable within an item, each item's sum is as likely to have either sign, so
 * the exact distribution of the total is that of Σ ±sᵢ over the 2ⁿ sign choices. With one sample
 * per item the sums are −1, 0 or +1 and the test is McNemar's exact test on the discordant pairs
 * (a binomial test with p = ½); with several samples it keeps them together, as the bootstrap does.
 */

/**
 * Two-sided exact p-value P(|Σ ±sᵢ| ≥ |Σ sᵢ|) for integer per-item sums, by counting over the
 * distribution of the signed total (dynamic programming over the attainable totals, O(n · Σ|sᵢ|)).
 * No item with a non-zero sum (no discordant pair) gives 1; no items at all gives NaN.
 * @throws RangeError when a sum is not an integer.
 */
export function signFlipP(sums: readonly number[]): number {
	if (sums.length === 0) return Number.NaN;
	const magnitudes: number[] = [];
	let observed = 0;
	for (const s of sums) {
		if (!Number.isInteger(s)) throw new RangeError(`signFlipP needs integer sums, got ${s}.`);
		observed += s;
		if (s !== 0) magnitudes.push(Math.abs(s));
	}
	const total = magnitudes.reduce((a, b) => a + b, 0);
	if (total === 0) return 1;
	// dist[t + total] = P(signed total = t); each item adds ±|s| with probability ½.
	let dist = new Float64Array(2 * total + 1);
	dist[total] = 1;
	let reach = 0;
	for (const m of magnitudes) {
		const next = new Float64Array(dist.length);
		for (let t = total - reach; t <= total + reach; t++) {
			const p = dist[t];
			if (p === 0) continue;
			next[t - m] += p / 2;
			next[t + m] += p / 2;
		}
		dist = next;
		reach += m;
	}
	const bound = Math.abs(observed);
	let p = 0;
	for (let t = -total; t <= total; t++) if (Math.abs(t) >= bound) p += dist[t + total];
	return Math.min(1, p);
}

/**
 * McNemar's exact test: `b` pairs that went one way, `c` the other (the discordant pairs).
 * Equal to signFlipP over b sums of +1 and c of −1; written out for the documentation and tests.
 */
export function mcnemarExactP(b: number, c: number): number {
	const n = b + c;
	if (n === 0) return 1;
	const k = Math.min(b, c);
	// 2 · P(X ≤ k), X ~ Binomial(n, ½), summed in log space so large n does not underflow.
	let logC = 0;
	let tail = 0;
	for (let i = 0; i <= k; i++) {
		if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
		tail += Math.exp(logC - n * Math.LN2);
	}
	return Math.min(1, 2 * tail);
}

/**
 * Holm's step-down adjustment (Holm 1979): the i-th smallest of m p-values times (m − i + 1),
 * kept monotone and at most 1. Controls the family-wise error rate without assuming independence.
 * NaN p-values (comparisons without pairs) are not in the family and stay NaN. Same order out as in.
 */
export function holm(ps: readonly number[]): number[] {
	const order = ps
		.map((p, i) => ({ p, i }))
		.filter((x) => Number.isFinite(x.p))
		.sort((a, b) => a.p - b.p);
	const m = order.length;
	const out = ps.map(() => Number.NaN);
	let running = 0;
	order.forEach(({ p, i }, rank) => {
		running = Math.max(running, Math.min(1, (m - rank) * p));
		out[i] = running;
	});
	return out;
}
