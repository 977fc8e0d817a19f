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

/** How an item's answer was cut: 'reasoning' when the limit came before any visible answer. */
export type AnswerCut = 'answer' | 'reasoning' | null;

/** What counting needs of an item's answer: one small row per item. */
export interface AnswerFacts {
	item_id: string;
	cut: AnswerCut;
}

/** `answer` is the visible answer (reasoning split off), as in AnswerRecord and ProbeRecord. */
export function answerCut(a: Pick<AnswerRecord, 'finish_reason' | 'answer'>): AnswerCut {
	if (a.finish_reason !== 'length') return null;
	return a.answer.trim() === '' ? 'reasoning' : 'answer';
}

export function answerFacts(a: Pick<AnswerRecord, 'item_id' | 'finish_reason' | 'answer'>) {
	return { item_id: a.item_id, cut: answerCut(a) } satisfies AnswerFacts;
}

/** Which items the options leave out of accuracy and of follow-up rates. */
export function exclusionsFor(
	answers: readonly AnswerFacts[],
	options: CountOptions = COUNT_DEFAULTS
): Required<Exclusions> {
	const unscored = new Set<string>();
	const unprobed = new Set<string>();
	for (const a of answers) {
		if (a.cut !== null && !options.include_cut_answers) unscored.add(a.item_id);
		if (a.cut === 'reasoning' && !options.include_cut_reasoning) unprobed.add(a.item_id);
	}
	return { unscored, unprobed };
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
 * Every number of the results table. Rates with no records have p = NaN (null in JSON).
 * @note Pure and linear in the records: the view recomputes it on every toggle.
 */
export function resultsTable(
	records: Iterable<CountedRecord & Partial<GroundedRecord>>,
	answers: readonly AnswerFacts[],
	options: CountOptions = COUNT_DEFAULTS
): ResultsTable {
	const ex = exclusionsFor(answers, options);
	const table: ResultsTable = {
		options: { ...options },
		overall: tally(records, ex),
		conditions: summarize(records, ex),
		cut_answers: answers.filter((a) => a.cut !== null).length,
		cut_reasoning_items: answers.filter((a) => a.cut === 'reasoning').length
	};
	const reference = referenceShare(records);
	return reference === undefined ? table : { ...table, reference };
}
