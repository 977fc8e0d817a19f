/**
 * A record's facts: the dozen small fields the results view's numbers and charts read, stored beside
 * each record in their own table. A 10,000-record run is ~30 MB of full records (prompts, answers,
 * judge output) but ~1.5 MB of facts, so the view can paint from facts and read records later.
 */
import type { ProbeRecord } from '../probe/types.ts';

export const FACT_FIELDS = [
	'run_id',
	'key',
	'item_id',
	'temperature',
	'perturbation',
	'sample',
	'label',
	'label_source',
	'rule_label',
	'judge_label',
	'correct',
	'finish_reason'
] as const;

export type RecordFacts = Pick<ProbeRecord, (typeof FACT_FIELDS)[number]>;

/**
 * All of a run's facts as one row: reading 10,000 small rows still costs IndexedDB 100-300 ms in
 * Chromium (per-value overhead), one JSON string a few ms. A cache of the facts table, valid only
 * while the run's records are unchanged: every record write deletes it in the same transaction.
 */
export interface FactsPackRow {
	run_id: string;
	/** JSON of the run's RecordFacts[] in key order. */
	facts: string;
}

export function packFacts(runId: string, facts: readonly RecordFacts[]): FactsPackRow {
	return { run_id: runId, facts: JSON.stringify(facts) };
}

export function unpackFacts(row: FactsPackRow): RecordFacts[] {
	return JSON.parse(row.facts) as RecordFacts[];
}

/** The facts of one record: a projection, nothing computed, so it can never disagree with it. */
export function recordFacts(r: RecordFacts): RecordFacts {
	return {
		run_id: r.run_id,
		key: r.key,
		item_id: r.item_id,
		temperature: r.temperature,
		perturbation: r.perturbation,
		sample: r.sample,
		label: r.label,
		label_source: r.label_source,
		rule_label: r.rule_label,
		judge_label: r.judge_label,
		correct: r.correct,
		finish_reason: r.finish_reason
	};
}
