/**
 * The live "Labels so far": a run's stored records counted as its results will count them. It
 * keeps the last stored version of each record (by key, so a record stored twice, generated and
 * then judged, counts once, as judged) and the answers seen, and counts them with the results'
 * own functions: exclusionsFor (answers cut while still reasoning are left out, from the answers
 * or the records' own facts) and the core's RunningTally (genuine verdicts over decided turns,
 * conflicts as not genuine, no rate for rules-only labelling). So the share shown while a run
 * goes is the rate its results show for the same records.
 *
 * Counting is incremental, so a commit costs the same at 10 or 10,000 records: a record stored
 * again takes its earlier version's counts out and puts its own in. What is left out is decided
 * per item (an answer is shared by its item's records), so when a record's cut or its item's
 * answer arrives, only that item's records are counted again. Plain bookkeeping: the controller
 * publishes snapshots of it into rune state.
 */
import { answerCutOf, type AnswerCut, type CutOfRecord } from '../probe/answerCut.ts';
import type { ProbeRecord } from '../probe/types.ts';
import { answerFacts, exclusionsFor, type AnswerFacts } from '../results/resultsTable.ts';
import { RunningTally, tally } from '../stats/aggregate.ts';
import type { CountedRecord, Exclusions, Tally } from '../stats/aggregate.ts';

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

/** One item's stored records, its answer once seen, and what they leave out of the counts. */
interface ItemCount {
	readonly records: Map<string, Counted>;
	answer: AnswerFacts | null;
	/** What exclusionsFor leaves out of this item's records: their counts were made with it. */
	ex: Required<Exclusions>;
}

export class LabelTally {
	/** key → the last stored version. */
	readonly #records = new Map<string, Counted>();
	readonly #items = new Map<string, ItemCount>();
	readonly #counts = new RunningTally();

	/** Keys stored, labelled or not. */
	get stored(): number {
		return this.#records.size;
	}

	/** A record as stored; a later version of the same key replaces the earlier one. */
	add(r: TalliedRecord): void {
		const next = counted(r);
		let prev = this.#records.get(r.key);
		if (prev !== undefined && prev.item_id !== next.item_id) {
			// A key stored again under another item (a hand-edited file): the store keeps the last.
			const from = this.#item(prev.item_id);
			this.#recount(from, () => from.records.delete(r.key));
			prev = undefined;
		}
		this.#records.set(r.key, next);
		const item = this.#item(next.item_id);
		if ((prev?.answer_cut ?? null) === next.answer_cut) {
			// What the item leaves out cannot have moved: swap this record's counts alone.
			if (prev !== undefined) this.#counts.remove(prev, item.ex);
			item.records.set(r.key, next);
			this.#counts.add(next, item.ex);
		} else this.#recount(item, () => item.records.set(r.key, next));
	}

	/** An item's answer, as stored or as its facts (answerFacts): its cut wins over the records'. */
	answer(a: Parameters<typeof answerFacts>[0]): void {
		const facts = answerFacts(a);
		const item = this.#item(a.item_id);
		this.#recount(item, () => (item.answer = facts));
	}

	/**
	 * The run so far as the results view's headline counts it (COUNT_DEFAULTS). A fresh object each
	 * call, safe to hand to $state.raw; it reads counts already kept, so it costs the same at any
	 * number of records.
	 */
	snapshot(): Tally {
		return this.#counts.tally();
	}

	#item(id: string): ItemCount {
		let item = this.#items.get(id);
		if (item === undefined) {
			item = { records: new Map(), answer: null, ex: exclusionsFor([], []) };
			this.#items.set(id, item);
		}
		return item;
	}

	/** Changes what may move an item's exclusions, and counts its records again under the new. */
	#recount(item: ItemCount, change: () => void): void {
		for (const r of item.records.values()) this.#counts.remove(r, item.ex);
		change();
		item.ex = exclusionsFor(item.records.values(), item.answer === null ? [] : [item.answer]);
		for (const r of item.records.values()) this.#counts.add(r, item.ex);
	}
}
