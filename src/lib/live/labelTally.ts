/**
 * The live "Labels so far": a run's stored records counted as its results will count them. It
 * keeps the last stored version of each record (by key, so a record stored twice, generated and
 * then judged, counts once, as judged) and the answers seen, and counts them with the results'
 * own functions: exclusionsFor (answers cut while still reasoning are left out, from the answers
 * or the records' own facts) and the core's tally (genuine verdicts over decided turns, conflicts
 * as not genuine, no rate for rules-only labelling). So the share shown while a run goes is the
 * rate its results show for the same records. Plain bookkeeping: the controller publishes
 * snapshots of it into rune state.
 */
import { answerCutOf, type AnswerCut, type CutOfRecord } from '../probe/answerCut.ts';
import type { ProbeRecord } from '../probe/types.ts';
import { exclusionsFor, type AnswerFacts } from '../results/resultsTable.ts';
import { tally, type CountedRecord, type Tally } from '../stats/aggregate.ts';

/** What the tally reads of a record: a full record or its stored facts (db/facts.ts) will do. */
export type TalliedRecord = Pick<ProbeRecord, 'key'> & CountedRecord & CutOfRecord;

/** The few fields counting reads, so a long run does not keep every prompt and answer alive. */
type Counted = CountedRecord & { answer_cut: AnswerCut };

function counted(r: TalliedRecord): Counted {
	return {
		item_id: r.item_id,
		temperature: r.temperature,
		perturbation: r.perturbation,
		sample: r.sample,
		label: r.label,
		verdict: r.verdict,
		label_source: r.label_source,
		correct: r.correct,
		answer_cut: answerCutOf(r)
	};
}

/** The tally of no records: nothing labelled yet. */
export const EMPTY_TALLY: Tally = Object.freeze(tally([]));

export class LabelTally {
	readonly #records = new Map<string, Counted>();
	readonly #answers = new Map<string, AnswerFacts>();

	/** Keys stored, labelled or not. */
	get stored(): number {
		return this.#records.size;
	}

	/** A record as stored; a later version of the same key replaces the earlier one. */
	add(r: TalliedRecord): void {
		this.#records.set(r.key, counted(r));
	}

	/** An item's answer (results/resultsTable.ts answerFacts): its cut wins over the records'. */
	answer(a: AnswerFacts): void {
		this.#answers.set(a.item_id, a);
	}

	/**
	 * The run so far as the results view's headline counts it (COUNT_DEFAULTS). A fresh object each
	 * call, safe to hand to $state.raw; linear in the records (milliseconds at 10,000 records on a
	 * 2-core machine), so the controller calls it at most once a commit, and only after a change.
	 */
	snapshot(): Tally {
		const ex = exclusionsFor(this.#records.values(), [...this.#answers.values()]);
		return tally(this.#records.values(), ex);
	}
}
