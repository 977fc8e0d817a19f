/**
 * A study shared as one file or one link. Two forms, told apart by the first line's `runs`:
 * - one file (`.study.jsonl`): a first line `{"format": "user-turn-probe-study", "version": 1,
 *   "runs": N}`, then N whole-run files (runFile.ts) one after another, each from its own first line;
 * - a list (`.study.json`): `{"format": …, "version": 1, "runs": ["a.run.jsonl", …]}`, each entry a
 *   run file's address, relative to the study file's own.
 * Either opens with `#/open?url=`; the runs are read exactly as Import reads them.
 */
import { ExchangeError } from './exchange.ts';
import { isObject } from './exchangeShapes.ts';
import type { RunBundle } from './exchange.ts';
import { isRunFile, runFileToBundle, RUN_FILE_FORMAT } from './runFile.ts';

export const STUDY_FILE_FORMAT = 'user-turn-probe-study';
export const STUDY_FILE_VERSION = 1;
export const STUDY_FILE_SUFFIX = '.study.jsonl';

export type StudyFile =
	/** Whole-run files' texts, in order. */
	| { kind: 'inline'; runs: string[] }
	/** Run files' addresses as written (relative ones resolve against the study file's). */
	| { kind: 'links'; links: string[] };

/** One file holding every run of the study, in order. */
export function studyToFile(runFiles: readonly string[]): string {
	const header = { format: STUDY_FILE_FORMAT, version: STUDY_FILE_VERSION, runs: runFiles.length };
	return [JSON.stringify(header), ...runFiles.map((f) => f.replace(/\n?$/, '\n'))].join('\n');
}

/** Whether the text is a study file (it may still be invalid). */
export function isStudyFile(text: string): boolean {
	const head = text
		.replace(/^\uFEFF/, '')
		.trimStart()
		.slice(0, 400);
	if (!head.includes(STUDY_FILE_FORMAT)) return false;
	return headerOf(text) !== undefined;
}

function headerOf(text: string): Record<string, unknown> | undefined {
	const body = text.replace(/^\uFEFF/, '');
	// The list form may be pretty-printed over several lines: try the whole text first.
	for (const candidate of [body, body.slice(0, body.indexOf('\n') >>> 0)]) {
		try {
			const value: unknown = JSON.parse(candidate);
			if (isObject(value) && value.format === STUDY_FILE_FORMAT) return value;
		} catch {
			// Not this candidate.
		}
	}
	return undefined;
}

/**
 * Reads a study file into its runs' texts or addresses.
 * @throws ExchangeError saying what is wrong (version, count, a run that is not a run file).
 */
export function parseStudyFile(text: string): StudyFile {
	const head = headerOf(text);
	if (!head)
		throw new ExchangeError([
			`line 1: not a study file (expected "format": "${STUDY_FILE_FORMAT}")`
		]);
	if (head.version !== STUDY_FILE_VERSION)
		throw new ExchangeError([
			`line 1: study file version ${JSON.stringify(head.version)}; this app reads version ${STUDY_FILE_VERSION}`
		]);
	const runs = head.runs;
	if (Array.isArray(runs)) {
		const links = runs.filter((r): r is string => typeof r === 'string' && r.trim() !== '');
		if (links.length !== runs.length || links.length === 0)
			throw new ExchangeError(['runs: expected a list of run file addresses']);
		return { kind: 'links', links };
	}
	if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 1)
		throw new ExchangeError([
			'line 1: runs must be the number of runs that follow, or a list of addresses'
		]);
	const lines = text
		.replace(/^\uFEFF/, '')
		.split('\n')
		.slice(1);
	const starts: number[] = [];
	lines.forEach((line, i) => {
		if (line.includes(RUN_FILE_FORMAT) && isRunFile(line)) starts.push(i);
	});
	if (starts.length !== runs || starts[0] !== 0)
		throw new ExchangeError([
			`the study file says ${runs} runs follow; ${starts.length} run file${starts.length === 1 ? '' : 's'} found${starts.length > 0 && starts[0] !== 0 ? ' (not right after line 1)' : ''}`
		]);
	const out = starts.map((start, k) =>
		lines.slice(start, starts[k + 1] ?? lines.length).join('\n')
	);
	return { kind: 'inline', runs: out };
}

/**
 * A study's inline runs, each read exactly as Import reads a run file, every one before any is
 * stored: a bad run is named by its place and id ("study.jsonl, run 2 (abc), line 3: …").
 * @throws ExchangeError with every problem of every bad run.
 */
export function studyRunBundles(runs: readonly string[], fileName: string): RunBundle[] {
	const problems: string[] = [];
	const bundles = runs.map((text, i) => {
		try {
			return runFileToBundle(text);
		} catch (e) {
			if (!(e instanceof ExchangeError)) throw e;
			const id = /"run_id"\s*:\s*"([^"]+)"/.exec(text.slice(0, text.indexOf('\n') >>> 0))?.[1];
			const where = `${fileName}, run ${i + 1}${id ? ` (${id})` : ''}`;
			problems.push(...e.problems.map((p) => `${where}, ${p}`));
			return undefined;
		}
	});
	if (problems.length > 0) throw new ExchangeError(problems);
	return bundles as RunBundle[];
}
