/**
 * --answer-max-tokens auto (the default): the answer limit follows the server's context window where
 * the server tells it (vLLM's max_model_len, llama-server's /props n_ctx), by the browser's rule
 * (answerTokenLimit); a server that does not tell gets 1024 and the log says so; a number given
 * asks nothing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunArgs, UsageError } from '../../../src/cli/args.ts';
import { PROMPT_ALLOWANCE } from '../../../src/lib/probe/runConfig.ts';
import type { RunManifest } from '../../../src/lib/probe/types.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { MINIMAL_RUN_ARGS, QWEN, runMain, script, startCli, type Cli } from './harness.ts';

const USER_TURN_TOKENS = 256; // the CLI's --max-tokens default

let cli: Cli | undefined;
let extra: MockOpenAI | undefined;
afterEach(async () => {
	await cli?.close();
	await extra?.close();
	cli = extra = undefined;
});

const manifestOf = (out: string): RunManifest =>
	JSON.parse(readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8'));

/** The max_tokens of every answer request (prompts that end in the assistant header). */
function answerMaxTokens(server: MockOpenAI): unknown[] {
	return server.requests
		.filter((q) => q.path === '/v1/completions')
		.map((q) => q.body as { prompt: string; max_tokens?: unknown })
		.filter((b) => b.prompt.endsWith('<|im_start|>assistant\n'))
		.map((b) => b.max_tokens);
}

describe('--answer-max-tokens', () => {
	it('parses auto (also when absent) or an integer ≥ 1, and refuses anything else', () => {
		expect(parseRunArgs([...MINIMAL_RUN_ARGS]).answerMaxTokens).toBe('auto');
		expect(parseRunArgs([...MINIMAL_RUN_ARGS, '--answer-max-tokens', 'auto']).answerMaxTokens).toBe(
			'auto'
		);
		expect(parseRunArgs([...MINIMAL_RUN_ARGS, '--answer-max-tokens', '300']).answerMaxTokens).toBe(
			300
		);
		for (const bad of ['0', '-5', '1.5', 'big', '']) {
			expect(() => parseRunArgs([...MINIMAL_RUN_ARGS, '--answer-max-tokens', bad])).toThrow(
				UsageError
			);
		}
	});

	it('vLLM: the context window in /v1/models sizes every answer, and the log says where from', async () => {
		cli = await startCli(2);
		cli.server.modelFields.gen = { owned_by: 'vllm', max_model_len: 8192 };
		const out = join(cli.dir, 'vllm.jsonl');
		const r = await runMain(cli.args(out));
		expect(r.code, r.stderr).toBe(0);
		const want = 8192 - USER_TURN_TOKENS - PROMPT_ALLOWANCE;
		expect(manifestOf(out).config.answer_max_tokens).toBe(want);
		expect(r.stderr).toContain(`answer limit: ${want} tokens (context window 8192 from`);
		const asked = answerMaxTokens(cli.server);
		expect(asked.length).toBeGreaterThan(0);
		expect(asked.every((m) => m === want)).toBe(true);
		// The model list told it: /props was not asked.
		expect(cli.server.requests.some((q) => q.path === '/props')).toBe(false);
	});

	it('llama-server: /props n_ctx sizes the answers; a rerun resumes (same limit, same identity)', async () => {
		extra = await startMockOpenAI({
			script,
			llamaServer: { modelPath: '/models/qwen.gguf', alias: 'gen', contextSize: 2048 }
		});
		const dir = mkdtempSync(join(tmpdir(), 'utp-cli-limit-'));
		const out = join(dir, 'llama.jsonl');
		const args = [
			'run',
			'--base-url',
			extra.url,
			'--model',
			'gen',
			'--judge-mode',
			'rules',
			'--dataset',
			'demo',
			'--limit',
			'2',
			'--temperatures',
			'0',
			'--template',
			QWEN,
			'--out',
			out
		];
		const r = await runMain(args);
		expect(r.code, r.stderr).toBe(0);
		const want = 2048 - USER_TURN_TOKENS - PROMPT_ALLOWANCE;
		expect(manifestOf(out).config.answer_max_tokens).toBe(want);
		expect(r.stderr).toMatch(/context window 2048 from .*\/props/);
		expect(answerMaxTokens(extra).every((m) => m === want)).toBe(true);
		const again = await runMain(args);
		expect(again.code, again.stderr).toBe(0);
		expect(manifestOf(out).config.answer_max_tokens).toBe(want);
	});

	it('warns, as set-up does, when the told window is too small for the run, and not otherwise', async () => {
		cli = await startCli(2);
		cli.server.modelFields.gen = { owned_by: 'vllm', max_model_len: 700 };
		const out = join(cli.dir, 'tiny.jsonl');
		const r = await runMain(cli.args(out));
		expect(r.code, r.stderr).toBe(0);
		expect(r.stderr).toContain(
			'Warning: The longest prompt (256 answer tokens plus about 512 for the question and template)'
		);
		expect(r.stderr).toContain('more than the 700-token context window');
		cli.server.modelFields.gen = { owned_by: 'vllm', max_model_len: 8192 };
		const big = await runMain(cli.args(join(cli.dir, 'big.jsonl')));
		expect(big.code, big.stderr).toBe(0);
		expect(big.stderr).not.toContain('Warning: The longest prompt');
	});

	it('a server that does not tell: 1024, said on stderr', async () => {
		cli = await startCli(2);
		const out = join(cli.dir, 'silent.jsonl');
		const r = await runMain(cli.args(out));
		expect(r.code, r.stderr).toBe(0);
		expect(manifestOf(out).config.answer_max_tokens).toBe(1024);
		expect(r.stderr).toContain('answer limit: 1024 tokens (the server does not tell');
		expect(answerMaxTokens(cli.server).every((m) => m === 1024)).toBe(true);
	});

	it('a number given is used as is, and the server is not asked for its context window', async () => {
		cli = await startCli(2);
		const out = join(cli.dir, 'fixed.jsonl');
		const r = await runMain(cli.args(out, ['--answer-max-tokens', '300']));
		expect(r.code, r.stderr).toBe(0);
		expect(manifestOf(out).config.answer_max_tokens).toBe(300);
		expect(r.stderr).not.toContain('answer limit:');
		expect(answerMaxTokens(cli.server).every((m) => m === 300)).toBe(true);
		// auto would have asked /props here (the model list tells nothing): a given number asks nothing.
		expect(cli.server.requests.some((q) => q.path === '/props')).toBe(false);
	});
});
