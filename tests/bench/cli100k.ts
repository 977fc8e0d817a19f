/**
 * The CLI on a 100,000-record run, and on the same run grown to 300,000: `run` resuming with every
 * record already stored, and `summarize`, each in its own process (start-up included), timed
 * and with peak RSS.
 *
 * Set-up: a real `run` of 1 item × 1 condition writes a genuine manifest (config identity, run id)
 * against the mock server; then 100,000 records of ~4.4 KB (the size of a GSM8K record with its
 * prompt, answer and judge reply; 2,000 items × 50 conditions, ~440 MB) and 2,000 answers are
 * appended under that run id; then 200,000 more (4,000 more items, ~1.3 GB in all). Temperatures, perturbations, samples and --limit do not enter the
 * identity, so the full command resumes the same run. Nothing is committed; the files are deleted.
 */
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { shippedTemplatesPlugin } from '../../build.cli.ts';
import {
	createWriteStream,
	type WriteStream,
	mkdtempSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseUserDataset } from '../../src/lib/datasets/importFile.ts';
import { planConditions, recordKey } from '../../src/lib/probe/plan.ts';
import { sampleItems } from '../../src/lib/probe/sample.ts';
import type { AnswerRecord, DatasetItem, ProbeRecord } from '../../src/lib/probe/types.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { startMockOpenAI } from '../helpers/mockOpenAI.ts';
import { median, round } from './stats.ts';

export const CLI_RECORDS = 100_000;
const ITEMS = 2_000;
/** The same run grown to 300,000 records. */
const ITEMS_LARGE = 6_000;
// No T=0: greedy decoding makes one sample there, whatever --samples says.
export const TEMPERATURES = [0.2, 0.4, 0.6, 0.8, 1];
export const PERTURBATIONS = ['none', 'truncate'] as const;
export const SAMPLES = 5; // 5 × 2 × 5 = 50 conditions; 2,000 × 50 = 100,000 records

const CHILD = fileURLToPath(new URL('./cliChild.ts', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/user-turn-probe.js', import.meta.url));

/**
 * The Node flags the installed command starts with, read from its shebang
 * (`#!/usr/bin/env -S node --max-old-space-size=…`): the bench measures the process users run.
 */
export const CLI_NODE_FLAGS: readonly string[] = nodeFlagsOf(readFileSync(BIN, 'utf8'));

export function nodeFlagsOf(script: string): string[] {
	const shebang = /^#!\/usr\/bin\/env (?:-S )?node(.*)$/m.exec(script.split('\n')[0]);
	if (!shebang) throw new Error(`${BIN} does not start with a node shebang`);
	return shebang[1].trim().split(/\s+/).filter(Boolean);
}
const TEMPLATE_WORKER = fileURLToPath(new URL('../../src/cli/templateWorker.ts', import.meta.url));

/**
 * cliChild.ts and the CLI bundled by esbuild, as `npm ci` bundles the shipped CLI (bin/dist): the
 * process measured is the one users run, without tsx compiling in it. Built once per bench. The
 * CLI checks a chat template in a worker thread that it loads from `templateWorker.js` beside
 * itself, so that is bundled too, as ES modules (the folder's package.json says so), with the
 * shipped templates copied in as build.cli.ts does.
 */
let bundled: Promise<string> | undefined;
function childBundle(): Promise<string> {
	bundled ??= (async () => {
		const dir = mkdtempSync(join(tmpdir(), 'utp-bench-child-'));
		process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
		writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
		await build({
			entryPoints: { cliChild: CHILD, templateWorker: TEMPLATE_WORKER },
			bundle: true,
			platform: 'node',
			format: 'esm',
			target: 'node20',
			outdir: dir,
			logLevel: 'warning',
			plugins: [shippedTemplatesPlugin]
		});
		return join(dir, 'cliChild.js');
	})();
	return bundled;
}

/** How often resume and summarize run at each size: their time is a median, as load moves it. */
export const COMMAND_REPEATS = 3;

export const CLI_100K_METHOD =
	'Own process per command (the CLI bundled by esbuild as npm ci bundles it, started with the Node flags of its bin shebang, start-up included), CPU = user + system from getrusage, ' +
	`peak RSS = ru_maxrss; resume and summarize each run ${COMMAND_REPEATS} times at each size ` +
	'(median CPU and wall, highest peak RSS). The records file: 100,000 records of ~4.4 KB (2,000 items × 5 ' +
	'temperatures × 2 perturbations × 5 samples), every one labeled, under a manifest written by a ' +
	'real run; resume must make no model request.';

export interface CommandCost {
	wallMs: number;
	cpuMs: number;
	peakRssMB: number;
}

/** A command run `COMMAND_REPEATS` times: the median wall and CPU, the highest peak RSS. */
export interface RepeatedCost extends CommandCost {
	/** Each run's CPU, in order. */
	cpuRuns: number[];
}

export async function repeated(run: () => Promise<CommandCost>): Promise<RepeatedCost> {
	const runs: CommandCost[] = [];
	for (let i = 0; i < COMMAND_REPEATS; i++) runs.push(await run());
	return {
		wallMs: median(runs.map((r) => r.wallMs)),
		cpuMs: median(runs.map((r) => r.cpuMs)),
		peakRssMB: Math.max(...runs.map((r) => r.peakRssMB)),
		cpuRuns: runs.map((r) => r.cpuMs)
	};
}

export interface Cli100kResult {
	records: number;
	fileMB: number;
	resume: RepeatedCost;
	summarize: RepeatedCost;
	/** Completions and chat calls the resumes made: must be 0 (everything was stored). */
	resumeModelRequests: number;
}

/** The 100,000-record figures, and the same commands once the run holds 300,000. */
export interface CliScaleResult extends Cli100kResult {
	at300k: Cli100kResult;
}

/** What cliChild.ts writes about its process. */
export interface ChildUsage {
	cpuMs: number;
	maxRssMB: number;
	/** main() alone, without the process's start-up. */
	mainMs: number;
	warnings: string[];
	requests: number;
	heapAfterFirstMB?: number;
	heapAtEndMB?: number;
}

/** Run one CLI command in its own process (cliChild.ts); its cost and what it reported. */
export async function cliCommand(
	args: string[],
	usageFile: string,
	env: Record<string, string> = {}
): Promise<CommandCost & { usage: ChildUsage }> {
	const script = await childBundle();
	const started = performance.now();
	const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
		const child = spawn(process.execPath, [...CLI_NODE_FLAGS, script, ...args], {
			env: { ...process.env, ...env, UTP_BENCH_USAGE: usageFile },
			stdio: ['ignore', 'ignore', 'pipe']
		});
		let err = '';
		child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-20_000)));
		child.on('exit', (c) => resolve({ code: c, stderr: err }));
	});
	const wallMs = performance.now() - started;
	if (code !== 0) throw new Error(`${args[0]} exited ${code}:\n${stderr.slice(-2000)}`);
	const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as ChildUsage;
	return {
		wallMs: Math.round(wallMs),
		cpuMs: Math.round(usage.cpuMs),
		peakRssMB: round(usage.maxRssMB),
		usage
	};
}

export async function command(args: string[], usageFile: string): Promise<CommandCost> {
	const { wallMs, cpuMs, peakRssMB } = await cliCommand(args, usageFile);
	return { wallMs, cpuMs, peakRssMB };
}

/** A dataset of `n` GSM8K-sized items (question ~280 characters, answer ~200) at `path`. */
export function writeItems(path: string, n: number, questionChars = 280): string {
	const rows = Array.from({ length: n }, (_, i) => ({
		question: `Item ${i}: ${filler(questionChars, i)}?`,
		answer: `${filler(200, i + 1)}\n#### ${i}`
	}));
	writeFileSync(path, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
	return path;
}

/** `run`'s options for the mock's model `gen`, rules judging and the Qwen2.5 template. */
export function runArgs(baseUrl: string, dataset: string, out: string): string[] {
	return [
		'--base-url',
		baseUrl,
		'--model',
		'gen',
		'--judge-mode',
		'rules',
		'--dataset',
		dataset,
		'--template',
		fixturePath('templates/Qwen__Qwen2.5-0.5B-Instruct.jinja'),
		'--eos-token',
		'<|im_end|>',
		'--out',
		out
	];
}

export function filler(n: number, seed: number): string {
	const words = [
		'she',
		'sold',
		'clips',
		'in',
		'April',
		'and',
		'half',
		'as',
		'many',
		'May',
		'48',
		'24',
		'total',
		'is',
		'72.'
	];
	let s = '';
	for (let i = 0; s.length < n; i++) s += words[(i * 7 + seed) % words.length] + ' ';
	return s.slice(0, n);
}

/** `run` over the whole plan (all stored, so a resume): `base` and the first `limit` items. */
export function resumeArgs(base: string[], limit: number): string[] {
	return [
		'run',
		...base,
		'--limit',
		String(limit),
		'--temperatures',
		TEMPERATURES.join(','),
		'--perturbations',
		PERTURBATIONS.join(','),
		'--samples',
		String(SAMPLES)
	];
}

/**
 * Resume and summarize of a stored run at 100,000 records, then again after the same run grew to
 * 300,000 (6,000 items; `--limit 2000` picks the first 2,000 of them, as sampling keeps prefixes).
 * Memory must not follow the file: the two peaks are compared as well as bounded.
 */
export async function measureCliScale(): Promise<CliScaleResult> {
	const dir = mkdtempSync(join(tmpdir(), 'utp-bench-cli-'));
	const server = await startMockOpenAI({
		models: ['gen'],
		script: (req) =>
			req.prompt.endsWith('assistant\n') ? 'The answer is 72.<|im_end|>' : 'Why 72?<|im_end|>'
	});
	try {
		const dataset = writeItems(join(dir, 'items.jsonl'), ITEMS_LARGE);
		const out = join(dir, 'run.jsonl');
		const base = runArgs(server.url, dataset, out);
		const usage = join(dir, 'usage.json');
		await command(
			['run', ...base, '--limit', '1', '--temperatures', '0.2', '--perturbations', 'none'],
			usage
		);

		const seedRecord = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]) as ProbeRecord;
		const items = parseUserDataset(readFileSync(dataset, 'utf8'), dataset);
		const order = sampleItems(items, items.length, 0);
		const writer = new RunWriter(out, seedRecord);
		const measure = async (limit: number): Promise<Cli100kResult> => {
			const before = server.requests.length;
			const resume = await repeated(() => command(resumeArgs(base, limit), usage));
			// Generation and judging only: the model list and context window (/props) are asked anyway.
			const resumeModelRequests = server.requests
				.slice(before)
				.filter((r) => r.path.endsWith('/completions')).length;
			const summarize = await repeated(() => command(['summarize', out], usage));
			const fileMB = round(statSync(out).size / 2 ** 20);
			return { records: writer.records, fileMB, resume, summarize, resumeModelRequests };
		};

		await writer.write(order.slice(0, ITEMS));
		if (writer.records !== CLI_RECORDS) {
			throw new Error(`wrote ${writer.records} records, expected ${CLI_RECORDS}`);
		}
		const at100k = await measure(ITEMS);
		await writer.write(order.slice(ITEMS));
		const at300k = await measure(0);
		return { ...at100k, at300k };
	} finally {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * Appends labeled records (and each item's answer) as a finished run would have stored them: 50
 * per item (5 temperatures × 2 perturbations × 5 samples), the seed's key left out (it is stored).
 */
export class RunWriter {
	records = 1;
	#out: string;
	#seed: ProbeRecord;
	#conditions = planConditions({
		temperatures: TEMPERATURES,
		perturbations: [...PERTURBATIONS],
		samples: SAMPLES
	});
	#answer: string;

	/** `answerChars`: 1,200 makes GSM8K-sized records (~4.4 KB); fewer, smaller files. */
	constructor(out: string, seed: ProbeRecord, answerChars = 1200) {
		this.#out = out;
		this.#seed = seed;
		this.#answer = filler(answerChars, 3);
	}

	async write(items: readonly DatasetItem[]): Promise<void> {
		const seed = this.#seed;
		const answer = this.#answer;
		const records = createWriteStream(this.#out, { flags: 'a' });
		const answers = createWriteStream(this.#out.replace(/\.jsonl$/, '.answers.jsonl'), {
			flags: 'a'
		});
		const put = async (stream: WriteStream, value: object) => {
			if (!stream.write(JSON.stringify(value) + '\n')) {
				await new Promise<void>((r) => stream.once('drain', () => r()));
			}
		};
		for (const item of items) {
			const a: AnswerRecord = {
				run_id: seed.run_id,
				item_id: item.id,
				prompt: item.prompt,
				answer,
				finish_reason: 'stop',
				correct: true,
				score_detail: 'predicted 72, gold 72',
				seed: 0,
				usage: { prompt_tokens: 90, completion_tokens: 300 },
				created_at: seed.created_at
			};
			await put(answers, a);
			for (const c of this.#conditions) {
				const key = recordKey(item.id, c);
				if (key === seed.key) continue;
				const n = this.records++;
				const r: ProbeRecord = {
					...seed,
					key,
					item_id: item.id,
					temperature: c.temperature,
					perturbation: c.perturbation,
					sample: c.sample,
					question: item.prompt,
					answer,
					perturbed_answer: c.perturbation === 'none' ? answer : answer.slice(0, answer.length / 2),
					prompt: `<|im_start|>user\n${item.prompt}<|im_end|>\n<|im_start|>assistant\n${answer}<|im_end|>\n<|im_start|>user\n`,
					user_turn: `Why is it 72? ${filler(80, n)}`,
					judge_raw: JSON.stringify({ label: 'genuine_followup', rationale: filler(150, n) }),
					label: 'genuine_followup'
				};
				await put(records, r);
			}
		}
		await Promise.all([
			new Promise<void>((r) => records.end(() => r())),
			new Promise<void>((r) => answers.end(() => r()))
		]);
	}
}
