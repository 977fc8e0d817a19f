/**
 * Agreement between two labelers (judge vs. human, rules vs. judge, two judges): Cohen's κ with a
 * seeded bootstrap interval, the confusion matrix and per-label precision / recall.
 */
import { bootstrapCI } from './interval.ts';

export interface Agreement {
	n: number;
	/** Cohen's κ = (po − pe) / (1 − pe); NaN for empty input. */
	kappa: number;
	/** Observed agreement. */
	po: number;
	/** Agreement expected by chance from the two marginals. */
	pe: number;
	/** Bootstrap percentile interval of κ over items. */
	lo: number;
	hi: number;
	categories: string[];
	/** matrix[i][j]: items a labeled categories[i] and b labeled categories[j]. */
	matrix: number[][];
	/**
	 * a is the reference: precision = of b's calls of a label, the share a agrees with; recall = of
	 * a's items of a label, the share b found; support = a's count. 0/0 gives NaN.
	 */
	per_label: { label: string; precision: number; recall: number; support: number }[];
}

export interface KappaOptions {
	/**
	 * Row/column order and the full label set (labels nobody used still get a row).
	 * Default: the labels seen, sorted.
	 */
	categories?: string[];
	seed?: number;
	reps?: number;
}

export const DEFAULT_KAPPA_SEED = 0;
export const DEFAULT_KAPPA_REPS = 1000;

/**
 * Rows are a, columns are b.
 * @throws RangeError when the lengths differ or a label is not in `categories`.
 */
export function confusionMatrix(
	a: readonly string[],
	b: readonly string[],
	categories: readonly string[]
): number[][] {
	const { ia, ib } = indexPairs(a, b, categories);
	return countMatrix(ia, ib, categories.length);
}

function countMatrix(ia: readonly number[], ib: readonly number[], k: number): number[][] {
	const matrix = Array.from({ length: k }, () => new Array<number>(k).fill(0));
	for (let i = 0; i < ia.length; i++) matrix[ia[i]][ib[i]]++;
	return matrix;
}

/**
 * Cohen's κ for two labelings of the same items, in the same order.
 *
 * When both labelers used one and the same category for every item, pe = 1 and κ is 0/0; we
 * return κ = 1 because they agree on every item (po = 1), which is what a reader expects from
 * "perfect agreement". Empty input gives NaN for κ, po, pe and the interval.
 * @throws RangeError when the lengths differ or a label is not in `opts.categories`.
 */
export function cohenKappa(
	a: readonly string[],
	b: readonly string[],
	opts: KappaOptions = {}
): Agreement {
	const categories = opts.categories ?? [...new Set([...a, ...b])].sort();
	const { ia, ib } = indexPairs(a, b, categories);
	const k = categories.length;
	const matrix = countMatrix(ia, ib, k);
	const point = kappaOf(matrix);

	const items = Array.from(ia, (row, i) => row * k + ib[i]);
	const scratch = categories.map(() => new Array<number>(k).fill(0));
	const ci = bootstrapCI(
		items,
		(sample) => {
			for (const row of scratch) row.fill(0);
			for (const cell of sample) scratch[Math.floor(cell / k)][cell % k]++;
			return kappaOf(scratch).kappa;
		},
		{ seed: opts.seed ?? DEFAULT_KAPPA_SEED, reps: opts.reps ?? DEFAULT_KAPPA_REPS }
	);

	return {
		n: ia.length,
		...point,
		lo: ci.lo,
		hi: ci.hi,
		categories: [...categories],
		matrix,
		per_label: perLabel(matrix, categories)
	};
}

function indexPairs(a: readonly string[], b: readonly string[], categories: readonly string[]) {
	if (a.length !== b.length) {
		throw new RangeError(`Labelings differ in length: ${a.length} vs ${b.length}.`);
	}
	const index = new Map(categories.map((c, i) => [c, i]));
	const lookup = (label: string) => {
		const i = index.get(label);
		if (i === undefined) throw new RangeError(`Label "${label}" is not among the categories.`);
		return i;
	};
	return { ia: a.map(lookup), ib: b.map(lookup) };
}

/**
 * κ, po and pe from a square count matrix (rows a, columns b), with cohenKappa's conventions
 * (pe = 1 gives κ = 1; an empty matrix NaN). Integer sums keep pe exact for the pe = 1 case.
 * For callers that resample their own way (the judge modes pool several humans per item).
 */
export function kappaOf(matrix: number[][]): { kappa: number; po: number; pe: number } {
	const k = matrix.length;
	let n = 0;
	let diagonal = 0;
	let chance = 0;
	const cols = new Array<number>(k).fill(0);
	const rows = new Array<number>(k).fill(0);
	for (let i = 0; i < k; i++) {
		for (let j = 0; j < k; j++) {
			rows[i] += matrix[i][j];
			cols[j] += matrix[i][j];
		}
		n += rows[i];
		diagonal += matrix[i][i];
	}
	if (n === 0) return { kappa: Number.NaN, po: Number.NaN, pe: Number.NaN };
	for (let i = 0; i < k; i++) chance += rows[i] * cols[i];
	const po = diagonal / n;
	const pe = chance / (n * n);
	// pe = 1 forces po = 1 (both labelers used a single shared category): call it perfect.
	const kappa = pe === 1 ? 1 : (po - pe) / (1 - pe);
	return { kappa, po, pe };
}

function perLabel(matrix: number[][], categories: readonly string[]): Agreement['per_label'] {
	return categories.map((label, i) => {
		const support = matrix[i].reduce((s, x) => s + x, 0);
		const predicted = matrix.reduce((s, row) => s + row[i], 0);
		return {
			label,
			precision: matrix[i][i] / predicted,
			recall: matrix[i][i] / support,
			support
		};
	});
}
