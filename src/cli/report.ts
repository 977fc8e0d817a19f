/**
 * `summarize` and `agreement`: read a records file (and its manifest and answers), print tables.
 * summarize prints the results view's table (results/resultsTable.ts), as text, JSON or CSV.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Papa from 'papaparse';
import type { Annotation } from '../lib/probe/exchange.ts';
import { RUN_FILE_FORMAT } from '../lib/probe/runFile.ts';
import {
	LABELS,
	REFERENCE_GROUNDINGS,
	VERDICTS,
	type FinishReason,
	type ModelRef,
	type ProbeRecord
} from '../lib/probe/types.ts';
import { collectLabelings, collectVerdicts, pairwiseAgreement } from '../lib/stats/agreement.ts';
import type { Condition, CountedRecord, Tally } from '../lib/stats/aggregate.ts';
import type { ReferenceTally } from '../lib/results/referenceShare.ts';
import type { RunSummary } from '../lib/results/study.ts';
import { pValueText } from '../lib/display/format.ts';
import {
	answerFacts,
	COUNT_DEFAULTS,
	type AnswerFacts,
	type CountOptions,
	type ResultsTable
} from '../lib/results/resultsTable.ts';
import { NO_RATE, NO_RATE_REASON, tableSentences } from '../lib/results/plainWords.ts';
import { count } from '../lib/display/plural.ts';
import { kappaWarning } from '../lib/stats/smallSample.ts';
import { KeyTable } from '../lib/probe/keyTable.ts';
import { answerCutOf, type AnswerCut } from '../lib/probe/answerCut.ts';
import { PackedRecords } from './packedRecords.ts';
import { sidecarPaths } from './jsonlStore.ts';
import { readLines, requireFile } from './lines.ts';

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

/** What `summarize` and `agreement` read of a record; each line keeps only these fields. */
export type ReportRecord = CountedRecord &
	Pick<ProbeRecord, 'run_id' | 'key' | 'rule_label' | 'judge_label' | 'reference_grounding'> & {
		/** Whether its answer was cut (answerCut.ts); a study file's full records say it by their fields. */
		answer_cut?: AnswerCut;
	};

/** The manifest's part `summarize` reads: who generated the run, on what, with which seed. */
export interface ReportManifest {
	run_id: string;
	config: {
		generator: ModelRef;
		dataset: string;
		seed: number;
		/** Who labelled, for the study's warning when runs were judged differently. */
		judge?: ModelRef;
		judge_mode?: string;
	};
}

/**
 * A run's records, last write per key: packed columns when read from a records file (a million
 * of them in ~30 MB), the bundle's own array when read from a study file.
 */
export type ReportRecords = Iterable<ReportRecord>;

export interface RunReport {
	records: ReportRecords;
	/** From the manifest beside the records, or a whole-run file's first line; undefined without. */
	manifest: ReportManifest | undefined;
	/**
	 * The answers file beside the records (or a whole-run file's manifest's answers): one per item,
	 * whether its answer was cut; [] without. Items it lacks count by their records' own cut.
	 */
	answers: AnswerFacts[];
	annotations: Annotation[];
	/** Lines that were skipped, each said with its line number. */
	problems: string[];
	/** A skipped line other than an unterminated last one (which a run still writing leaves). */
	invalid: boolean;
}

const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown) => typeof v === 'string' && v !== '';
const LABEL_SET = new Set<unknown>(LABELS);
const VERDICT_SET = new Set<unknown>(VERDICTS);
const GROUNDING_SET = new Set<unknown>(REFERENCE_GROUNDINGS);
const FINISH_SET = new Set<unknown>(['stop', 'length', 'abort', 'error'] satisfies FinishReason[]);
const CHECKS: [keyof ReportRecord, (v: unknown) => boolean][] = [
	['run_id', isStr],
	['key', isStr],
	['item_id', isStr],
	['temperature', isNum],
	['perturbation', isStr],
	['sample', isNum],
	['label', (v) => v === null || LABEL_SET.has(v)],
	['correct', (v) => v === null || typeof v === 'boolean'],
	['rule_label', (v) => LABEL_SET.has(v)],
	['judge_label', (v) => v === null || v === undefined || LABEL_SET.has(v)],
	['verdict', (v) => v === null || v === undefined || VERDICT_SET.has(v)],
	['label_source', (v) => v === null || v === undefined || v === 'rules' || v === 'judge'],
	['reference_grounding', (v) => v === null || v === undefined || GROUNDING_SET.has(v)]
];

/** A record line's answer cut, from its answer fields when they are well-formed (answerCut.ts). */
function lineAnswerCut(value: Record<string, unknown>): AnswerCut {
	const { answer_finish_reason, answer } = value;
	if (!FINISH_SET.has(answer_finish_reason) || typeof answer !== 'string') return null;
	return answerCutOf({ answer_finish_reason: answer_finish_reason as FinishReason, answer });
}

/** An answer's facts from one answers-file line or manifest entry; undefined when it is not one. */
export function answerFactsOf(value: unknown): AnswerFacts | undefined {
	const a = value as Record<string, unknown> | null;
	if (typeof a?.item_id !== 'string' || typeof a.answer !== 'string') return undefined;
	if (!FINISH_SET.has(a.finish_reason)) return undefined;
	const finish_reason = a.finish_reason as FinishReason;
	return answerFacts({ item_id: a.item_id, finish_reason, answer: a.answer });
}

/** The answers file's items, or undefined when there is none; unreadable lines are skipped. */
async function readAnswers(file: string): Promise<Map<string, AnswerFacts> | undefined> {
	if (!existsSync(file)) return undefined;
	const out = new Map<string, AnswerFacts>();
	for await (const line of readLines(file)) {
		try {
			const a = answerFactsOf(JSON.parse(line.text));
			if (a) out.set(a.item_id, a);
		} catch {
			// A torn or foreign line: the records' own answer fields stand in for it.
		}
	}
	return out;
}

/**
 * Read a records file line by line (any size) and never write it: a run may be appending to it,
 * and a last line without its newline may be a whole record of a hand-edited or foreign file.
 * `keys`: keep each record's key (agreement pairs by it); without, records carry key ''.
 * @throws MissingFileError when the file does not exist.
 */
export async function readRun(file: string, opts: { keys?: boolean } = {}): Promise<RunReport> {
	requireFile(file, 'records file');
	// Last write per key wins, in the order keys first came: a key's place in `records` is its
	// index in `keys`. A million records hold packed facts and a KeyTable, no string per key.
	const keys = new KeyTable();
	const records = new PackedRecords(opts.keys);
	const intern = interner();
	const answers = new Map<string, AnswerFacts>();
	const problems: string[] = [];
	let invalid = false;
	/** A whole-run file (what Share makes) carries its manifest on its first line. */
	let header: Record<string, unknown> | undefined;
	for await (const line of readLines(file)) {
		if (line.text.trim() === '') continue;
		if (line.number === 1 && line.text.includes(RUN_FILE_FORMAT)) {
			header = runFileManifest(line.text);
			if (header) continue;
		}
		let value: Record<string, unknown>;
		try {
			value = JSON.parse(line.text) as Record<string, unknown>;
			if (typeof value !== 'object' || value === null || Array.isArray(value))
				throw new Error('not an object');
		} catch {
			if (!line.terminated) {
				problems.push(`line ${line.number}: incomplete last line (a run still writing?), skipped`);
				continue;
			}
			problems.push(`line ${line.number}: not a JSON object, skipped`);
			invalid = true;
			continue;
		}
		const bad = CHECKS.filter(([field, ok]) => !ok(value[field])).map(([field]) => field);
		if (bad.length > 0) {
			const what = bad.map((f) => (f in value ? `${f} (invalid)` : f)).join(', ');
			problems.push(`line ${line.number}: missing ${what}, skipped`);
			invalid = true;
			continue;
		}
		const r: ReportRecord = {
			run_id: intern(value.run_id) as string,
			key: value.key as string,
			item_id: intern(value.item_id) as string,
			temperature: value.temperature as number,
			perturbation: intern(value.perturbation) as ReportRecord['perturbation'],
			sample: value.sample as number,
			label: intern(value.label) as ReportRecord['label'],
			verdict: intern(value.verdict ?? null) as ReportRecord['verdict'],
			label_source: intern(value.label_source ?? null) as ReportRecord['label_source'],
			correct: value.correct as boolean | null,
			rule_label: intern(value.rule_label) as ReportRecord['rule_label'],
			judge_label: intern(value.judge_label ?? null) as ReportRecord['judge_label'],
			answer_cut: lineAnswerCut(value),
			// Absent (not null) on a record without a reference turn: it is not part of the share.
			...(value.reference_turn === undefined
				? {}
				: {
						reference_grounding: intern(
							value.reference_grounding ?? null
						) as ReportRecord['reference_grounding']
					})
		};
		records.set(keys.add(`${r.run_id}\u0000${r.key}`), r);
	}
	const paths = sidecarPaths(file);
	for (const [item, answer] of (await readAnswers(paths.answers)) ?? []) answers.set(item, answer);
	const manifestPath = paths.manifest;
	const manifest =
		header ??
		(existsSync(manifestPath)
			? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>)
			: undefined);
	if (header) for (const a of manifestAnswers(header)) answers.set(a.item_id, a);
	return {
		records,
		manifest: reportManifest(manifest),
		answers: [...answers.values()],
		annotations: (manifest?.annotations as Annotation[] | undefined) ?? [],
		problems,
		invalid
	};
}

/**
 * One copy of each distinct string (a run id, an item id, a label): JSON.parse makes a new
 * one per line, and a million records would hold a million copies of a few thousand strings.
 */
function interner(): (value: unknown) => unknown {
	const pool = new Map<string, string>();
	return (value) => {
		if (typeof value !== 'string') return value;
		const had = pool.get(value);
		if (had !== undefined) return had;
		pool.set(value, value);
		return value;
	};
}

/** The manifest of a whole-run file's first line, or undefined when the line is not one. */
function runFileManifest(text: string): Record<string, unknown> | undefined {
	try {
		const head = JSON.parse(text) as Record<string, unknown>;
		const manifest = head.format === RUN_FILE_FORMAT ? head.manifest : undefined;
		return typeof manifest === 'object' && manifest !== null
			? (manifest as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

/** The answers a whole-run file's manifest carries (the CLI keeps them in a file beside). */
function manifestAnswers(manifest: Record<string, unknown>): AnswerFacts[] {
	const answers = Array.isArray(manifest.answers) ? (manifest.answers as unknown[]) : [];
	return answers.flatMap((a) => answerFactsOf(a) ?? []);
}

/** The manifest's identity fields, when they are all there and of the right type. */
export function reportManifest(m: Record<string, unknown> | undefined): ReportManifest | undefined {
	const config = m?.config as Record<string, unknown> | undefined;
	const generator = config?.generator as ModelRef | undefined;
	if (typeof m?.run_id !== 'string' || typeof generator?.id !== 'string') return undefined;
	const dataset = typeof config?.dataset === 'string' ? config.dataset : '';
	const seed = typeof config?.seed === 'number' ? config.seed : 0;
	const judge = config?.judge as ModelRef | undefined;
	const judge_mode = typeof config?.judge_mode === 'string' ? config.judge_mode : undefined;
	return {
		run_id: m.run_id,
		config: {
			generator,
			dataset,
			seed,
			...(typeof judge?.id === 'string' ? { judge } : {}),
			...(judge_mode ? { judge_mode } : {})
		}
	};
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
