/**
 * The CLI at a million records: `run` resuming a fully stored run of 1,000,000 records, and
 * `summarize` of it and of a study of four runs of 250,000, each in its own process started as the
 * installed command starts (its bin's Node flags). Memory must not follow the record count.
 *
 * The records are smaller than GSM8K's (~0.9 KB: short question and answer): what resume and
 * summarize keep is per record, not per byte, and a 4.4 GB file would cost CI minutes of disk for
 * nothing more. Generated at bench time and deleted.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseUserDataset } from '../../src/lib/datasets/importFile.ts';
import { sampleItems } from '../../src/lib/probe/sample.ts';
import type { ProbeRecord } from '../../src/lib/probe/types.ts';
import { startMockOpenAI } from '../helpers/mockOpenAI.ts';
import {
	command,
	resumeArgs,
	runArgs,
	RunWriter,
	writeItems,
	type CommandCost
} from './cli100k.ts';
import { round } from './stats.ts';

export const CLI_1M_RECORDS = 1_000_000;
/** 20,000 items × 50 conditions. */
const ITEMS = 20_000;
const STUDY_RUNS = 4;
const QUESTION_CHARS = 60;
const ANSWER_CHARS = 80;

export const CLI_1M_METHOD =
	`Own process per command, as CLI_100K_METHOD; ${CLI_1M_RECORDS} records of ~0.9 KB ` +
	`(${ITEMS} items × 50 conditions) under a manifest written by a real run: resume with all of ` +
	`them stored (no model request allowed), summarize of that file, and summarize of a study of ` +
	`${STUDY_RUNS} run files of ${CLI_1M_RECORDS / STUDY_RUNS} records each (no manifests: the file ` +
	'names stand for the models).';

export interface Cli1mResult {
	records: number;
	fileMB: number;
	resume: CommandCost;
	resumeModelRequests: number;
	summarize: CommandCost;
	study: CommandCost & { files: number; fileMB: number };
}

/** `items`: fewer for a quick look (50 records each); the bench row uses 20,000. */
export async function measureCli1m(items = ITEMS): Promise<Cli1mResult> {
	const dir = mkdtempSync(join(tmpdir(), 'utp-bench-1m-'));
	const server = await startMockOpenAI({
		models: ['gen'],
		script: (req) =>
			req.prompt.endsWith('assistant\n') ? 'The answer is 72.<|im_end|>' : 'Why 72?<|im_end|>'
	});
	try {
		const dataset = writeItems(join(dir, 'items.jsonl'), items, QUESTION_CHARS);
		const out = join(dir, 'run.jsonl');
		const base = runArgs(server.url, dataset, out);
		const usage = join(dir, 'usage.json');
		await command(
			['run', ...base, '--limit', '1', '--temperatures', '0.2', '--perturbations', 'none'],
			usage
		);
		const seed = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]) as ProbeRecord;
		const order = sampleItems(parseUserDataset(readFileSync(dataset, 'utf8'), dataset), items, 0);
		const writer = new RunWriter(out, seed, ANSWER_CHARS);
		await writer.write(order);
		if (writer.records !== items * 50) {
			throw new Error(`wrote ${writer.records} records, expected ${items * 50}`);
		}

		const before = server.requests.length;
		const resume = await command(resumeArgs(base, 0), usage);
		const resumeModelRequests = server.requests
			.slice(before)
			.filter((r) => r.path.endsWith('/completions')).length;
		const summarize = await command(['summarize', out], usage);
		const fileMB = round(statSync(out).size / 2 ** 20);
		rmSync(out);

		// A study: the same items split over runs of other "models" (file names, no manifests).
		const files: string[] = [];
		const per = Math.ceil(items / STUDY_RUNS);
		for (let i = 0; i < STUDY_RUNS; i++) {
			const file = join(dir, `model-${i}.jsonl`);
			// No key of the seed's: each file gets all 50 records of its items.
			const part = new RunWriter(file, { ...seed, run_id: `study-${i}`, key: '' }, ANSWER_CHARS);
			await part.write(order.slice(i * per, (i + 1) * per));
			files.push(file);
		}
		const studyMB = round(files.reduce((sum, f) => sum + statSync(f).size, 0) / 2 ** 20);
		const study = await command(['summarize', ...files], usage);
		return {
			records: writer.records,
			fileMB,
			resume,
			resumeModelRequests,
			summarize,
			study: { ...study, files: files.length, fileMB: studyMB }
		};
	} finally {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}
