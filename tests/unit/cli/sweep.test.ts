/**
 * `run --model a,b,c` against a scripted server: one resumable run per model beside --out, a
 * study list and a one-file study, each of which `summarize` reads as the three files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { sweepOf, writeStudyFile } from '../../../src/cli/sweep.ts';
import { MINIMAL_RUN_ARGS, runMain, startCli, type Cli } from './harness.ts';

let cli: Cli;
beforeAll(async () => {
	cli = await startCli(3);
	cli.server.setModels(['m-a', 'org/m-b', 'm-c', 'judge']);
});
afterAll(() => cli.close());

describe('run --model a,b,c', () => {
	it('writes one run per model and a study list, and summarize reads the list', async () => {
		const out = join(cli.dir, 'sweep.jsonl');
		const r = await runMain(cli.args(out, ['--model', 'm-a,org/m-b,m-c']));
		expect(r.code, r.stderr).toBe(0);
		const files = ['m-a', 'org_m-b', 'm-c'].map((s) => join(cli.dir, `sweep.${s}.jsonl`));
		for (const f of files) expect(existsSync(f.replace(/\.jsonl$/, '.manifest.json'))).toBe(true);
		expect(r.stderr).toContain('model 2 of 3: org/m-b');
		const study = JSON.parse(readFileSync(join(cli.dir, 'sweep.study.json'), 'utf8'));
		expect(study).toEqual({
			format: 'user-turn-probe-study',
			version: 1,
			runs: ['sweep.m-a.jsonl', 'sweep.org_m-b.jsonl', 'sweep.m-c.jsonl']
		});
		const viaList = await runMain(['summarize', '--json', join(cli.dir, 'sweep.study.json')]);
		const viaFiles = await runMain(['summarize', '--json', ...files]);
		expect(viaList.code, viaList.stderr).toBe(0);
		expect(viaList.stdout).toBe(viaFiles.stdout);
		expect(JSON.parse(viaList.stdout).models.map((m: { name: string }) => m.name)).toEqual([
			'm-a',
			'org/m-b',
			'm-c'
		]);
		// The one-file study beside the list: every run inside it, read as the app imports it.
		const bundled = join(cli.dir, 'sweep.study.jsonl');
		expect(r.stderr).toContain(`and ${bundled} (all of them in one file`);
		const text = readFileSync(bundled, 'utf8');
		expect(JSON.parse(text.slice(0, text.indexOf('\n')))).toEqual({
			format: 'user-turn-probe-study',
			version: 1,
			runs: 3
		});
		const viaBundle = await runMain(['summarize', '--json', bundled]);
		expect(viaBundle.code, viaBundle.stderr).toBe(0);
		expect(viaBundle.stdout).toBe(viaFiles.stdout);
		const textOf = async (args: string[]) => (await runMain(['summarize', ...args])).stdout;
		expect(await textOf([bundled])).toBe(await textOf(files));
		expect(await textOf(['--csv', bundled])).toBe(await textOf(['--csv', ...files]));
		// The same command again resumes every run: nothing is left to generate.
		const before = cli.server.requests.length;
		const again = await runMain(cli.args(out, ['--model', 'm-a,org/m-b,m-c']));
		expect(again.code, again.stderr).toBe(0);
		const completions = cli.server.requests
			.slice(before)
			.filter((q) => q.path.endsWith('/completions'));
		expect(completions).toEqual([]);
	}, 60_000);

	it('writes its study list into an --out folder that does not exist yet', () => {
		const out = join(cli.dir, 'fresh', 'runs', 'sweep.jsonl');
		const sweep = sweepOf(parseRunArgs([...MINIMAL_RUN_ARGS, '--model', 'a,b', '--out', out]));
		if (!sweep) throw new Error('not a sweep');
		writeStudyFile(sweep);
		expect(
			JSON.parse(readFileSync(join(cli.dir, 'fresh/runs/sweep.study.json'), 'utf8')).runs
		).toEqual(['sweep.a.jsonl', 'sweep.b.jsonl']);
	});

	it('pairs one server per model, or refuses a count that does not pair', () => {
		const flags = (extra: string[]) => parseRunArgs([...MINIMAL_RUN_ARGS, ...extra]);
		const sweep = sweepOf(flags(['--model', 'a,b', '--base-url', 'http://x,http://y']));
		expect(sweep?.runs.map((r) => [r.model, r.baseUrl, r.judgeBaseUrl, r.judgeModel])).toEqual([
			['a', 'http://x', 'http://x', 'a'],
			['b', 'http://y', 'http://x', 'b']
		]);
		expect(sweepOf(flags(['--model', 'a']))).toBeNull();
		expect(() => sweepOf(flags(['--model', 'a,b,c', '--base-url', 'http://x,http://y']))).toThrow(
			/one server for every model, or one per model \(3\); got 2/
		);
		expect(() => sweepOf(flags(['--model', 'a/b,a_b']))).toThrow(/two models would write a_b/);
	});
});
