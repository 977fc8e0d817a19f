/**
 * `summarize a.jsonl b.jsonl …`: the study table (results/study.ts) over several run files, as
 * text, JSON or CSV. Rows are model × condition with the same numbers as the study view.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import Papa from 'papaparse';
import { ExchangeError, type RunBundle } from '../lib/probe/exchange.ts';
import {
	isStudyFile,
	parseStudyFile,
	STUDY_FILE_SUFFIX,
	studyRunBundles
} from '../lib/probe/studyFile.ts';
import type { AnswerFacts } from '../lib/results/resultsTable.ts';
import { LABEL_INFO } from '../lib/probe/labels.ts';
import { LABELS } from '../lib/probe/types.ts';
import { pValueText } from '../lib/display/format.ts';
import { labelShares, studyRunOf, type Study, type StudyRun } from '../lib/results/study.ts';
import { studyMixWarnings, studySettingsOf } from '../lib/results/studyMix.ts';
import { realPath } from './realPath.ts';
import { answerFactsOf, readRun, reportManifest, type RunReport } from './readRun.ts';
import { finite, tallyCells, TALLY_FIELDS } from './reportCsv.ts';
import { pct, rateCell, table, type SummaryFormat } from './report.ts';

/**
 * A run file read by `readRun` as a study's run. Without a manifest the file's name stands for
 * the model and the seed is 0 (the paired bootstrap's only input it changes), and `warn` says so.
 */
export function studyRunOfReport(
	file: string,
	report: RunReport,
	warn: (line: string) => void
): StudyRun {
	const { records, answers } = report;
	if (report.manifest) return studyRunOf(report.manifest, records, answers);
	warn(`${file}: no manifest beside it; the file name stands for the model, and the seed is 0`);
	const name = file.replace(/^.*[\\/]/, '').replace(/(\.run)?\.jsonl$/i, '');
	const [first] = records;
	const run_id = first?.run_id ?? name;
	return { run_id, generator: { id: name }, dataset: '', seed: 0, records, answers };
}

/** One run `summarize` reads: a records file, or one run of a one-file study. */
export interface RunSource {
	/** The file, or "FILE, run N" for a run inside a one-file study: what its warnings name. */
	file: string;
	read: () => Promise<RunReport>;
}

/**
 * The study's runs from the files as listed: a file listed twice (by its real path: a link, a
 * study list naming a file also given on the command line) counts once, and `warn` says so and
 * what the runs do not share (results/studyMix.ts), as the study view does.
 */
export function studyRunsOfReports(
	files: readonly string[],
	reports: readonly RunReport[],
	warn: (line: string) => void
): StudyRun[] {
	const seen = new Map<string, string>();
	const kept: { file: string; report: RunReport }[] = [];
	files.forEach((file, i) => {
		const real = realPath(file);
		const first = seen.get(real);
		if (first !== undefined) {
			warn(`warning: ${file} is listed twice (as ${first}); it counts once`);
			return;
		}
		seen.set(real, file);
		kept.push({ file, report: reports[i] });
	});
	const settings = kept.flatMap(({ report }) =>
		report.manifest ? [studySettingsOf(report.manifest)] : []
	);
	for (const line of studyMixWarnings(settings)) warn(`warning: ${line}`);
	return kept.map(({ file, report }) => studyRunOfReport(file, report, warn));
}

/**
 * A study file as its runs: a list (`.study.json`, what a sweep writes beside its runs) as its run
 * files, resolved beside it; a one-file study (`.study.jsonl`, the sweep's other file or the app's
 * Share) as the runs inside it, each checked as the app's Import checks it. Any other file is
 * itself. `keys`: keep each record's key (readRun), for `agreement`.
 * @throws ExchangeError when the study file, or a run inside it, is not valid.
 */
export function runSources(file: string, opts: { keys?: boolean } = {}): RunSource[] {
	const itself = [{ file, read: () => readRun(file, opts) }];
	if (!file.endsWith('.study.json') && !file.endsWith(STUDY_FILE_SUFFIX)) return itself;
	const text = readFileSync(file, 'utf8');
	if (!isStudyFile(text)) return itself;
	const study = parseStudyFile(text);
	if (study.kind === 'links') {
		// An address is not a file beside the list: say so, rather than read "https:/…" as a path.
		const url = study.links.find((link) => /^[a-z][a-z0-9+.-]+:/i.test(link));
		if (url !== undefined)
			throw new ExchangeError([
				`${file} lists ${url}, a web address: summarize reads files, so download the runs beside the list (or open the study by its link in the app)`
			]);
		return study.links.map((link) => {
			const path = resolve(dirname(file), link);
			return { file: path, read: () => readRun(path, opts) };
		});
	}
	return studyRunBundles(study.runs, basename(file)).map((bundle, i) => ({
		file: `${file}, run ${i + 1}`,
		read: async () => reportOfBundle(bundle)
	}));
}

/**
 * A run read from a study file as `readRun` reads a whole-run file: the bundle's answers; its full
 * records say their own cuts for items the answers lack (answerCutOf).
 */
function reportOfBundle(b: RunBundle): RunReport {
	const answers = new Map<string, AnswerFacts>();
	for (const a of b.answers ?? []) {
		const facts = answerFactsOf(a);
		if (facts) answers.set(facts.item_id, facts);
	}
	return {
		records: b.records,
		manifest: reportManifest(b.manifest as unknown as Record<string, unknown>),
		answers: [...answers.values()],
		annotations: b.annotations ?? [],
		problems: [],
		invalid: false
	};
}

const points = (x: number) =>
	Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)} pp` : '—';

export function studyText(s: Study): string {
	const effect = (r: Study['rows'][number]) =>
		r.effect === null
			? ''
			: `${points(r.effect.diff)} [${points(r.effect.lo)}, ${points(r.effect.hi)}] ${r.effect.n_pairs} pairs, p ${pValueText(r.effect.p_value)}, Holm ${pValueText(r.effect.p_adjusted)}`;
	const main = table(
		[
			'model',
			'condition',
			'records',
			'accuracy (95% CI)',
			'genuine follow-up (95% CI)',
			'vs none, paired (95% CI)'
		],
		s.rows.map((r) => [
			r.model,
			`T=${r.temperature} ${r.perturbation}`,
			String(r.n),
			rateCell(r.accuracy),
			rateCell(r.followup),
			effect(r)
		])
	);
	const used = LABELS.filter((l) => s.rows.some((r) => r.labels[l] > 0));
	const shares = table(
		['model', 'condition', ...used.map((l) => LABEL_INFO[l].title)],
		s.rows.map((r) => [
			r.model,
			`T=${r.temperature} ${r.perturbation}`,
			...used.map((l) => pct(r.label_shares[l]))
		])
	);
	return `${main}\nLabel shares (of the labelled turns counted):\n${shares}${notes(s)}`;
}

/** What the defaults left out, per model, and what overlapping intervals cannot tell. */
function notes(s: Study): string {
	const out = s.models
		.filter((m) => m.cut_answers > 0)
		.map(
			(m) =>
				`${m.name}: ${m.cut_answers} answer(s) cut at the token limit (${m.cut_reasoning_items} while reasoning)${
					s.options.include_cut_answers ? '' : ', left out of accuracy'
				}\n`
		);
	out.push(
		'Runs are independent samples: where two models’ intervals overlap, these runs cannot tell them apart.\n'
	);
	return '\n' + out.join('');
}

/**
 * One CSV row per model × condition and a row "all" per model: the single-run columns
 * (TALLY_FIELDS), then the paired effect against 'none' and each label's share.
 */
export function studyCsv(s: Study): string {
	const fields = [
		'model',
		'run_id',
		'dataset',
		'temperature',
		'perturbation',
		...TALLY_FIELDS,
		...['effect', 'effect_lo', 'effect_hi', 'effect_pairs', 'effect_items'],
		...['effect_p', 'effect_p_holm'],
		...LABELS.map((l) => `share_${l}`)
	];
	const data = s.models.flatMap((m) => {
		const head = [m.name, m.run_id, m.dataset];
		const rows = s.rows.filter((r) => r.run_id === m.run_id && r.model === m.name);
		return [
			...rows.map((r) => {
				const e = r.effect;
				return [
					...head,
					r.temperature,
					r.perturbation,
					...tallyCells(r),
					...(e ? [e.diff, e.lo, e.hi].map(finite).concat([e.n_pairs, e.n_items]) : blank(5)),
					...(e ? [e.p_value, e.p_adjusted].map(finite) : blank(2)),
					...LABELS.map((l) => finite(r.label_shares[l]))
				];
			}),
			[
				...head,
				'all',
				'all',
				...tallyCells(m.overall),
				...blank(7),
				...LABELS.map((l) => finite(labelShares(m.overall.labels)[l]))
			]
		];
	});
	return Papa.unparse({ fields, data }, { newline: '\n' }) + '\n';
}

const blank = (n: number): string[] => new Array<string>(n).fill('');

/** JSON writes every NaN as null, as the single-run summary does. */
export function formatStudy(s: Study, format: SummaryFormat): string {
	if (format === 'json') return JSON.stringify(s, null, 2) + '\n';
	if (format === 'csv') return studyCsv(s);
	return studyText(s);
}
