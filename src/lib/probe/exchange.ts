/**
 * The run exchange format, shared by the web app and the CLI so a run moves between them unchanged:
 * - records: JSONL, one ProbeRecord per line, keys in a stable order;
 * - manifest: one JSON object, the RunManifest plus the run's `answers` and `annotations` arrays.
 *
 * Reading is strict and all-or-nothing: every known field is type-checked and the first problems
 * (with line numbers) are reported together, so a person can fix a file in one pass.
 * Forward compatible: fields this version does not know are KEPT (a file from a newer version
 * survives a round trip through an older one). Secrets (api_key and friends) are stripped, at any
 * depth, from everything this module writes or reads: a run export must be safe to share, and a
 * key pasted into a hand-edited file must not end up stored.
 */
import { AppError } from '../errors/appError.ts';
import Papa from 'papaparse';
import {
	ANNOTATION,
	ANSWER,
	checkShape,
	isObject,
	MANIFEST,
	ordered,
	RECORD,
	USAGE
} from './exchangeShapes.ts';
import type { AnswerRecord, HumanVerdict, Label, ProbeRecord, RunManifest } from './types.ts';

/** A human label on one generated user turn (the annotation view writes these). */
export interface Annotation {
	run_id: string;
	/** The record's key within the run. */
	key: string;
	annotator: string;
	label: Label;
	/**
	 * The annotator's binary decision, given with the category (a failure category is not genuine;
	 * a plausible follow-up is either). Absent in labels given before it was asked: such a label's
	 * verdict is unknown, and it is left out of the verdict's agreement, never guessed from the
	 * category.
	 */
	verdict?: HumanVerdict;
	created_at: string;
	/** Groups one sitting, so undo and agreement can be scoped to it. */
	session_id?: string;
}

/** Everything one run consists of: what export writes and import reads. */
export interface RunBundle {
	manifest: RunManifest;
	records: ProbeRecord[];
	answers?: AnswerRecord[];
	annotations?: Annotation[];
}

/** A file (or bundle) failed validation; `problems` lists each one, e.g. "line 12: field …". */
export class ExchangeError extends AppError {
	readonly problems: string[];
	constructor(problems: string[]) {
		const shown = problems.slice(0, 3).join('; ');
		const more = problems.length > 3 ? ` (and ${problems.length - 3} more)` : '';
		super(`Invalid run data: ${shown}${more}`, { code: 'exchange' });
		this.name = 'ExchangeError';
		this.problems = problems;
	}
}

/** Enough to fix a file in one pass without drowning in 10,000 copies of the same mistake. */
export const MAX_PROBLEMS = 20;

/** Problems with one record, [] if it is a valid ProbeRecord. Unknown extra fields are allowed. */
export function validateRecord(x: unknown): string[] {
	const problems = checkShape(x, RECORD);
	// A comparison with no reference turn compared nothing: the file was edited or is broken.
	if (problems.length === 0 && isObject(x) && x.reference_turn === undefined) {
		if (x.reference_grounding !== undefined && x.reference_grounding !== null) {
			problems.push('field reference_grounding needs a reference_turn');
		}
	}
	return problems;
}

/** Problems with a manifest, [] if it is a valid RunManifest. Unknown extra fields are allowed. */
export function validateManifest(x: unknown): string[] {
	const problems = checkShape(x, MANIFEST);
	if (problems.length === 0 && isObject(x) && isObject(x.config) && x.config.run_id !== x.run_id) {
		problems.push(`field config.run_id must equal run_id (${JSON.stringify(x.run_id)})`);
	}
	return problems;
}

export function validateAnswer(x: unknown): string[] {
	return checkShape(x, ANSWER);
}

export function validateAnnotation(x: unknown): string[] {
	return checkShape(x, ANNOTATION);
}

/** One record per line in a stable key order, each line ending in "\n" ("" for no records). */
export function recordsToJsonl(records: ProbeRecord[]): string {
	return records.map((r) => JSON.stringify(ordered(r, RECORD)) + '\n').join('');
}

const USAGE_FIELDS = Object.keys(USAGE);
const CSV_FIELDS = Object.keys(RECORD).flatMap((name) =>
	name === 'usage' || name === 'judge_usage' ? USAGE_FIELDS.map((u) => `${name}_${u}`) : [name]
);

/**
 * Text a spreadsheet may evaluate as a formula: = + - @ (or their full-width forms ＝ ＋ － ＠),
 * also after leading whitespace, newlines or invisible characters (spreadsheets trim those), and
 * a leading tab or CR (OWASP's CSV-injection list).
 */
const FORMULA_TRIGGER = /^(?:[\t\r]|[\s\u200b-\u200d\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20])/;

/**
 * Flat CSV for spreadsheets: usage fields become usage_* / judge_usage_* columns, null is empty.
 * @note Lossy by design: unknown fields are dropped, and text a spreadsheet would evaluate
 * (FORMULA_TRIGGER) gets a leading ' so it shows model output instead. JSONL is the lossless
 * format.
 */
export function recordsToCsv(records: ProbeRecord[]): string {
	const rows = records.map((r) => {
		const flat: Record<string, unknown> = { ...r };
		for (const name of ['usage', 'judge_usage'] as const) {
			const usage = r[name] as Partial<Record<string, number>> | undefined;
			for (const u of USAGE_FIELDS) flat[`${name}_${u}`] = usage?.[u];
		}
		return CSV_FIELDS.map((f) => flat[f] ?? '');
	});
	return Papa.unparse(
		{ fields: CSV_FIELDS, data: rows },
		{ escapeFormulae: FORMULA_TRIGGER, newline: '\r\n' }
	);
}

/** The two files of a run. The manifest file carries answers and annotations too. */
export function bundleToFiles(b: RunBundle): { jsonl: string; manifest: string } {
	const manifest = {
		...ordered(b.manifest, MANIFEST),
		answers: (b.answers ?? []).map((a) => ordered(a, ANSWER)),
		annotations: (b.annotations ?? []).map((a) => ordered(a, ANNOTATION))
	};
	return {
		jsonl: recordsToJsonl(b.records),
		manifest: JSON.stringify(manifest, null, '\t') + '\n'
	};
}

// ---- Reading: all-or-nothing, problems collected with their location. ----

function capped(problems: string[]): string[] {
	if (problems.length <= MAX_PROBLEMS) return problems;
	return [...problems.slice(0, MAX_PROBLEMS), `stopped after ${MAX_PROBLEMS} problems`];
}

/**
 * Checks records one by one (`where(i)` names the place, e.g. "line 12"), then that (run_id, key)
 * is unique and, when `runId` is given, that every record belongs to that run.
 */
function recordProblems(values: unknown[], where: (i: number) => string, runId?: string): string[] {
	const problems: string[] = [];
	const seen = new Map<string, number>();
	for (let i = 0; i < values.length && problems.length <= MAX_PROBLEMS; i++) {
		const found = validateRecord(values[i]);
		if (found.length > 0) {
			problems.push(...found.map((p) => `${where(i)}: ${p}`));
			continue;
		}
		const r = values[i] as ProbeRecord;
		if (runId !== undefined && r.run_id !== runId) {
			problems.push(
				`${where(i)}: run_id ${JSON.stringify(r.run_id)} is not the manifest's ${JSON.stringify(runId)}`
			);
		}
		const id = JSON.stringify([r.run_id, r.key]);
		const first = seen.get(id);
		if (first === undefined) seen.set(id, i);
		else
			problems.push(
				`${where(i)}: duplicate key ${JSON.stringify(r.key)} (first at ${where(first)})`
			);
	}
	return problems;
}

/** JSON and record problems come from two passes: show them in file order. */
function byLine(problems: string[]): string[] {
	const lineOf = (p: string) => Number(/^line (\d+):/.exec(p)?.[1] ?? Infinity);
	return problems
		.map((p, i) => ({ p, i, n: lineOf(p) }))
		.sort((a, b) => a.n - b.n || a.i - b.i)
		.map((x) => x.p);
}

interface ParsedLines {
	values: unknown[];
	lines: number[];
	problems: string[];
}

function parseLines(text: string): ParsedLines {
	const out: ParsedLines = { values: [], lines: [], problems: [] };
	const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
	for (let i = 0; i < lines.length && out.problems.length <= MAX_PROBLEMS; i++) {
		if (lines[i].trim() === '') continue;
		try {
			out.values.push(JSON.parse(lines[i]));
			out.lines.push(i + 1);
		} catch (e) {
			out.problems.push(`line ${i + 1}: not valid JSON (${(e as Error).message})`);
		}
	}
	return out;
}

/**
 * Parses a records file. Blank lines are skipped; unknown fields are kept, secret ones dropped.
 * @throws ExchangeError listing up to MAX_PROBLEMS problems ("line 12: field temperature must be
 * a number", non-JSON lines, duplicate keys); nothing is returned unless every line is valid.
 */
export function parseRecordsJsonl(text: string): { records: ProbeRecord[] } {
	const parsed = parseLines(text);
	const problems = byLine([
		...parsed.problems,
		...recordProblems(parsed.values, (i) => `line ${parsed.lines[i]}`)
	]);
	if (problems.length > 0) throw new ExchangeError(capped(problems));
	return {
		records: (parsed.values as object[]).map((r) => ordered(r, RECORD) as unknown as ProbeRecord)
	};
}

/** Checks answers or annotations from a manifest; `idOf` names what must be unique, if anything. */
function sideProblems(
	label: string,
	values: unknown,
	check: (x: unknown) => string[],
	runId: string | undefined,
	idOf?: (x: Record<string, unknown>) => string,
	where: (i: number) => string = (i) => `${label}[${i}]`
): string[] {
	if (values === undefined) return [];
	if (!Array.isArray(values)) return [`manifest: field ${label} must be an array`];
	const problems: string[] = [];
	const seen = new Set<string>();
	values.forEach((x, i) => {
		const found = check(x).map((p) => `${where(i)}: ${p}`);
		problems.push(...found);
		if (found.length > 0 || !isObject(x)) return;
		if (runId !== undefined && x.run_id !== runId) {
			problems.push(
				`${where(i)}: run_id ${JSON.stringify(x.run_id)} is not the manifest's ${JSON.stringify(runId)}`
			);
		}
		const id = idOf?.(x);
		if (id === undefined) return;
		if (seen.has(id)) problems.push(`${where(i)}: duplicate ${id}`);
		seen.add(id);
	});
	return problems;
}

const answerId = (a: Record<string, unknown>) => `answer ${JSON.stringify([a.run_id, a.item_id])}`;

/**
 * Parses an answers file (the CLI writes answers beside the records as OUT.answers.jsonl), so an
 * import can take them from there when the manifest carries none.
 * @throws ExchangeError with line-numbered problems, like parseRecordsJsonl.
 */
export function parseAnswersJsonl(text: string): { answers: AnswerRecord[] } {
	const parsed = parseLines(text);
	const where = (i: number) => `line ${parsed.lines[i]}`;
	const found = sideProblems('answers', parsed.values, validateAnswer, undefined, answerId, where);
	const problems = byLine([...parsed.problems, ...found]);
	if (problems.length > 0) throw new ExchangeError(capped(problems));
	return {
		answers: (parsed.values as object[]).map((a) => ordered(a, ANSWER) as unknown as AnswerRecord)
	};
}

function answerAndAnnotationProblems(
	answers: unknown,
	annotations: unknown,
	runId?: string
): string[] {
	return [
		...sideProblems('answers', answers, validateAnswer, runId, answerId),
		// Several annotators (and one annotator over time) may label the same key: not unique.
		...sideProblems('annotations', annotations, validateAnnotation, runId)
	];
}

/** Every problem with a bundle (manifest, records, answers, annotations, run ids); [] if valid. */
export function validateBundle(b: RunBundle): string[] {
	const problems = validateManifest(b.manifest).map((p) => `manifest: ${p}`);
	const runId =
		isObject(b.manifest) && typeof b.manifest.run_id === 'string' ? b.manifest.run_id : undefined;
	problems.push(...answerAndAnnotationProblems(b.answers, b.annotations, runId));
	if (!Array.isArray(b.records)) problems.push('field records must be an array');
	else problems.push(...recordProblems(b.records, (i) => `records[${i}]`, runId));
	return capped(problems);
}

/**
 * Reads the two files of a run back into a bundle.
 * @throws ExchangeError when either file is invalid or a record, answer or annotation belongs to
 * another run_id than the manifest's; all problems of both files are reported together.
 */
export function filesToBundle(jsonl: string, manifest: string): RunBundle {
	let raw: unknown;
	try {
		raw = JSON.parse(manifest.replace(/^\uFEFF/, ''));
	} catch (e) {
		throw new ExchangeError([`manifest: not valid JSON (${(e as Error).message})`]);
	}
	if (!isObject(raw)) throw new ExchangeError(['manifest: expected a JSON object']);
	const { answers, annotations, ...rest } = raw;
	const problems = validateManifest(rest).map((p) => `manifest: ${p}`);
	const runId = typeof rest.run_id === 'string' ? rest.run_id : undefined;
	// The few manifest-side problems first: a broken records file can fill the whole list.
	problems.push(...answerAndAnnotationProblems(answers, annotations, runId));
	const parsed = parseLines(jsonl);
	const where = (i: number) => `line ${parsed.lines[i]}`;
	problems.push(...byLine([...parsed.problems, ...recordProblems(parsed.values, where, runId)]));
	if (problems.length > 0) throw new ExchangeError(capped(problems));
	// Secrets are dropped on the way in too, so an api_key in a hand-edited file never gets stored.
	return {
		manifest: ordered(rest, MANIFEST) as unknown as RunManifest,
		records: (parsed.values as object[]).map((r) => ordered(r, RECORD) as unknown as ProbeRecord),
		answers: ((answers ?? []) as object[]).map(
			(a) => ordered(a, ANSWER) as unknown as AnswerRecord
		),
		annotations: ((annotations ?? []) as object[]).map(
			(a) => ordered(a, ANNOTATION) as unknown as Annotation
		)
	};
}
