/** A scripted server, a small GSM8K file and main() with its output captured, for the CLI tests. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../../src/cli/probe.ts';
import { fixturePath, readJsonl } from '../../helpers/fixtures.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import type { ScriptFn } from '../../helpers/script.ts';

export const QWEN = fixturePath('templates/Qwen__Qwen2.5-0.5B-Instruct.jinja');

/** The CLI as users start it. */
export const BIN = fileURLToPath(new URL('../../../bin/user-turn-probe.js', import.meta.url));

/**
 * Start the CLI with `argv` in a child process and SIGKILL it the moment `ready()` holds (polled
 * every `pollMs`); resolves once it has exited. Rejects when it exits first (it finished before it
 * could be killed), or when `giveUpMs` passes without `ready()` (then it is killed too).
 */
export async function killCliWhen(
	argv: string[],
	ready: () => boolean,
	opts: { pollMs?: number; giveUpMs?: number; giveUpMessage?: string } = {}
): Promise<void> {
	const child = spawn(process.execPath, [BIN, ...argv], { stdio: 'ignore' });
	const exited = new Promise((r) => child.on('exit', r));
	const started = Date.now();
	try {
		await new Promise<void>((resolve, reject) => {
			const timer = setInterval(() => {
				if (opts.giveUpMs !== undefined && Date.now() - started > opts.giveUpMs) {
					clearInterval(timer);
					child.kill('SIGKILL');
					reject(new Error(opts.giveUpMessage ?? 'the condition never held'));
				} else if (ready()) {
					clearInterval(timer);
					child.kill('SIGKILL');
					resolve();
				}
			}, opts.pollMs ?? 20);
			child.on('exit', () => {
				clearInterval(timer);
				reject(new Error('the run finished before it could be killed'));
			});
		});
	} finally {
		await exited;
	}
}

export interface Exit {
	code: number | null;
	signal: string | null;
	stdout: string;
	stderr: string;
}

/** The CLI in a child process, its output collected. */
export function spawnCli(argv: string[]): { done: Promise<Exit>; pid: number | undefined } {
	const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (b) => (stdout += String(b)));
	child.stderr.on('data', (b) => (stderr += String(b)));
	const done = new Promise<Exit>((resolve) =>
		child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
	);
	return { done, pid: child.pid };
}

/** Poll `cond` every 20 ms; rejects naming `what` after `ms`. */
export async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
	const start = Date.now();
	while (!cond()) {
		if (Date.now() - start > ms) throw new Error(`timed out waiting: ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

/** The fewest `run` flags parseRunArgs accepts (no subcommand): tests add the flag they check. */
export const MINIMAL_RUN_ARGS: readonly string[] = [
	'--base-url',
	'http://x',
	'--model',
	'm',
	'--judge-mode',
	'rules',
	'--dataset',
	'demo',
	'--out',
	'o.jsonl'
];

/** Answers like a GSM8K solver; user turns differ per seed so conditions are distinguishable. */
export const script: ScriptFn = (req) => {
	if (req.kind === 'chat') {
		const why = req.prompt.includes('Why');
		return JSON.stringify({
			label: why ? 'genuine_followup' : 'prompt_restatement',
			verdict: why ? 'genuine' : 'not_genuine',
			rationale: 'scripted'
		});
	}
	if (req.prompt.endsWith('<|im_start|>assistant\n'))
		return 'Adding gives the total. The answer is 18.<|im_end|>';
	return `Why did you add them? (${req.temperature === 0 ? 0 : req.seed % 1000})<|im_end|>`;
};

export interface Cli {
	server: MockOpenAI;
	dir: string;
	dataset: string;
	/** `run` flags for a small run into `out`; `extra` comes last, so it overrides. */
	args(out: string, extra?: string[]): string[];
	/** The same flags without the `run` subcommand, as parseRunArgs takes them. */
	flags(out: string, extra?: string[]): string[];
	close(): Promise<void>;
}

/** `brain` answers every request (default: `script`); `rows` GSM8K items go to the dataset file. */
export async function startCli(rows = 4, brain: ScriptFn = script): Promise<Cli> {
	const server = await startMockOpenAI({ script: brain, models: ['gen', 'judge'] });
	const dir = mkdtempSync(join(tmpdir(), 'utp-cli-'));
	const dataset = join(dir, 'gsm8k.jsonl');
	const data = readJsonl<{ question: string; answer: string }>('gsm8k/test.jsonl').slice(0, rows);
	writeFileSync(dataset, data.map((r) => JSON.stringify(r)).join('\n') + '\n');
	const flags = (out: string, extra: string[] = []) => [
		'--base-url',
		server.url,
		'--model',
		'gen',
		'--judge-model',
		'judge',
		'--judge-mode',
		'llm',
		'--dataset',
		dataset,
		'--limit',
		'0',
		'--temperatures',
		'0,1',
		'--perturbations',
		'none,truncate',
		'--template',
		QWEN,
		'--eos-token',
		'<|im_end|>',
		'--out',
		out,
		...extra
	];
	return {
		server,
		dir,
		dataset,
		args: (out, extra) => ['run', ...flags(out, extra)],
		flags,
		close: () => server.close()
	};
}

export interface Outcome {
	code: number;
	stdout: string;
	stderr: string;
}

/** main(argv, env) with process.stdout and process.stderr captured. */
export async function runMain(
	argv: string[],
	env: Record<string, string | undefined> = {}
): Promise<Outcome> {
	const out: string[] = [];
	const err: string[] = [];
	const stdout = process.stdout.write.bind(process.stdout);
	const stderr = process.stderr.write.bind(process.stderr);
	process.stdout.write = ((s: string) => out.push(String(s)) > 0) as typeof process.stdout.write;
	process.stderr.write = ((s: string) => err.push(String(s)) > 0) as typeof process.stderr.write;
	try {
		const code = await main(argv, env);
		return { code, stdout: out.join(''), stderr: err.join('') };
	} finally {
		process.stdout.write = stdout;
		process.stderr.write = stderr;
	}
}
