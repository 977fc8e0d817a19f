/**
 * Reading a run for `summarize`, `agreement` and the study table: a records file line by line
 * (any size; with its answers file beside it) or a whole-run file (.run.jsonl, its manifest and
 * answers on the first line), keeping only the fields the reports count.
 */
import { existsSync, readFileSync } from 'node:fs';
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
import type { CountedRecord } from '../lib/stats/aggregate.ts';
import { answerFacts, type AnswerFacts } from '../lib/results/resultsTable.ts';
import { KeyTable } from '../lib/probe/keyTable.ts';
import { answerCutOf, type AnswerCut } from '../lib/probe/answerCut.ts';
import { PackedRecords } from './packedRecords.ts';
import { sidecarPaths } from './jsonlStore.ts';
import { readLines, requireFile } from './lines.ts';

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
