/**
 * The results table, computed here once for every shell: the results view and the CLI's `summarize`
 * (text, --json, --csv) both call resultsTable() with the same defaults, so one run file gives the
 * same numbers in both. What is left out by default, and why:
 * - answers cut at the token limit are left out of accuracy: a cut GSM8K solution usually lacks its
 *   final number and would count as wrong for a reason that is the limit's, not the model's;
 * - probes of answers cut while still reasoning are left out of follow-up rates: nothing visible
 *   was written yet, so the probe put an empty assistant turn in front of the model.
 * Each has a toggle that counts them, and the table says how many there were either way.
 */
import { answerCut, answerCutOf, type AnswerCut, type CutOfRecord } from '../probe/answerCut.ts';
import type { AnswerRecord } from '../probe/types.ts';
import { summarize, tally } from '../stats/aggregate.ts';
import type { ConditionSummary, CountedRecord, Exclusions, Tally } from '../stats/aggregate.ts';
import { referenceShare, type GroundedRecord, type ReferenceShare } from './referenceShare.ts';

export interface CountOptions {
	/** Count answers cut at the token limit in accuracy. */
	include_cut_answers: boolean;
	/** Count the probes of answers cut while still reasoning in follow-up rates. */
	include_cut_reasoning: boolean;
}

export const COUNT_DEFAULTS: Readonly<CountOptions> = Object.freeze({
	include_cut_answers: false,
	include_cut_reasoning: false
});

/** What counting needs of an item's answer: one small row per item. */
export interface AnswerFacts {
	item_id: string;
	cut: AnswerCut;
}

export function answerFacts(a: Pick<AnswerRecord, 'item_id' | 'finish_reason' | 'answer'>) {
	return { item_id: a.item_id, cut: answerCut(a) } satisfies AnswerFacts;
}

/** A record as counting reads it: its item, and what it says of its answer (answerCut.ts). */
export type CountedCutRecord = Pick<CountedRecord, 'item_id'> & CutOfRecord;

/**
 * One fact per item whose answer is known to be cut, or that `answers` lists: the answers' (the
 * answers file or table) where they hold the item, else the records' own. So a run read without
 * its answers (imported as records + manifest, or summarized without the file beside it) counts
 * as with them. Records of one item that disagree (a hand-edited file) give the deeper cut,
 * whatever their order, so the app (key order) and the CLI (file order) agree.
 */
export function itemCuts(
	records: Iterable<CountedCutRecord>,
	answers: readonly AnswerFacts[]
): AnswerFacts[] {
	const cuts = new Map<string, AnswerCut>();
	for (const r of records) {
		const cut = answerCutOf(r);
		if (cut !== null && cuts.get(r.item_id) !== 'reasoning') cuts.set(r.item_id, cut);
	}
	for (const a of answers) cuts.set(a.item_id, a.cut);
	return [...cuts].map(([item_id, cut]) => ({ item_id, cut }));
}

/** Which items the options leave out of accuracy and of follow-up rates (cuts: itemCuts). */
function excluded(cuts: readonly AnswerFacts[], options: CountOptions): Required<Exclusions> {
	const unscored = new Set<string>();
	const unprobed = new Set<string>();
	for (const a of cuts) {
		if (a.cut !== null && !options.include_cut_answers) unscored.add(a.item_id);
		if (a.cut === 'reasoning' && !options.include_cut_reasoning) unprobed.add(a.item_id);
	}
	return { unscored, unprobed };
}

/**
 * Which items the options leave out of accuracy and of follow-up rates, from the run's answers
 * and, for items they do not hold, its records' own (itemCuts).
 */
export function exclusionsFor(
	records: Iterable<CountedCutRecord>,
	answers: readonly AnswerFacts[],
	options: CountOptions = COUNT_DEFAULTS
): Required<Exclusions> {
	return excluded(itemCuts(records, answers), options);
}

export interface ResultsTable {
	options: CountOptions;
	/** The whole run pooled over conditions. */
	overall: Tally;
	/** Per temperature × perturbation, in condition order. */
	conditions: ConditionSummary[];
	/** Items whose answer was cut at the token limit (those cut while reasoning included). */
	cut_answers: number;
	/** Of them, items cut while still reasoning, whose probes saw an empty assistant turn. */
	cut_reasoning_items: number;
	/**
	 * How the generated turns compare with the human's next turn, this app's measure, not the
	 * paper's (referenceShare.ts: unperturbed records, ties apart); absent
	 * when no record has a reference turn, so runs without references read as before.
	 */
	reference?: ReferenceShare;
}

/**
 * Every number of the results table. Rates with no records have p = NaN (null in JSON). `answers`:
 * the run's answers file or table, [] when it has none (the records' own cuts then count).
 * @note Pure and linear in the records: the view recomputes it on every toggle.
 */
export function resultsTable(
	records: Iterable<CountedRecord & CutOfRecord & Partial<GroundedRecord>>,
	answers: readonly AnswerFacts[],
	options: CountOptions = COUNT_DEFAULTS
): ResultsTable {
	const cuts = itemCuts(records, answers);
	const ex = excluded(cuts, options);
	const table: ResultsTable = {
		options: { ...options },
		overall: tally(records, ex),
		conditions: summarize(records, ex),
		cut_answers: cuts.filter((a) => a.cut !== null).length,
		cut_reasoning_items: cuts.filter((a) => a.cut === 'reasoning').length
	};
	const reference = referenceShare(records);
	return reference === undefined ? table : { ...table, reference };
}
