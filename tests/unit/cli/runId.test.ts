/**
 * A new CLI run's default id carries its config and a random part: two people running the same
 * model, dataset and seed no longer make one id (a study tells runs apart by it); a resumed --out
 * keeps the id it has.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCliRunId } from '../../../src/cli/startPorts.ts';
import { runMain, startCli, type Cli } from './harness.ts';

let cli: Cli;
beforeAll(async () => {
	cli = await startCli(2);
});
afterAll(() => cli.close());

const manifestId = (out: string) =>
	(
		JSON.parse(readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8')) as {
			run_id: string;
		}
	).run_id;

describe('default run ids', () => {
	it('name the model, dataset and seed, and differ between two new runs of one config', () => {
		const opts = { model: 'Qwen/Qwen3-0.6B', dataset: '/data/my gsm8k.jsonl', seed: 7 };
		const a = newCliRunId(opts, () => new Uint8Array([0, 1, 2, 3]));
		expect(a).toBe('cli-Qwen_Qwen3-0.6B-my_gsm8k-s7-00010203');
		expect(newCliRunId(opts)).not.toBe(newCliRunId(opts));
		expect(newCliRunId({ ...opts, model: 'x'.repeat(300) }).length).toBeLessThan(90);
	});

	it('are new for a new --out and kept when the same --out resumes', async () => {
		const args = (out: string) => cli.args(out, ['--judge-mode', 'rules', '--judge-model', 'gen']);
		const one = join(cli.dir, 'one.jsonl');
		const two = join(cli.dir, 'two.jsonl');
		expect((await runMain(args(one))).code).toBe(0);
		expect((await runMain(args(two))).code).toBe(0);
		const id = manifestId(one);
		expect(id).toMatch(/^cli-gen-gsm8k-s0-[0-9a-f]{8}$/);
		expect(manifestId(two)).not.toBe(id);
		expect((await runMain(args(one))).code).toBe(0);
		expect(manifestId(one)).toBe(id);
	}, 60_000);
});
