/**
 * The records `summarize` reads, held as columns of typed arrays: per record a few bytes for each
 * field the counts read (ReportRecord), not an object of a dozen properties with its own key
 * string. A million records are ~31 bytes each here (~30 MB) against ~200 as objects, so the
 * peak of `summarize` no longer follows the record count.
 *
 * Record i is written with `set(i, record)` (a later write to the same index replaces it: last
 * write per key wins, the caller maps keys to indices) and read back by iterating, which makes a
 * fresh object per record: short-lived, so it never survives a young-generation collection.
 * The key of a record is kept only when asked (`agreement` pairs labelings by key; summarize
 * counts without it).
 */
import type { ReportRecord } from './readRun.ts';
import { grown } from '../lib/probe/keyTable.ts';

const INITIAL = 1024;

/** Distinct values of one field, each given a small code (labels, perturbations, null…). */
class Codes<T> {
	readonly values: T[] = [];
	readonly #codes = new Map<T, number>();

	code(value: T): number {
		let code = this.#codes.get(value);
		if (code === undefined) {
			code = this.values.length;
			this.values.push(value);
			this.#codes.set(value, code);
		}
		return code;
	}
}

/** Fields with at most a few dozen values: a label, a verdict, where the label came from… */
const SMALL_FIELDS = [
	'perturbation',
	'label',
	'verdict',
	'label_source',
	'correct',
	'rule_label',
	'judge_label',
	'reference_grounding',
	'answer_cut'
] as const satisfies readonly (keyof ReportRecord)[];
/** Each small field's place in SMALL_FIELDS, looked up once rather than per record. */
const SMALL = Object.fromEntries(SMALL_FIELDS.map((field, f) => [field, f])) as Record<
	(typeof SMALL_FIELDS)[number],
	number
>;

/** A small field's codes must fit a byte; the checks in report.ts allow far fewer values. */
const MAX_SMALL_CODES = 256;

export class PackedRecords implements Iterable<ReportRecord> {
	#length = 0;
	#capacity = INITIAL;
	/** Run ids and item ids: a few thousand distinct strings, a code each. */
	readonly #runs = new Codes<string>();
	readonly #items = new Codes<string>();
	readonly #small = SMALL_FIELDS.map(() => new Codes<unknown>());
	#run = new Uint32Array(INITIAL);
	#item = new Uint32Array(INITIAL);
	#temperature = new Float64Array(INITIAL);
	#sample = new Float64Array(INITIAL);
	/** One byte per small field per record, SMALL_FIELDS.length bytes a record. */
	#codes = new Uint8Array(INITIAL * SMALL_FIELDS.length);
	readonly #keys: string[] | undefined;

	/** `keepKeys`: hold each record's key too (what `agreement` pairs by). */
	constructor(keepKeys = false) {
		this.#keys = keepKeys ? [] : undefined;
	}

	/** Records held: one more than the highest index set. */
	get length(): number {
		return this.#length;
	}

	/**
	 * Hold `r` as record `index`, replacing what was there; `index` is at most `length`.
	 * @throws RangeError past `length`, or when a small field has more than 256 distinct values.
	 */
	set(index: number, r: ReportRecord): void {
		if (index > this.#length) throw new RangeError(`record ${index} set before ${this.#length}`);
		if (index === this.#capacity) this.#grow();
		this.#run[index] = this.#runs.code(r.run_id);
		this.#item[index] = this.#items.code(r.item_id);
		this.#temperature[index] = r.temperature;
		this.#sample[index] = r.sample;
		const at = index * SMALL_FIELDS.length;
		SMALL_FIELDS.forEach((field, f) => {
			const code = this.#small[f].code(r[field]);
			if (code >= MAX_SMALL_CODES) throw new RangeError(`more than 256 values of ${field}`);
			this.#codes[at + f] = code;
		});
		if (this.#keys) this.#keys[index] = r.key;
		if (index === this.#length) this.#length++;
	}

	/** Record `index` as a new object (undefined past the end). */
	at(index: number): ReportRecord | undefined {
		if (index < 0 || index >= this.#length) return undefined;
		const at = index * SMALL_FIELDS.length;
		const small = (f: number) => this.#small[f].values[this.#codes[at + f]];
		const grounding = small(SMALL.reference_grounding);
		return {
			run_id: this.#runs.values[this.#run[index]],
			key: this.#keys?.[index] ?? '',
			item_id: this.#items.values[this.#item[index]],
			temperature: this.#temperature[index],
			perturbation: small(SMALL.perturbation) as ReportRecord['perturbation'],
			sample: this.#sample[index],
			label: small(SMALL.label) as ReportRecord['label'],
			verdict: small(SMALL.verdict) as ReportRecord['verdict'],
			label_source: small(SMALL.label_source) as ReportRecord['label_source'],
			correct: small(SMALL.correct) as ReportRecord['correct'],
			rule_label: small(SMALL.rule_label) as ReportRecord['rule_label'],
			judge_label: small(SMALL.judge_label) as ReportRecord['judge_label'],
			answer_cut: small(SMALL.answer_cut) as ReportRecord['answer_cut'],
			// Absent (not undefined) on a record without a reference turn, as the file has it.
			...(grounding === undefined
				? {}
				: { reference_grounding: grounding as ReportRecord['reference_grounding'] })
		};
	}

	*[Symbol.iterator](): Iterator<ReportRecord> {
		for (let i = 0; i < this.#length; i++) yield this.at(i) as ReportRecord;
	}

	#grow(): void {
		this.#capacity *= 2;
		this.#run = grown(this.#run);
		this.#item = grown(this.#item);
		this.#temperature = grown(this.#temperature);
		this.#sample = grown(this.#sample);
		this.#codes = grown(this.#codes);
	}
}
