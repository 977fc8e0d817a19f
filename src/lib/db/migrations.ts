/**
 * Schema history. Dexie needs every version it may meet in a visitor's browser, so old versions stay
 * here even after nothing writes them. Upgrades migrate rows in place; they never drop user data.
 */
import type { Transaction } from 'dexie';
import { answerCutOf, type AnswerCut } from '../probe/answerCut.ts';
import type { ProbeRecord, RunManifest } from '../probe/types.ts';
import { recordFacts } from './facts.ts';
import type { RecordFacts } from './facts.ts';

/**
 * Version 1, the first prototype: runs kept their status only inside the manifest, records were
 * written before `label_source` existed, and there were no annotations or benchmarks.
 */
export const SCHEMA_V1 = {
	runs: 'run_id, created_at',
	records: '[run_id+key], run_id',
	answers: '[run_id+item_id]',
	datasets: 'key',
	templates: 'repo'
} as const;

/**
 * Version 2. Runs carry status and updated_at as indexed columns (the runs list sorts and
 * filters on them); records are indexed per run by the columns the results views filter on.
 */
export const SCHEMA_V2 = {
	runs: 'run_id, status, created_at, updated_at',
	records:
		'[run_id+key], run_id, [run_id+label], [run_id+temperature], [run_id+perturbation], [run_id+item_id]',
	answers: '[run_id+item_id], run_id',
	annotations: '++id, run_id, [run_id+key], annotator, [run_id+annotator], [run_id+key+annotator]',
	datasets: 'key, fetched_at',
	templates: 'repo, fetched_at',
	benchmarks: '++id, created_at, model_id'
} as const;

/** What a v1 row looked like (the fields v2 adds are absent). */
export interface RunRowV1 {
	run_id: string;
	manifest: RunManifest;
	created_at: string;
}
export type ProbeRecordV1 = Omit<ProbeRecord, 'label_source'> & {
	label_source?: ProbeRecord['label_source'];
};

/**
 * Which labeller decided a v1 record. v1 did not store it, but it can be recovered: a label equal
 * to the judge's label came from the judge; any other label was decided by the rules (hybrid mode
 * only calls the judge when the rules are undecided, so a judged record always has judge_label).
 */
export function deriveLabelSource(r: ProbeRecordV1): ProbeRecord['label_source'] {
	if (r.label === null) return null;
	return r.judge_label !== null && r.judge_label === r.label ? 'judge' : 'rules';
}

/** v1 → v2: lift run status out of the manifest and fill in each record's label_source. */
export async function upgradeToV2(tx: Transaction): Promise<void> {
	await tx
		.table<RunRowV1 & { status?: string; updated_at?: string }>('runs')
		.toCollection()
		.modify((row) => {
			row.status ??= row.manifest?.status ?? 'done';
			row.updated_at ??= row.created_at;
		});
	await tx
		.table<ProbeRecordV1>('records')
		.toCollection()
		.modify((r) => {
			if (r.label_source === undefined) r.label_source = deriveLabelSource(r);
		});
}

/**
 * Version 3: each record's facts (see facts.ts) in their own table, keyed like records, so
 * the results view paints without reading ~30 MB of full records first; and one packed copy of a
 * run's facts, rebuilt on read after any record write deletes it.
 */
export const SCHEMA_V3 = {
	...SCHEMA_V2,
	facts: '[run_id+key], run_id',
	factPacks: 'run_id'
} as const;

/**
 * Version 4: records and facts are found by run through their primary key's run_id
 * prefix, and filtered on temperature, perturbation or item from the facts; of their indexes only
 * [run_id+label] is left (label and pending counts). Every record write keeps 2 index entries up
 * instead of 6, and its facts 1 instead of 2. Dexie drops the removed indexes; no data changes.
 */
export const SCHEMA_V4 = {
	...SCHEMA_V3,
	records: '[run_id+key], [run_id+label]',
	facts: '[run_id+key]'
} as const;

/** v2 → v3: one facts row per stored record. */
export async function upgradeToV3(tx: Transaction): Promise<void> {
	const facts: RecordFacts[] = [];
	await tx
		.table<ProbeRecord>('records')
		.toCollection()
		.each((r) => {
			facts.push(recordFacts(r));
		});
	await tx.table<RecordFacts>('facts').bulkPut(facts);
}

/**
 * Version 5: a run's own items and chat template in their own table. They used to sit in
 * the dataset and template caches under "run:<id>" keys, so clearing a cache took every stored
 * run's offline resume with it, and deleting a run left them behind.
 */
export const SCHEMA_V5 = {
	...SCHEMA_V4,
	runInputs: 'run_id'
} as const;

const RUN_KEY_PREFIX = 'run:';

/** v4 → v5: move every run's "run:<id>" dataset and template rows into runInputs. */
export async function upgradeToV5(tx: Transaction): Promise<void> {
	const datasets = tx.table<{ key: string; items: unknown[]; fetched_at: string }>('datasets');
	const templates = tx.table<{ repo: string; template: string; sha256: string }>('templates');
	const items = await datasets.where('key').startsWith(RUN_KEY_PREFIX).toArray();
	const texts = await templates.where('repo').startsWith(RUN_KEY_PREFIX).toArray();
	const templateOf = new Map(texts.map((t) => [t.repo.slice(RUN_KEY_PREFIX.length), t]));
	const rows = items.flatMap((d) => {
		const runId = d.key.slice(RUN_KEY_PREFIX.length);
		const t = templateOf.get(runId);
		// A half-written pair never happened (one transaction wrote both); skip it if it did.
		return t
			? [{ run_id: runId, items: d.items, template: t.template, created_at: d.fetched_at }]
			: [];
	});
	await tx.table('runInputs').bulkPut(rows);
	await datasets.where('key').startsWith(RUN_KEY_PREFIX).delete();
	await templates.where('repo').startsWith(RUN_KEY_PREFIX).delete();
}

/**
 * Version 6 (current): each record's facts say whether its answer was cut (facts.ts answer_cut), so
 * a run imported without its answers counts its cut answers as `summarize` does. No index changes.
 */
export const SCHEMA_V6 = SCHEMA_V5;

/**
 * v5 → v6: every stored fact gets its record's answer cut (null when not cut, or when the record is
 * too old to say), read from the record itself; only the cut ones are held meanwhile.
 */
export async function upgradeToV6(tx: Transaction): Promise<void> {
	const cuts = new Map<string, AnswerCut>();
	const id = (r: { run_id: string; key: string }) => `${r.run_id}\u0000${r.key}`;
	await tx
		.table<ProbeRecord>('records')
		.toCollection()
		.each((r) => {
			const cut = answerCutOf(r);
			if (cut !== null) cuts.set(id(r), cut);
		});
	await tx
		.table<RecordFacts>('facts')
		.toCollection()
		.modify((f) => {
			f.answer_cut = cuts.get(id(f)) ?? null;
		});
}
