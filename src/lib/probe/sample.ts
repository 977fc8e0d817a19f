/**
 * Which items a run uses. Reproducible from (items, n, seed) alone: the run manifest stores the seed
 * and item ids, and a re-run or another machine draws the same items in the same order.
 */
import type { DatasetItem } from './types.ts';
import { hashSeed, sampleWithoutReplacement } from './random.ts';

/** Keeps item sampling independent of the other draws made from the same run seed. */
const SAMPLE_STREAM = 'dataset-sample';

/**
 * `n` distinct items in a seeded random order.
 *
 * - Same items, n and seed → same items in the same order, whatever order `items` came in (they
 *   are put in id order first, so a server returning rows reordered does not change the draw).
 * - Prefix property: for the same items and seed, the first n of a larger sample are exactly the
 *   sample of n (a partial Fisher–Yates shuffle from the front), so growing a run keeps its items.
 * - n larger than the dataset returns every item, shuffled.
 * @throws RangeError when n is not a non-negative integer.
 */
export function sampleItems(items: DatasetItem[], n: number, seed: number): DatasetItem[] {
	if (!Number.isInteger(n) || n < 0) {
		throw new RangeError(`Sample size must be a non-negative integer, got ${n}.`);
	}
	// Code-unit order, not localeCompare: the result must not depend on the user's locale.
	const canonical = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	const k = Math.min(n, canonical.length);
	return sampleWithoutReplacement(canonical, k, hashSeed(SAMPLE_STREAM, seed));
}
