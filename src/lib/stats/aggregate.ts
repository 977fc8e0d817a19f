/**
 * The numbers a run reports, computed from its records alone: per-condition accuracy and follow-up
 * rates with intervals, label counts, and paired differences between conditions. Pure and linear
 * in the number of records, so a 10,000-record run summarizes in a few milliseconds.
 */
import { LABELS, PERTURBATIONS } from '../probe/types.ts';
import type { Label, Perturbation, ProbeRecord } from '../probe/types.ts';
import { bootstrapCI, wilson } from './interval.ts';
import type { Interval, Rate } from './interval.ts';

export { bootstrapCI, quantile, wilson, Z_95 } from './interval.ts';
export type { BootstrapOptions, Interval, Rate } from './interval.ts';

/** The label the paper counts as the model having taken the user's side of the conversation. */
export const FOLLOWUP_LABEL: Label = 'genuine_followup';

/** What these statistics read of a record: a run's record facts (db/facts.ts) are enough. */
export type CountedRecord = Pick<
	ProbeRecord,
	'item_id' | 'temperature' | 'perturbation' | 'sample' | 'label' | 'correct'
>;

export interface Condition {
	temperature: number;
	perturbation: Perturbation;
}

export interface ConditionSummary extends Condition {
	/** Every record of the condition, judged or not. */
	n: number;
	/**
	 * Accuracy of the assistant answers, counted once per item: the answer is generated once and
	 * reused by every sample, so counting it per record would narrow the interval by √samples for
	 * no new information. Items whose answer could not be scored (correct = null) are left out.
	 */
	accuracy: Rate;
	/**
	 * genuine_followup / labeled records (label ≠ null). judge_error stays IN the denominator: a
	 * failed judgment is a generated turn the judge could not call a follow-up, and dropping it
	 * would inflate the rate whenever failures cluster on odd outputs. It is shown in
	 * `judge_errors` so the reader can judge its weight. The Wilson interval treats records as
	 * independent; with several samples per item use `followupClusterCI` for a wider, honest one.
	 */
	followup: Rate;
	/** Records with a label (including judge_error). */
	judged: number;
	/** Records still waiting for a label. */
	pending: number;
	judge_errors: number;
	labels: Record<Label, number>;
}

/** `${temperature}|${perturbation}`: the tail of a record key, and a Map key for conditions. */
export function conditionKey(r: Pick<ProbeRecord, 'temperature' | 'perturbation'>): string {
	return `${r.temperature}|${r.perturbation}`;
}

/** Every label with a zero count, in LABELS order (charts need the zeros too). */
export function emptyLabelCounts(): Record<Label, number> {
	return Object.fromEntries(LABELS.map((label) => [label, 0])) as Record<Label, number>;
}

/** Counts of the labels that count; pending records (label = null) are skipped. */
export function labelDistribution(
	records: readonly Pick<ProbeRecord, 'label'>[]
): Record<Label, number> {
	const counts = emptyLabelCounts();
	for (const r of records) if (r.label !== null) counts[r.label]++;
	return counts;
}

interface Accumulator extends Condition {
	n: number;
	judged: number;
	followups: number;
	labels: Record<Label, number>;
	/** item_id → answer correct; false wins so that disagreeing records never count as correct. */
	items: Map<string, boolean>;
}

/**
 * One summary per temperature × perturbation present in `records`, sorted by temperature and then
 * in PERTURBATIONS order. Single pass; records of several runs are pooled (filter first if needed).
 */
export function summarize(records: readonly CountedRecord[]): ConditionSummary[] {
	const groups = new Map<string, Accumulator>();
	for (const r of records) {
		const key = conditionKey(r);
		let acc = groups.get(key);
		if (!acc) {
			acc = {
				temperature: r.temperature,
				perturbation: r.perturbation,
				n: 0,
				judged: 0,
				followups: 0,
				labels: emptyLabelCounts(),
				items: new Map()
			};
			groups.set(key, acc);
		}
		acc.n++;
		if (r.label !== null) {
			acc.judged++;
			acc.labels[r.label]++;
			if (r.label === FOLLOWUP_LABEL) acc.followups++;
		}
		if (r.correct !== null)
			acc.items.set(r.item_id, (acc.items.get(r.item_id) ?? true) && r.correct);
	}
	return [...groups.values()].sort(compareConditions).map(finish);
}

function finish(acc: Accumulator): ConditionSummary {
	let correct = 0;
	for (const ok of acc.items.values()) if (ok) correct++;
	return {
		temperature: acc.temperature,
		perturbation: acc.perturbation,
		n: acc.n,
		accuracy: wilson(correct, acc.items.size),
		followup: wilson(acc.followups, acc.judged),
		judged: acc.judged,
		pending: acc.n - acc.judged,
		judge_errors: acc.labels.judge_error,
		labels: acc.labels
	};
}

/** Temperature ascending, then the paper's perturbation order. */
export function compareConditions(a: Condition, b: Condition): number {
	return (
		a.temperature - b.temperature ||
		PERTURBATIONS.indexOf(a.perturbation) - PERTURBATIONS.indexOf(b.perturbation)
	);
}

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
	records: readonly CountedRecord[],
	condition: Condition,
	opts: { seed: number; reps?: number }
): Interval & { n_items: number } {
	const clusters = new Map<string, Cluster>();
	for (const r of records) {
		if (r.label === null || !isCondition(r, condition)) continue;
		const c = clusters.get(r.item_id) ?? { sum: 0, count: 0 };
		c.count++;
		if (r.label === FOLLOWUP_LABEL) c.sum++;
		clusters.set(r.item_id, c);
	}
	const items = [...clusters.values()];
	return { ...bootstrapCI(items, ratioOfSums, opts), n_items: items.length };
}

export interface PairedDifference {
	/** (item_id, sample) pairs labeled in both conditions. */
	n_pairs: number;
	n_items: number;
	/** Follow-up rate of b minus that of a, over the pairs. */
	diff: number;
	lo: number;
	hi: number;
}

/**
 * Follow-up rate of condition b minus condition a, paired by (item_id, sample) so that item
 * difficulty cancels. Only pairs labeled in both conditions count (judge_error counts as "not a
 * follow-up", as in `summarize`). The interval is a cluster bootstrap over items, since the
 * samples of one item are correlated; the estimate is the mean over pairs. No pairs → NaN.
 */
export function pairedDifference(
	records: readonly CountedRecord[],
	a: Condition,
	b: Condition,
	opts: { seed: number; reps?: number }
): PairedDifference {
	const pairKey = (r: CountedRecord) => `${r.item_id}\u0000${r.sample}`;
	const inA = new Map<string, CountedRecord>();
	for (const r of records) if (r.label !== null && isCondition(r, a)) inA.set(pairKey(r), r);

	const clusters = new Map<string, Cluster>();
	let pairs = 0;
	for (const r of records) {
		if (r.label === null || !isCondition(r, b)) continue;
		const partner = inA.get(pairKey(r));
		if (!partner) continue;
		pairs++;
		const c = clusters.get(r.item_id) ?? { sum: 0, count: 0 };
		c.count++;
		c.sum += Number(r.label === FOLLOWUP_LABEL) - Number(partner.label === FOLLOWUP_LABEL);
		clusters.set(r.item_id, c);
	}
	const items = [...clusters.values()];
	const ci = bootstrapCI(items, ratioOfSums, opts);
	return { n_pairs: pairs, n_items: items.length, diff: ci.estimate, lo: ci.lo, hi: ci.hi };
}
