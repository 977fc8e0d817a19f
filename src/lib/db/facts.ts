/**
 * A record's facts: the dozen small fields the results view's numbers and charts read, stored beside
 * each record in their own table. A 10,000-record run is ~30 MB of full records (prompts, answers,
 * judge output) but ~1.5 MB of facts, so the view can paint from facts and read records later.
 */
import { answerCutOf, type AnswerCut } from '../probe/answerCut.ts';
import type { ProbeRecord } from '../probe/types.ts';
import { COUNTED_FIELDS } from '../stats/aggregate.ts';
import { columnsOf, valueAt } from '../stats/columns.ts';

/** What the counts read (stats/aggregate.ts COUNTED_FIELDS), and what the views show besides. */
export const FACT_FIELDS = [
	'run_id',
	'key',
	...COUNTED_FIELDS,
	'rule_label',
	'judge_label',
	'finish_reason',
	'reference_grounding',
	'answer_cut'
] as const;

export type RecordFacts = Pick<ProbeRecord, Exclude<(typeof FACT_FIELDS)[number], 'answer_cut'>> & {
	/**
	 * Whether the record's answer was cut at the token limit (probe/answerCut.ts), so a run imported
	 * without its answers counts its cuts as `summarize` does. Facts stored before it was kept got
	 * it from their records when the database moved to version 6 (db/migrations.ts).
	 */
	answer_cut: AnswerCut;
};

/**
 * All of a run's facts as one row: reading 10,000 small rows costs Chromium's IndexedDB 100-300 ms
 * (per-value overhead), one packed row a few ms. A cache of the facts table, valid only while the
 * run's records are unchanged: every record write deletes it in the same transaction.
 */
export interface FactsPackRow {
	run_id: string;
	/** PACK_FORMAT; a row in any other format is treated as absent (and rebuilt). */
	format?: number;
	/** JSON of a PackedFacts (PACK_FORMAT); format 1 held the RecordFacts[] itself. */
	facts: string;
}

/**
 * Column by column, each as its distinct values plus one index per record: at 10,000 records
 * ~0.5 MB instead of ~2.8 MB of repeated field names and labels, so it reads and parses in a few ms.
 */
interface PackedFacts {
	n: number;
	columns: Record<PackedField, { values: unknown[]; index: number[] }>;
}

type PackedField = Exclude<(typeof FACT_FIELDS)[number], 'run_id'>;

/**
 * 3: facts carry the verdict; a format-2 pack is rebuilt from the records (which may lack it).
 * 4: facts carry the reference comparison (referenceShare.ts); a format-3 pack is rebuilt.
 * 5: facts carry the answer's cut (answerCut.ts); a format-4 pack is rebuilt.
 */
export const PACK_FORMAT = 5;

/**
 * The pack is JSON, where undefined becomes null, but a record without a reference turn (absent)
 * is not one whose comparison is pending (null): the pack keeps the absence as this value.
 */
const NO_REFERENCE = 'none';

const PACKED_FIELDS = FACT_FIELDS.filter((f): f is PackedField => f !== 'run_id');

export function packFacts(runId: string, facts: readonly RecordFacts[]): FactsPackRow {
	const typed = columnsOf(facts, PACKED_FIELDS, (f, field) =>
		f[field] === undefined && field === 'reference_grounding' ? NO_REFERENCE : f[field]
	);
	// JSON keeps a plain array; a typed array would become an object keyed by position.
	const columns = {} as PackedFacts['columns'];
	for (const field of PACKED_FIELDS) {
		columns[field] = { values: typed[field].values, index: Array.from(typed[field].index) };
	}
	const packed: PackedFacts = { n: facts.length, columns };
	return { run_id: runId, format: PACK_FORMAT, facts: JSON.stringify(packed) };
}

/** The packed columns, or undefined for a row in another format (a cache from an older version). */
function readPack(row: FactsPackRow): PackedFacts | undefined {
	return row.format === PACK_FORMAT ? (JSON.parse(row.facts) as PackedFacts) : undefined;
}

/** The pack's facts, or undefined for a row in another format. */
export function unpackFacts(row: FactsPackRow): RecordFacts[] | undefined {
	const pack = readPack(row);
	if (pack === undefined) return undefined;
	const { n, columns } = pack;
	const out: RecordFacts[] = new Array<RecordFacts>(n);
	const c = columns;
	const at = <F extends PackedField>(field: F, i: number) => valueAt(c[field], i) as RecordFacts[F];
	for (let i = 0; i < n; i++) {
		out[i] = {
			run_id: row.run_id,
			key: at('key', i),
			item_id: at('item_id', i),
			temperature: at('temperature', i),
			perturbation: at('perturbation', i),
			sample: at('sample', i),
			label: at('label', i),
			verdict: at('verdict', i),
			label_source: at('label_source', i),
			rule_label: at('rule_label', i),
			judge_label: at('judge_label', i),
			correct: at('correct', i),
			finish_reason: at('finish_reason', i),
			reference_grounding: referenceOf(valueAt(c.reference_grounding, i)),
			answer_cut: at('answer_cut', i)
		};
	}
	return out;
}

/**
 * The facts of one record: a projection, so it can never disagree with it, and the one fact
 * derived from it (answer_cut) by the function every shell counts by.
 */
export function recordFacts(r: ProbeRecord): RecordFacts {
	return {
		run_id: r.run_id,
		key: r.key,
		item_id: r.item_id,
		temperature: r.temperature,
		perturbation: r.perturbation,
		sample: r.sample,
		label: r.label,
		// null for a record stored before verdicts were kept, as the pack (JSON) would make it.
		verdict: r.verdict ?? null,
		label_source: r.label_source,
		rule_label: r.rule_label,
		judge_label: r.judge_label,
		correct: r.correct,
		finish_reason: r.finish_reason,
		reference_grounding: r.reference_grounding,
		answer_cut: answerCutOf(r)
	};
}

function referenceOf(packed: unknown): RecordFacts['reference_grounding'] {
	return packed === NO_REFERENCE || packed === undefined
		? undefined
		: (packed as RecordFacts['reference_grounding']);
}
