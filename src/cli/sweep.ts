/**
 * `run --model a,b,c`: a sweep, one run per generator model on the same items, seeds, conditions
 * and judge, one after another. Each model writes its own run beside --out (OUT.<model>.jsonl with
 * its manifest and answers), resumable as any run is (the same command again resumes each), and
 * OUT.study.json lists them: `summarize OUT.study.json` prints the study table, and the app opens
 * it by link.
 */
import { writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { STUDY_FILE_FORMAT, STUDY_FILE_VERSION } from '../lib/probe/studyFile.ts';
import { UsageError, type RunOptions } from './args.ts';
import { outputClash, outputsOf, runInputs, type NamedPath } from './outPaths.ts';

/** A model id as a file name part: "Qwen/Qwen3-0.6B" → "Qwen_Qwen3-0.6B". */
export function modelSlug(model: string): string {
	return model.replace(/[^A-Za-z0-9._-]+/g, '_');
}

export interface Sweep {
	runs: RunOptions[];
	/** OUT.study.json: the runs' records files, relative to it. */
	studyFile: string;
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
	const outputs: NamedPath[] = [
		...runs.flatMap((r) => outputsOf(r.out, `--model ${r.model}`)),
		{ path: studyFile, what: 'the study list' }
	];
	const overlap = outputClash(outputs, runInputs(opts));
	if (overlap) throw new UsageError(overlap);
	return { runs, studyFile };
}

/** Writes OUT.study.json, listing the runs' records files by name (they sit beside it). */
export function writeStudyFile(sweep: Sweep): void {
	const dir = dirname(sweep.studyFile);
	const runs = sweep.runs.map((r) => (dirname(r.out) === dir ? basename(r.out) : join(r.out)));
	const study = { format: STUDY_FILE_FORMAT, version: STUDY_FILE_VERSION, runs };
	writeFileSync(sweep.studyFile, JSON.stringify(study, null, '\t') + '\n');
}
