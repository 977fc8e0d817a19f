/**
 * `run --model a,b,c`: a sweep, one run per generator model on the same items, seeds, conditions
 * and judge, one after another. Each model writes its own run beside --out (OUT.<model>.jsonl with
 * its manifest and answers), resumable as any run is (the same command again resumes each), and
 * OUT.study.json lists them: `summarize OUT.study.json` prints the study table, and the app opens
 * it by link. Once every run is done, OUT.study.jsonl holds them all in one file (the form the app
 * shares and imports, probe/studyFile.ts), to open in the app from a machine the runs never left.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { filesToBundle, parseAnswersJsonl } from '../lib/probe/exchange.ts';
import { bundleToRunFile } from '../lib/probe/runFile.ts';
import {
	STUDY_FILE_FORMAT,
	STUDY_FILE_SUFFIX,
	STUDY_FILE_VERSION,
	studyToFile
} from '../lib/probe/studyFile.ts';
import { UsageError, type RunOptions } from './args.ts';
import { sidecarPaths } from './jsonlStore.ts';
import { outputClash, outputsOf, runInputs, type NamedPath } from './outPaths.ts';

/** A model id as a file name part: "Qwen/Qwen3-0.6B" → "Qwen_Qwen3-0.6B". */
export function modelSlug(model: string): string {
	return model.replace(/[^A-Za-z0-9._-]+/g, '_');
}

export interface Sweep {
	runs: RunOptions[];
	/** OUT.study.json: the runs' records files, relative to it. */
	studyFile: string;
	/** OUT.study.jsonl: the runs themselves, one after another. */
	bundleFile: string;
}

const stemOf = (out: string) => (out.endsWith('.jsonl') ? out.slice(0, -'.jsonl'.length) : out);

/**
 * The runs of a sweep, or null for a single model. --base-url takes one server for every model or
 * one per model, in order; without --judge-base-url the judge is asked on the first server.
 * @throws UsageError when the servers do not pair with the models, or two models share a file name,
 * or a file of one run is an input (the dataset, the template) or a file of another run.
 */
export function sweepOf(opts: RunOptions): Sweep | null {
	const models = opts.model.split(',').map((m) => m.trim());
	if (models.length < 2) return null;
	if (models.some((m) => m === '')) throw new UsageError('--model: an empty model id in the list');
	const urls = opts.baseUrl.split(',').map((u) => u.trim());
	if (urls.length !== 1 && urls.length !== models.length)
		throw new UsageError(
			`--base-url: one server for every model, or one per model (${models.length}); got ${urls.length}`
		);
	const slugs = models.map(modelSlug);
	const clash = slugs.find((s, i) => slugs.indexOf(s) !== i);
	if (clash !== undefined) throw new UsageError(`--model: two models would write ${clash}`);
	const stem = stemOf(opts.out);
	const runs = models.map((model, i) => ({
		...opts,
		model,
		baseUrl: urls.length === 1 ? urls[0] : urls[i],
		judgeBaseUrl: opts.judgeBaseUrl ?? (urls.length === 1 ? undefined : urls[0]),
		// --judge-mode rules names no judge: each model stands in for itself, as in a single run.
		judgeModel: opts.judgeModel === opts.model ? model : opts.judgeModel,
		runId: opts.runId === undefined ? undefined : `${opts.runId}-${slugs[i]}`,
		out: `${stem}.${slugs[i]}.jsonl`
	}));
	const studyFile = `${stem}.study.json`;
	const bundleFile = `${stem}${STUDY_FILE_SUFFIX}`;
	const outputs: NamedPath[] = [
		...runs.flatMap((r) => outputsOf(r.out, `--model ${r.model}`)),
		{ path: studyFile, what: 'the study list' },
		{ path: bundleFile, what: 'the one-file study' }
	];
	const overlap = outputClash(outputs, runInputs(opts));
	if (overlap) throw new UsageError(overlap);
	return { runs, studyFile, bundleFile };
}

/** Writes OUT.study.json, listing the runs' records files by name (they sit beside it). */
export function writeStudyFile(sweep: Sweep): void {
	const dir = dirname(sweep.studyFile);
	const runs = sweep.runs.map((r) => (dirname(r.out) === dir ? basename(r.out) : join(r.out)));
	const study = { format: STUDY_FILE_FORMAT, version: STUDY_FILE_VERSION, runs };
	// Before the first run makes --out's folder (a fresh clone's runs/).
	mkdirSync(dir, { recursive: true });
	writeFileSync(sweep.studyFile, JSON.stringify(study, null, '\t') + '\n');
}

/**
 * Writes OUT.study.jsonl: each run's manifest, answers and records as one whole-run file, in the
 * sweep's order, read back exactly as the app's Import reads a run's files.
 * @throws ExchangeError naming the run whose files are not a valid run.
 */
export function writeStudyBundle(sweep: Sweep): void {
	const runFiles = sweep.runs.map((r) => {
		const paths = sidecarPaths(r.out);
		const bundle = filesToBundle(readFileSync(r.out, 'utf8'), readFileSync(paths.manifest, 'utf8'));
		if (existsSync(paths.answers) && (bundle.answers ?? []).length === 0)
			bundle.answers = parseAnswersJsonl(readFileSync(paths.answers, 'utf8')).answers;
		return bundleToRunFile(bundle);
	});
	writeFileSync(sweep.bundleFile, studyToFile(runFiles));
}
