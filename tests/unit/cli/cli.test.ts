import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { main } from '../../../src/cli/probe.ts';
import { runCommand } from '../../../src/cli/run.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import type { MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { killCliWhen, startCli, type Cli } from './harness.ts';

function lines(path: string): ProbeRecord[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => JSON.parse(l) as ProbeRecord);
}

const silent = { write: () => true };

describe('user-turn-probe CLI', () => {
	let cli: Cli;
	let server: MockOpenAI;
	let dir: string;

	beforeAll(async () => {
		cli = await startCli(6);
		({ server, dir } = cli);
	});
	afterAll(async () => cli.close());

	/** The harness's run with every perturbation and two samples at T > 0. */
	const args = (out: string, extra: string[] = []) =>
		cli.flags(out, ['--perturbations', 'none,truncate,append', '--samples', '2', ...extra]);

	it('runs the full probe and writes one record per line with the fields the app imports', async () => {
		const out = join(dir, 'full.jsonl');
		const code = await runCommand(parseRunArgs(args(out)), { stderr: silent });
		expect(code).toBe(0);
		const records = lines(out);
		// 6 items × 3 perturbations × (1 greedy turn at T=0 + 2 samples at T=1).
		expect(records).toHaveLength(6 * 3 * (1 + 2));
		for (const r of records) {
			for (const field of [
				'item_id',
				'temperature',
				'perturbation',
				'sample',
				'prompt',
				'user_turn',
				'label',
				'rule_label',
				'correct'
			]) {
				expect(r).toHaveProperty(field);
			}
			expect(r.prompt.endsWith('<|im_start|>user\n')).toBe(true);
			expect(r.label).not.toBeNull();
		}
		const manifest = JSON.parse(readFileSync(join(dir, 'full.manifest.json'), 'utf8'));
		expect(manifest).toMatchObject({ status: 'done', engine: 'openai', run_id: records[0].run_id });
		expect(manifest.config).toMatchObject({ samples: 2, samples_at_t0: 1 });
		const answerCalls = server.requests.filter(
			(r) =>
				r.path === '/v1/completions' &&
				String((r.body as { prompt: string }).prompt).endsWith('assistant\n')
		);
		expect(answerCalls.length).toBeGreaterThanOrEqual(6);
	});

	it('gives the same records with --concurrency 8 as with --concurrency 1', async () => {
		const strip = (rs: ProbeRecord[]) =>
			rs
				.map(({ usage: _u, judge_usage: _j, created_at: _c, ...rest }) => rest)
				.sort((a, b) => a.key.localeCompare(b.key));
		const one = join(dir, 'c1.jsonl');
		const eight = join(dir, 'c8.jsonl');
		await runCommand(parseRunArgs(args(one, ['--concurrency', '1', '--run-id', 'same'])), {
			stderr: silent
		});
		await runCommand(parseRunArgs(args(eight, ['--concurrency', '8', '--run-id', 'same'])), {
			stderr: silent
		});
		expect(strip(lines(eight))).toEqual(strip(lines(one)));
	});

	it('resumes a killed run to exactly the planned records, without duplicates', async () => {
		const out = join(dir, 'killed.jsonl');
		server.tokenDelayMs = 3;
		await killCliWhen(
			['run', ...args(out, ['--concurrency', '2'])],
			() => existsSync(out) && readFileSync(out, 'utf8').split('\n').length > 10
		);
		server.tokenDelayMs = 0;
		const before = lines(out).length;
		expect(before).toBeLessThan(54);
		const code = await runCommand(parseRunArgs(args(out)), { stderr: silent });
		expect(code).toBe(0);
		const after = lines(out);
		expect(after).toHaveLength(54);
		expect(new Set(after.map((r) => r.key)).size).toBe(54);
	}, 60_000);

	it('says clearly when the server is unreachable', async () => {
		const errors: string[] = [];
		const code = await runCommand(
			parseRunArgs(args(join(dir, 'down.jsonl'), ['--base-url', 'http://127.0.0.1:9'])),
			{ stderr: { write: (s: string) => errors.push(s) } }
		);
		expect(code).toBe(1);
		expect(errors.join('')).toMatch(/127\.0\.0\.1:9/);
	});

	it('names the served models when the model id is wrong', async () => {
		const errors: string[] = [];
		const code = await runCommand(
			parseRunArgs(args(join(dir, 'wrong.jsonl'), ['--model', 'nope'])),
			{
				stderr: { write: (s: string) => errors.push(s) }
			}
		);
		expect(code).toBe(1);
		expect(errors.join('')).toMatch(/nope/);
		expect(errors.join('')).toMatch(/gen/);
	});

	it('fails with the URLs it tried when the template cannot be fetched', async () => {
		// The server answers (the start checks it first); the Hub cannot be reached.
		const failingFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
			if (new URL(String(input)).hostname === '127.0.0.1') return fetch(input, init);
			throw new TypeError('fetch failed');
		}) as typeof fetch;
		const opts = parseRunArgs(
			args(join(dir, 'tpl.jsonl'), ['--template', 'HuggingFaceTB/SmolLM2-360M-Instruct'])
		);
		await expect(runCommand(opts, { stderr: silent, fetch: failingFetch })).rejects.toThrow(
			/huggingface\.co\/HuggingFaceTB\/SmolLM2-360M-Instruct/
		);
	});

	it('summarizes a records file with a 95% CI per condition', async () => {
		const out: string[] = [];
		const write = process.stdout.write.bind(process.stdout);
		process.stdout.write = ((s: string) => out.push(s) > 0) as typeof process.stdout.write;
		try {
			expect(await main(['summarize', join(dir, 'full.jsonl')])).toBe(0);
			expect(await main(['agreement', join(dir, 'full.jsonl')])).toBe(0);
		} finally {
			process.stdout.write = write;
		}
		const text = out.join('');
		expect(text).toMatch(/T=0 none/);
		expect(text).toMatch(/T=1 append/);
		expect(text).toMatch(/rules vs judge/);
	});

	it('takes the task prompt preset, a custom template and a system prompt', () => {
		expect(parseRunArgs(args('o.jsonl')).taskPrompt).toEqual({
			preset: 'bare',
			template: '{question}',
			system: ''
		});
		const paper = parseRunArgs([...args('o.jsonl'), '--task-prompt', 'paper']).taskPrompt;
		expect(paper.preset).toBe('paper');
		expect(paper.template).toContain('"Answer: <final answer>"');
		expect(
			parseRunArgs([
				...args('o.jsonl'),
				'--task-template',
				'Solve: {question}',
				'--system-prompt',
				'Be brief.'
			]).taskPrompt
		).toEqual({ preset: 'custom', template: 'Solve: {question}', system: 'Be brief.' });
		expect(() => parseRunArgs([...args('o.jsonl'), '--task-prompt', 'fancy'])).toThrow(
			/--task-prompt: bare, paper or custom/
		);
		expect(() => parseRunArgs([...args('o.jsonl'), '--task-prompt', 'custom'])).toThrow(
			/needs --task-template/
		);
		expect(() => parseRunArgs([...args('o.jsonl'), '--task-template', 'Solve it.'])).toThrow(
			/must contain \{question\}/
		);
	});

	it('rejects bad flags with a usage error', () => {
		expect(() => parseRunArgs(['--model', 'x'])).toThrow(/--base-url is required/);
		expect(() => parseRunArgs([...args('o.jsonl'), '--perturbations', 'shuffle'])).toThrow(
			/unknown "shuffle"/
		);
		expect(() => parseRunArgs([...args('o.jsonl'), '--temperatures', 'hot'])).toThrow(
			/--temperatures/
		);
	});
});
