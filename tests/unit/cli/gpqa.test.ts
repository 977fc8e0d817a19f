/**
 * The CLI on GPQA: --hf-token or HF_TOKEN reaches the Hub (a local stand-in) and nothing the run
 * writes holds the token. Made-up questions only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/run.ts';
import { GpqaAccessError } from '../../../src/lib/datasets/tasks/gpqa.ts';
import type { ProbeRecord, RunManifest } from '../../../src/lib/probe/types.ts';
import {
	GOOD_TOKEN,
	NOT_ACCEPTED_TOKEN,
	startFakeHub,
	type FakeHub
} from '../datasets/fakeHubServer.ts';
import { runMain, startCli, type Cli } from './harness.ts';

const rows = Array.from({ length: 3 }, (_, i) => ({
	Question: `Made-up question ${i}: how many legs has the imaginary animal "quib-${i}"?`,
	'Correct Answer': `${i + 3}`,
	'Incorrect Answer 1': `${i + 10}`,
	'Incorrect Answer 2': `${i + 20}`,
	'Incorrect Answer 3': `${i + 30}`,
	'Record ID': `recMADEUP${i}`
}));

let cli: Cli;
let hub: FakeHub;
beforeAll(async () => {
	cli = await startCli(1);
	hub = await startFakeHub({
		repo: 'Idavidrein/gpqa',
		files: { 'gpqa_diamond.csv': Papa.unparse(rows) }
	});
});
afterAll(async () => {
	await cli.close();
	await hub.close();
});

/** fetch that sends huggingface.co requests to the stand-in and the rest where they go. */
const hubFetch = ((url: string | URL, init?: RequestInit) =>
	fetch(String(url).replace('https://huggingface.co', hub.base), init)) as typeof fetch;

const silent = { write: () => true };

function gpqaArgs(out: string, extra: string[]): string[] {
	const args = cli.args(out, ['--dataset', 'gpqa_diamond', ...extra]).slice(1);
	return args;
}

describe('CLI --dataset gpqa_diamond', () => {
	it('takes --hf-token, runs, states the option shuffle and writes the token nowhere', async () => {
		const out = join(cli.dir, 'gpqa.jsonl');
		const code = await runCommand(parseRunArgs(gpqaArgs(out, ['--hf-token', GOOD_TOKEN])), {
			stderr: silent,
			fetch: hubFetch
		});
		expect(code).toBe(0);
		expect(hub.requests.at(-1)?.headers.authorization).toBe(`Bearer ${GOOD_TOKEN}`);
		const records = readFileSync(out, 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((l) => JSON.parse(l) as ProbeRecord);
		expect(new Set(records.map((r) => r.item_id))).toEqual(
			new Set(['gpqa-diamond-recMADEUP0', 'gpqa-diamond-recMADEUP1', 'gpqa-diamond-recMADEUP2'])
		);
		const manifest = JSON.parse(
			readFileSync(join(cli.dir, 'gpqa.manifest.json'), 'utf8')
		) as RunManifest;
		expect(manifest.config.dataset).toBe('gpqa_diamond');
		expect(manifest.config.dataset_note).toMatch(/shuffled per item/);
		// The server saw the token-free prompt; no file of the run holds the token.
		for (const name of readdirSync(cli.dir).filter((f) => f.startsWith('gpqa'))) {
			expect(readFileSync(join(cli.dir, name), 'utf8')).not.toContain(GOOD_TOKEN);
		}
		for (const req of cli.server.requests) {
			expect(JSON.stringify(req)).not.toContain(GOOD_TOKEN);
		}
	});

	it('takes HF_TOKEN from the environment; --hf-token wins over it', () => {
		const base = gpqaArgs(join(cli.dir, 'x.jsonl'), []);
		expect(parseRunArgs(base, { HF_TOKEN: 'hf_env' }).hfToken).toBe('hf_env');
		expect(parseRunArgs([...base, '--hf-token', 'hf_flag'], { HF_TOKEN: 'hf_env' }).hfToken).toBe(
			'hf_flag'
		);
		expect(parseRunArgs(base, {}).hfToken).toBeUndefined();
	});

	it('a token whose account did not accept the terms fails with the 403 explanation', async () => {
		const out = join(cli.dir, 'gpqa403.jsonl');
		const err = await runCommand(parseRunArgs(gpqaArgs(out, ['--hf-token', NOT_ACCEPTED_TOKEN])), {
			stderr: silent,
			fetch: hubFetch
		}).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(GpqaAccessError);
		expect((err as Error).message).toMatch(/accept the dataset's terms/);
	});

	it('without a token says why GPQA is unavailable, exit 1, and makes no run', async () => {
		const out = join(cli.dir, 'gpqa-none.jsonl');
		const outcome = await runMain(['run', ...gpqaArgs(out, [])]);
		expect(outcome.code).toBe(1);
		expect(outcome.stderr).toMatch(/GPQA is gated on Hugging Face/);
		expect(outcome.stderr).toContain('https://huggingface.co/datasets/Idavidrein/gpqa');
		expect(outcome.stderr).toMatch(/import GPQA yourself/);
		expect(readdirSync(cli.dir).filter((f) => f.startsWith('gpqa-none'))).toEqual([]);
	});

	it('lists gpqa_diamond and gpqa_main and HF_TOKEN in --help', async () => {
		const outcome = await runMain(['run', '--help']);
		expect(outcome.stdout).toMatch(/^ {4}gpqa_diamond +GPQA Diamond: .*needs --hf-token$/m);
		expect(outcome.stdout).toMatch(/^ {4}gpqa_main +GPQA Main: .*needs --hf-token$/m);
		expect(outcome.stdout).toMatch(/--hf-token T[\s\S]*HF_TOKEN/);
	});
});
