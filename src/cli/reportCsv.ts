/**
 * `summarize --csv`: the results table as CSV, one row per condition and a last row "all", and the
 * cells of one tally that the study table's CSV (studyReport.ts) reuses.
 */
import Papa from 'papaparse';
import { LABELS } from '../lib/probe/types.ts';
import type { Condition, Tally } from '../lib/stats/aggregate.ts';
import type { ReferenceTally } from '../lib/results/referenceShare.ts';
import { type ResultsTable } from '../lib/results/resultsTable.ts';

const rateFields = (name: string) => [name, `${name}_lo`, `${name}_hi`, `${name}_k`, `${name}_n`];

/** The CSV columns of one tally (a condition, or a whole run), after its condition's two. */
export const TALLY_FIELDS: readonly string[] = [
	'records',
	...rateFields('accuracy'),
	...rateFields('followup'),
	'judged',
	'pending',
	'undecided',
	'cut_reasoning',
	'judge_errors',
	'verdict_conflicts',
	...LABELS.map((l) => `label_${l}`)
];

/** One tally's CSV cells in TALLY_FIELDS order; a rate with no records is empty. */
export function tallyCells(t: Tally): (number | string)[] {
	const r = (x: Tally['followup']) =>
		x === null ? ['', '', '', '', ''] : [x.p, x.lo, x.hi, x.k, x.n].map(finite);
	return [
		t.n,
		...r(t.accuracy),
		...r(t.followup),
		t.judged,
		t.pending,
		t.undecided,
		t.cut_reasoning,
		t.judge_errors,
		t.verdict_conflicts,
		...LABELS.map((l) => t.labels[l])
	];
}

/**
 * One CSV row per condition and a last row "all" for the whole run; rates as fractions, a rate
 * with no records empty, then the count of each label (label_<id>).
 */
export function resultsCsv(table: ResultsTable): string {
	const ref = table.reference;
	const fields = ['temperature', 'perturbation', ...TALLY_FIELDS, ...(ref ? REFERENCE_FIELDS : [])];
	const refCells = (c: Condition | undefined) => {
		if (!ref) return [];
		const t = c
			? ref.conditions.find(
					(r) => r.temperature === c.temperature && r.perturbation === c.perturbation
				)
			: ref.overall;
		return t ? referenceCells(t) : REFERENCE_FIELDS.map(() => '');
	};
	const data = [
		...table.conditions.map((c) => [
			c.temperature,
			c.perturbation,
			...tallyCells(c),
			...refCells(c)
		]),
		['all', 'all', ...tallyCells(table.overall), ...refCells(undefined)]
	];
	return Papa.unparse({ fields, data }, { newline: '\n' }) + '\n';
}

/** The CSV columns of the reference share, present only for runs whose items carry references. */
export const REFERENCE_FIELDS: readonly string[] = [
	'reference_records',
	'reference_generated',
	'reference_reference',
	'reference_tie',
	'reference_uncompared',
	...rateFields('more_grounded'),
	...rateFields('as_grounded')
];

function referenceCells(t: ReferenceTally): (number | string)[] {
	const rate = (r: ReferenceTally['more_grounded']) => [r.p, r.lo, r.hi, r.k, r.n].map(finite);
	return [
		t.records,
		t.generated,
		t.reference,
		t.tie,
		t.uncompared,
		...rate(t.more_grounded),
		...rate(t.as_grounded)
	];
}

export const finite = (x: number) => (Number.isFinite(x) ? x : '');
