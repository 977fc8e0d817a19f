/**
 * The numbers a run reports, computed from its records alone: per-condition accuracy and follow-up
 * rates with intervals and label counts (item-clustered intervals and paired differences between
 * conditions are in clustered.ts). Pure and linear
 * in the number of records, so a 10,000-record run summarizes in a few milliseconds. Follow-up
 * rates count binary verdicts (recordVerdict), the paper's primary metric; which items are left
 * out of what is the caller's choice (Exclusions), made once in results/resultsTable.ts.
 */
import { isVerdictConflict, recordVerdict } from '../probe/labels.ts';
import { LABELS, PERTURBATIONS } from '../probe/types.ts';
import type { Label, Perturbation, ProbeRecord } from '../probe/types.ts';
import { wilson } from './interval.ts';
import type { Rate } from './interval.ts';

export { bootstrapCI, quantile, wilson, Z_95 } from './interval.ts';
export type { BootstrapOptions, Interval, Rate } from './interval.ts';

/** The label the paper counts as the model having taken the user's side of the conversation. */
export const FOLLOWUP_LABEL: Label = 'genuine_followup';

/**
 * What these statistics read of a record: a run's record facts (db/facts.ts) are enough. The one
 * list of those fields; the type is derived from it, so a shell that copies a record's counted
 * fields (the paired-effects job, results/pairedJob.ts) copies a field added here too.
 */
export const COUNTED_FIELDS = [
	'item_id',
	'temperature',
	'perturbation',
	'sample',
	'label',
	'verdict',
	'label_source',
	'correct'
] as const satisfies readonly (keyof ProbeRecord)[];

export type CountedRecord = Pick<ProbeRecord, (typeof COUNTED_FIELDS)[number]>;

/** Items left out of what they would distort, by item id (an answer is shared by its samples). */
export interface Exclusions {
	/** Items whose answer is not scored: accuracy leaves them out. */
	unscored?: ReadonlySet<string>;
	/** Items whose probes follow-up rates leave out (an answer cut while still reasoning). */
	unprobed?: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/** 1 for a genuine verdict, 0 for not genuine, null for a record outside the rate. */
export function followupValue(r: CountedRecord, unprobed: ReadonlySet<string>): 0 | 1 | null {
	if (unprobed.has(r.item_id)) return null;
	const verdict = recordVerdict(r);
	if (verdict === 'genuine') return 1;
	return verdict === 'not_genuine' ? 0 : null;
}

export interface Condition {
	temperature: number;
	perturbation: Perturbation;
}

/** The counts of one group of records: a condition, or the whole run (results/resultsTable.ts). */
export interface Tally {
	/** Every record of the group, judged or not, left out or not. */
	n: number;
	/**
	 * Accuracy of the assistant answers, counted once per item: the answer is generated once and
	 * reused by every sample, so counting it per record would narrow the interval by √samples for
	 * no new information. Items whose answer could not be scored (correct = null) are left out.
	 */
	accuracy: Rate;
	/**
	 * Genuine verdicts / records with a verdict of genuine or not, among those not left out.
	 * judge_error stays IN the denominator (its verdict is not genuine): a failed judgment is a
	 * generated turn the judge could not call a follow-up, and dropping it would inflate the rate
	 * whenever failures cluster on odd outputs; `judge_errors` shows its weight. Undecided turns
	 * (rules only) are OUT: nobody said what they are, and `undecided` counts them. The Wilson
	 * interval treats records as independent; with several samples per item use
	 * `followupClusterCI` for a wider, honest one.
	 *
	 * null when the group holds undecided turns and no turn the judge labelled (rules-only
	 * labelling): the rules name failure modes only and never say genuine, so a rate over what they
	 * decided is 0 by construction. The label shares and `undecided` say what is known instead
	 * (results/plainWords.ts NO_RATE_REASON). A rules-only group whose every turn is a failure the
	 * rules saw keeps its measured 0%.
	 */
	followup: Rate | null;
	/** Records with a label (including judge_error and undecided), left out or not. */
	judged: number;
	/** Records still waiting for a label. */
	pending: number;
	/** Labelled records counted in `followup` neither way: the rules could not tell. */
	undecided: number;
	/** Records left out of `followup` because their answer was cut while still reasoning. */
	cut_reasoning: number;
	judge_errors: number;
	/**
	 * Records whose judge gave a failure category and the verdict genuine (labels.ts
	 * isVerdictConflict), among those not left out: stored as written, counted as not genuine.
	 */
	verdict_conflicts: number;
	/** Label counts of the records not left out of follow-up rates. */
	labels: Record<Label, number>;
}

export interface ConditionSummary extends Condition, Tally {}

const NO_RATE: Rate = Object.freeze(wilson(0, 0));

/** A follow-up rate to draw: a group without one (rules only) draws as one with no turns (NaN). */
export function drawnRate(r: Rate | null): Rate {
	return r ?? NO_RATE;
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

/** One item's scored answers in a group: the item counts once, as correct when none was wrong. */
interface ItemScore {
	scored: number;
	wrong: number;
}

/**
 * Counts one group of records; `tally()` turns the counts into rates. A record counted can be
 * taken back out with the exclusions it was counted under, so a live count (live/labelTally.ts)
 * replaces a record's earlier version without counting the run again, and `tally()` costs the
 * same at 10 or 10,000 records.
 */
export class RunningTally {
	#n = 0;
	#judged = 0;
	#cutReasoning = 0;
	#followups = 0;
	#decided = 0;
	#conflicts = 0;
	/** Labelled by the judge: a labeller that can say genuine was asked. */
	#byJudge = 0;
	readonly #labels = emptyLabelCounts();
	/** item_id → its scored records; one wrong record makes the item wrong, whatever its order. */
	readonly #items = new Map<string, ItemScore>();
	#scoredItems = 0;
	#correctItems = 0;

	add(r: CountedRecord, ex: Required<Exclusions>): void {
		this.#count(r, ex, 1);
	}

	/** Take out a record counted before, with the exclusions it was counted under. */
	remove(r: CountedRecord, ex: Required<Exclusions>): void {
		this.#count(r, ex, -1);
	}

	#count(r: CountedRecord, ex: Required<Exclusions>, sign: 1 | -1): void {
		this.#n += sign;
		if (r.label !== null) this.#judged += sign;
		if (ex.unprobed.has(r.item_id)) this.#cutReasoning += sign;
		else if (r.label !== null) {
			this.#labels[r.label] += sign;
			if (isVerdictConflict(r)) this.#conflicts += sign;
			if (r.label_source === 'judge') this.#byJudge += sign;
			const value = followupValue(r, NONE);
			if (value !== null) {
				this.#decided += sign;
				this.#followups += sign * value;
			}
		}
		if (r.correct !== null && !ex.unscored.has(r.item_id)) this.#score(r.item_id, r.correct, sign);
	}

	#score(item: string, correct: boolean, sign: 1 | -1): void {
		const s = this.#items.get(item) ?? { scored: 0, wrong: 0 };
		const wasScored = s.scored > 0;
		const wasCorrect = wasScored && s.wrong === 0;
		s.scored += sign;
		if (!correct) s.wrong += sign;
		const isCorrect = s.scored > 0 && s.wrong === 0;
		this.#scoredItems += Number(s.scored > 0) - Number(wasScored);
		this.#correctItems += Number(isCorrect) - Number(wasCorrect);
		if (s.scored > 0) this.#items.set(item, s);
		else this.#items.delete(item);
	}

	/** The counts as rates: a fresh object each call (its label counts a copy). */
	tally(): Tally {
		return {
			n: this.#n,
			accuracy: wilson(this.#correctItems, this.#scoredItems),
			followup:
				this.#labels.undecided > 0 && this.#byJudge === 0
					? null
					: wilson(this.#followups, this.#decided),
			judged: this.#judged,
			pending: this.#n - this.#judged,
			undecided: this.#labels.undecided,
			cut_reasoning: this.#cutReasoning,
			judge_errors: this.#labels.judge_error,
			verdict_conflicts: this.#conflicts,
			labels: { ...this.#labels }
		};
	}
}

function fullExclusions(ex: Exclusions): Required<Exclusions> {
	return { unscored: ex.unscored ?? NONE, unprobed: ex.unprobed ?? NONE };
}

/**
 * One summary per temperature × perturbation present in `records`, sorted by temperature and then
 * in PERTURBATIONS order. Single pass; records of several runs are pooled (filter first if needed).
 */
export function summarize(
	records: Iterable<CountedRecord>,
	exclusions: Exclusions = {}
): ConditionSummary[] {
	const ex = fullExclusions(exclusions);
	return perCondition(
		records,
		() => new RunningTally(),
		(acc, r) => acc.add(r, ex)
	).map(({ condition, acc }) => ({ ...condition, ...acc.tally() }));
}

/**
 * One accumulator per temperature × perturbation present in `records`, fed in record order, and
 * returned in condition order (temperature, then PERTURBATIONS order).
 */
export function perCondition<R extends Condition, A>(
	records: Iterable<R>,
	make: () => A,
	add: (acc: A, r: R) => void
): { condition: Condition; acc: A }[] {
	const groups = new Map<string, { condition: Condition; acc: A }>();
	for (const r of records) {
		const key = conditionKey(r);
		let group = groups.get(key);
		if (!group) {
			group = {
				condition: { temperature: r.temperature, perturbation: r.perturbation },
				acc: make()
			};
			groups.set(key, group);
		}
		add(group.acc, r);
	}
	return [...groups.values()].sort((a, b) => compareConditions(a.condition, b.condition));
}

/** The whole group pooled, with the same counting rules as summarize(). */
export function tally(records: Iterable<CountedRecord>, exclusions: Exclusions = {}): Tally {
	const ex = fullExclusions(exclusions);
	const acc = new RunningTally();
	for (const r of records) acc.add(r, ex);
	return acc.tally();
}

/** Temperature ascending, then the paper's perturbation order. */
export function compareConditions(a: Condition, b: Condition): number {
	return (
		a.temperature - b.temperature ||
		PERTURBATIONS.indexOf(a.perturbation) - PERTURBATIONS.indexOf(b.perturbation)
	);
}
