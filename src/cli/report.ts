/**
 * `summarize` and `agreement`: their flags and the tables they print. summarize prints the results
 * view's table (results/resultsTable.ts) as text, JSON or CSV (reportCsv.ts); the runs it counts
 * are read by readRun.ts.
 */
import { parseArgs } from 'node:util';
import type { Annotation } from '../lib/probe/exchange.ts';
import { collectLabelings, collectVerdicts, pairwiseAgreement } from '../lib/stats/agreement.ts';
import type { ReferenceTally } from '../lib/results/referenceShare.ts';
import type { RunSummary } from '../lib/results/study.ts';
import { pValueText } from '../lib/display/format.ts';
import {
	COUNT_DEFAULTS,
	type CountOptions,
	type ResultsTable
} from '../lib/results/resultsTable.ts';
import { NO_RATE, NO_RATE_REASON, tableSentences } from '../lib/results/plainWords.ts';
import { count } from '../lib/display/plural.ts';
import { kappaWarning } from '../lib/stats/smallSample.ts';
import type { ReportRecord } from './readRun.ts';
import { resultsCsv } from './reportCsv.ts';

export const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');
const num = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');

/** Fixed-width table: first column left-aligned, the rest right-aligned. */
export function table(header: string[], rows: string[][]): string {
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
	return (
		[line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n'
	);
}

export type SummaryFormat = 'text' | 'json' | 'csv';

export const SUMMARIZE_USAGE = `Usage: user-turn-probe summarize FILE... [--json | --csv] [--include-cut-answers] [--include-cut-reasoning]

The results view's table: accuracy and genuine follow-up rates (from the binary verdicts) with 95% CIs,
per condition and for the whole run, with the same defaults as the app.
With several files (one run per model, say): the study view's table, one row per model × condition,
with each perturbation's paired effect against "none" and the label shares.
  --json                    every number as JSON (for tables over many runs)
  --csv                     one row per condition and a last row "all"
  --include-cut-answers     count answers cut at the answer token limit in accuracy (default: left out)
  --include-cut-reasoning   count the probes of answers cut while still reasoning (empty answers)
                            in follow-up rates (default: left out)
Turns the rules left undecided (--judge-mode rules) are counted in "undecided", never in the rate.
Runs whose items carry the person's real next turn (oasst_threads, conversations with a
reference_turn) add a table, this app's measure, not the paper's: on unperturbed records, how often
the judge rated the generated turn more grounded in the answer than the human's, and ties apart.
Which answers were cut: each record says (its answer_finish_reason), and the answers file beside
FILE (FILE.answers.jsonl) wins where it holds the item, so FILE counts the same without it. FILE
may also be a whole-run file (.run.jsonl, what the app's Share makes).`;

export interface SummarizeArgs {
	/** One file: the run's table; several: the study table. */
	files: string[];
	format: SummaryFormat;
	options: CountOptions;
}

/** @throws Error with a message for the user when the flags are wrong. */
export function parseSummarizeArgs(argv: string[]): SummarizeArgs {
	const { values, positionals } = parseArgs({
		args: argv,
		allowPositionals: true,
		options: {
			json: { type: 'boolean' },
			csv: { type: 'boolean' },
			'include-cut-answers': { type: 'boolean' },
			'include-cut-reasoning': { type: 'boolean' }
		}
	});
	if (positionals.length === 0) throw new Error('summarize needs a records file (.jsonl)');
	if (values.json && values.csv) throw new Error('--json and --csv: pick one');
	return {
		files: positionals,
		format: values.json ? 'json' : values.csv ? 'csv' : 'text',
		options: {
			include_cut_answers: values['include-cut-answers'] ?? COUNT_DEFAULTS.include_cut_answers,
			include_cut_reasoning: values['include-cut-reasoning'] ?? COUNT_DEFAULTS.include_cut_reasoning
		}
	};
}

/** The table as `summarize` prints it; JSON writes a rate with no records as p: null. */
export function formatSummary(t: ResultsTable | RunSummary, format: SummaryFormat): string {
	if (format === 'json') return JSON.stringify(t, null, 2) + '\n';
	if (format === 'csv') return resultsCsv(t);
	return summarizeText(t) + effectsText(t);
}

/** The paired effects of a run's perturbed conditions against 'none', with their tests. */
export function effectsText(t: ResultsTable | RunSummary): string {
	const rows = (t as Partial<RunSummary>).conditions?.flatMap((c) =>
		!c.effect
			? []
			: [
					[
						`T=${c.temperature} ${c.perturbation} − none`,
						String(c.effect.n_pairs),
						effectCell(c.effect),
						pValueText(c.effect.p_value),
						pValueText(c.effect.p_adjusted)
					]
				]
	);
	if (!rows || rows.length === 0) return '';
	const head = ['paired effect', 'pairs', 'difference (95% CI)', 'p (exact)', 'p (Holm)'];
	return `\n${table(head, rows)}`;
}

const signedPoints = (x: number) =>
	Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} pp` : '—';

/** "−20.0 pp [−40.0 pp, −5.0 pp]". */
export const effectCell = (e: { diff: number; lo: number; hi: number }) =>
	`${signedPoints(e.diff)} [${signedPoints(e.lo)}, ${signedPoints(e.hi)}]`;

export const rateCell = (r: ResultsTable['overall']['followup']) =>
	r === null ? NO_RATE : `${pct(r.p)} [${pct(r.lo)}, ${pct(r.hi)}] n=${r.n}`;

export function summarizeText(t: ResultsTable): string {
	const row = (name: string, s: ResultsTable['overall']) => [
		name,
		String(s.n),
		rateCell(s.accuracy),
		rateCell(s.followup),
		String(s.undecided),
		String(s.judge_errors),
		String(s.verdict_conflicts),
		String(s.pending),
		String(s.cut_reasoning)
	];
	const rows = [
		...t.conditions.map((s) => row(`T=${s.temperature} ${s.perturbation}`, s)),
		row('all', t.overall)
	];
	const body = table(
		[
			'condition',
			'records',
			'accuracy (95% CI)',
			'genuine follow-up (95% CI)',
			'undecided',
			'judge errors',
			'verdict conflicts',
			'pending',
			'cut in reasoning'
		],
		rows
	);
	const plain = tableSentences(t).map((line) => `${line}\n`);
	return body + notes(t).join('') + referenceText(t) + '\n' + plain.join('');
}

/**
 * This app's reference measure, for runs whose items carry the human's next turn: per unperturbed
 * condition and for the whole run, how the judge compared the generated turns with the human's,
 * ties apart; labelled as this app's, not the paper's (results/referenceShare.ts says why).
 */
export function referenceText(t: ResultsTable): string {
	const ref = t.reference;
	if (!ref) return '';
	const row = (name: string, r: ReferenceTally) => [
		name,
		String(r.records),
		rateCell(r.more_grounded),
		rateCell(r.as_grounded),
		String(r.reference),
		String(r.uncompared)
	];
	const body = table(
		[
			'condition',
			'with reference',
			'more grounded (95% CI)',
			'tie (95% CI)',
			'human more grounded',
			'not compared'
		],
		[
			...ref.conditions.map((r) => row(`T=${r.temperature} ${r.perturbation}`, r)),
			row('all', ref.overall)
		]
	);
	const notes = [
		ref.overall.records > 0 && ref.overall.uncompared === ref.overall.records
			? 'No turn was compared with the human one: that needs a judge (--judge-mode llm or hybrid).'
			: '',
		ref.perturbed_left_out > 0
			? `${ref.perturbed_left_out} perturbed record${ref.perturbed_left_out === 1 ? '' : 's'} left out: the human answered the unperturbed answer.`
			: ''
	].filter((line) => line !== '');
	return (
		"\nGenerated user turn vs the human's real next turn (judge: which is more grounded in the answer)\n" +
		`${ref.measure}\n${body}${notes.map((line) => `${line}\n`).join('')}`
	);
}

/** What the defaults left out, and how to count it, below the table. */
function notes(t: ResultsTable): string[] {
	const out: string[] = [];
	if (t.cut_answers > 0)
		out.push(
			`${count(t.cut_answers, 'answer')} cut at the answer token limit: ${
				t.options.include_cut_answers
					? 'counted in accuracy'
					: 'left out of accuracy (--include-cut-answers counts them)'
			}\n`
		);
	if (t.cut_reasoning_items > 0)
		out.push(
			`${t.cut_reasoning_items} of them cut while still reasoning (the probe saw an empty answer): ${
				t.options.include_cut_reasoning
					? 'their probes counted in follow-up rates'
					: 'their probes left out of follow-up rates (--include-cut-reasoning counts them)'
			}\n`
		);
	if (t.overall.followup === null) out.push(`${NO_RATE_REASON}\n`);
	if (t.overall.undecided > 0)
		out.push(
			`${count(t.overall.undecided, 'turn')} undecided: no rule applies and no judge was asked; not in the rate\n`
		);
	if (t.overall.verdict_conflicts > 0)
		out.push(
			`${count(t.overall.verdict_conflicts, 'verdict conflict')}: the judge gave a failure category and the verdict genuine; kept as written, counted as not genuine\n`
		);
	return out;
}

export function agreementText(records: Iterable<ReportRecord>, annotations: Annotation[]): string {
	const pairs = pairwiseAgreement(
		collectLabelings(records, annotations),
		collectVerdicts(records, annotations)
	);
	if (pairs.length === 0) return 'No two labelers labeled the same records.\n';
	// The verdict first: the paper's validated decision (docs/methodology.md).
	const rows = pairs.map((p) => [
		`${p.a} vs ${p.b}`,
		String(p.binary.n),
		`${num(p.binary.kappa)} [${num(p.binary.lo)}, ${num(p.binary.hi)}]`,
		String(p.full.n),
		`${num(p.full.kappa)} [${num(p.full.lo)}, ${num(p.full.hi)}]`,
		pct(p.full.po)
	]);
	const warnings = pairs.flatMap((p) => {
		const w = kappaWarning(Math.min(p.binary.n, p.full.n));
		return w ? [`${p.a} vs ${p.b}: ${w}\n`] : [];
	});
	return (
		table(
			[
				'labelers',
				'n verdicts',
				"Cohen's κ, genuine vs not (95% CI)",
				'n labels',
				'κ, all labels (95% CI)',
				'raw agreement, labels'
			],
			rows
		) + warnings.join('')
	);
}
