/**
 * Several runs' files picked or dropped at once, as one study: each run is its records file with
 * the manifest (and the CLI's answers file) of the same name, `OUT.jsonl` beside
 * `OUT.manifest.json` and `OUT.answers.jsonl` as the CLI writes them, or one whole-run file
 * (`.run.jsonl`, what Share makes). A sweep's files from a cluster open in the app this way without
 * hosting them anywhere. Every run is read exactly as Import reads one, all before any is stored.
 */
import {
	ExchangeError,
	filesToBundle,
	parseAnswersJsonl,
	type RunBundle
} from '../probe/exchange.ts';
import { isRunFile, runFileToBundle } from '../probe/runFile.ts';
import { located } from './runsData.ts';

interface Named {
	name: string;
	text(): Promise<string>;
}

/** One run's files, by the name they share. */
export interface RunFileGroup<F> {
	/** The shared name: `sweep.m-a` for sweep.m-a.jsonl and sweep.m-a.manifest.json. */
	stem: string;
	records?: F;
	manifest?: F;
	answers?: F;
}

const SLOTS: [suffix: string, slot: 'records' | 'manifest' | 'answers'][] = [
	['.answers.jsonl', 'answers'],
	['.manifest.json', 'manifest'],
	['.jsonl', 'records']
];

/**
 * The picked files sorted into runs by name, in the order first picked; `problems` names a file
 * that belongs to no run, or a run without its records.
 */
export function groupRunFiles<F extends { name: string }>(
	files: readonly F[]
): { runs: RunFileGroup<F>[]; problems: string[] } {
	const runs = new Map<string, RunFileGroup<F>>();
	const problems: string[] = [];
	for (const f of files) {
		const lower = f.name.toLowerCase();
		const match = SLOTS.find(([suffix]) => lower.endsWith(suffix));
		if (!match || lower.endsWith('.study.jsonl')) {
			problems.push(
				lower.endsWith('.study.json') || lower.endsWith('.study.jsonl')
					? `${f.name}: a study file; pick it alone, or its runs' files without it`
					: `${f.name}: not part of a run (expected .jsonl, .manifest.json or .answers.jsonl)`
			);
			continue;
		}
		const [suffix, slot] = match;
		const stem = f.name.slice(0, -suffix.length);
		const run = runs.get(stem) ?? { stem };
		runs.set(stem, run);
		if (run[slot]) problems.push(`${f.name}: a second ${slot} file for ${stem}`);
		else run[slot] = f;
	}
	for (const run of runs.values()) {
		if (!run.records) problems.push(`${run.stem}: missing its records file (${run.stem}.jsonl)`);
	}
	return { runs: [...runs.values()], problems };
}

/**
 * Each run's bundle: records with manifest (and answers), or a whole-run file alone.
 * @throws ExchangeError with every problem of every run, each naming its file.
 */
export async function readRunGroups(runs: readonly RunFileGroup<Named>[]): Promise<RunBundle[]> {
	const problems: string[] = [];
	const bundles: RunBundle[] = [];
	for (const run of runs) {
		try {
			bundles.push(await readGroup(run));
		} catch (e) {
			if (!(e instanceof ExchangeError)) throw e;
			problems.push(...e.problems);
		}
	}
	if (problems.length > 0) throw new ExchangeError(problems);
	return bundles;
}

async function readGroup(run: RunFileGroup<Named>): Promise<RunBundle> {
	const records = run.records as Named;
	const [jsonl, manifestText, answersText] = await Promise.all([
		records.text(),
		run.manifest?.text(),
		run.answers?.text()
	]);
	if (manifestText === undefined) {
		if (!isRunFile(jsonl))
			throw new ExchangeError([
				`${records.name}: no manifest picked with it (${run.stem}.manifest.json), and not a whole-run file (.run.jsonl)`
			]);
		return located(
			() => runFileToBundle(jsonl),
			(p) => `${records.name}, ${p}`
		);
	}
	const manifest = run.manifest as Named;
	const bundle = located(
		() => filesToBundle(jsonl, manifestText),
		(p) =>
			p.startsWith('line ')
				? `${records.name}, ${p}`
				: `${manifest.name}: ${p.replace(/^manifest: /, '')}`
	);
	if (run.answers && answersText !== undefined && (bundle.answers ?? []).length === 0) {
		const answers = run.answers;
		bundle.answers = located(
			() => parseAnswersJsonl(answersText),
			(p) => `${answers.name}, ${p}`
		).answers;
	}
	return bundle;
}
