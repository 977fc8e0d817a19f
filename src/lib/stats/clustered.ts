/**
 * Intervals that respect the items: the samples of one item share a prompt and an answer, so a
 * condition's follow-up rate is resampled by item (a cluster bootstrap), and two conditions are
 * compared pair by pair, (item, sample) in both, with the same clusters. Counting follows
 * aggregate.ts (followupValue), so each estimate equals the pooled rate it sits beside.
 */
import { ratioBootstrapCI, bootstrapCI, DEFAULT_BOOTSTRAP_REPS } from './interval.ts';
import type { Interval } from './interval.ts';
import { signFlipP } from './pairedTest.ts';
import { followupValue, type Condition, type CountedRecord } from './aggregate.ts';

const NONE: ReadonlySet<string> = new Set();

function isCondition(r: Condition, c: Condition): boolean {
	return r.temperature === c.temperature && r.perturbation === c.perturbation;
}

/** Per item: how many labeled records and how many follow-ups (the bootstrap's cluster). */
interface Cluster {
	sum: number;
	count: number;
}

function ratioOfSums(clusters: readonly Cluster[]): number {
	let sum = 0;
	let count = 0;
	for (const c of clusters) {
		sum += c.sum;
		count += c.count;
	}
	return sum / count;
}

/**
 * The follow-up rate of one condition with a cluster-bootstrap interval over items: samples of
 * one item share a prompt and an answer, so they are resampled together. Estimate equals the
 * pooled rate of `summarize`.
 */
export function followupClusterCI(
	records: Iterable<CountedRecord>,
	condition: Condition,
	opts: { seed: number; reps?: number; unprobed?: ReadonlySet<string> }
): Interval & { n_items: number } {
	const unprobed = opts.unprobed ?? NONE;
	const clusters = new Map<string, Cluster>();
	for (const r of records) {
		if (!isCondition(r, condition)) continue;
		const value = followupValue(r, unprobed);
		if (value === null) continue;
		const c = clusters.get(r.item_id) ?? { sum: 0, count: 0 };
		c.count++;
		c.sum += value;
		clusters.set(r.item_id, c);
	}
	const items = inItemOrder(clusters);
	return { ...bootstrapCI(items, ratioOfSums, opts), n_items: items.length };
}

/**
 * The clusters in item-id order. The bootstrap draws positions, so the order it is handed is part of
 * its input: records read from a file (in the order they were finished) and from IndexedDB (in key
 * order) must give the same interval with the same seed.
 */
function inItemOrder(clusters: ReadonlyMap<string, Cluster>): Cluster[] {
	return [...clusters.keys()]
		.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
		.map((id) => clusters.get(id) as Cluster);
}

/**
 * Resamples for a paired effect over `items` clusters. A percentile bound of a difference of 0/1
 * outcomes moves in steps of 1/pairs; at 2,000 resamples a bound near a step flipped between seeds
 * (and between record orders), e.g. −10 pp against 0 pp over 10 pairs. Small runs (up to 100 items)
 * get 10,000; the count falls with size so a pair costs about 1 million draws at most (a run of 500
 * items or more gets 2,000, whose bounds move by far less than a step there: 1/500 of a pair).
 * tests/unit/stats/pairedTest.test.ts holds a bound still between two seeds. At 2 million draws the
 * results view of a 10,000-record run (477 items, 6 paired effects) spent 319 ms of main-thread CPU
 * opening; the draws are the view's largest cost.
 */
export function pairedBootstrapReps(items: number): number {
	return Math.min(
		10_000,
		Math.max(DEFAULT_BOOTSTRAP_REPS, Math.ceil(1_000_000 / Math.max(1, items)))
	);
}

export interface PairedDifference {
	/** (item_id, sample) pairs labeled in both conditions. */
	n_pairs: number;
	n_items: number;
	/** Follow-up rate of b minus that of a, over the pairs. */
	diff: number;
	lo: number;
	hi: number;
	/**
	 * Two-sided exact paired sign-flip test over the same item clusters (pairedTest.ts signFlipP;
	 * McNemar's exact test with one sample per item). NaN without pairs.
	 */
	p_value: number;
}

/**
 * Follow-up rate of condition b minus condition a, paired by (item_id, sample) so that item
 * difficulty cancels. Only pairs with a verdict in both conditions count (judge_error counts as
 * "not a follow-up", undecided and left-out items not at all, as in `summarize`). The interval is
 * a cluster bootstrap over items, since the samples of one item are correlated; the estimate is
 * the mean over pairs. The p-value is the exact paired test on the same clusters. Items are
 * resampled in id order, so the record order does not matter. No pairs → NaN.
 */
export function pairedDifference(
	records: Iterable<CountedRecord>,
	a: Condition,
	b: Condition,
	opts: { seed: number; reps?: number; unprobed?: ReadonlySet<string> }
): PairedDifference {
	const unprobed = opts.unprobed ?? NONE;
	const pairKey = (r: CountedRecord) => `${r.item_id}\u0000${r.sample}`;
	const inA = new Map<string, 0 | 1>();
	for (const r of records) {
		if (!isCondition(r, a)) continue;
		const value = followupValue(r, unprobed);
		if (value !== null) inA.set(pairKey(r), value);
	}

	const clusters = new Map<string, Cluster>();
	let pairs = 0;
	for (const r of records) {
		if (!isCondition(r, b)) continue;
		const value = followupValue(r, unprobed);
		const partner = inA.get(pairKey(r));
		if (value === null || partner === undefined) continue;
		pairs++;
		const c = clusters.get(r.item_id) ?? { sum: 0, count: 0 };
		c.count++;
		c.sum += value - partner;
		clusters.set(r.item_id, c);
	}
	const items = inItemOrder(clusters);
	const ci = ratioBootstrapCI(
		items.map((c) => c.sum),
		items.map((c) => c.count),
		{ ...opts, reps: opts.reps ?? pairedBootstrapReps(items.length) }
	);
	return {
		n_pairs: pairs,
		n_items: items.length,
		diff: ci.estimate,
		lo: ci.lo,
		hi: ci.hi,
		p_value: signFlipP(items.map((c) => c.sum))
	};
}
