import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs, RUN_OPTIONS, RUN_USAGE } from '../../../src/cli/args.ts';
import { MINIMAL_RUN_ARGS, runMain, startCli, type Cli } from './harness.ts';

const README = fileURLToPath(new URL('../../../README.md', import.meta.url));

describe('run flags are validated', () => {
	const bad: [string[], RegExp][] = [
		[['--temperatures', ''], /--temperatures: expected a comma-separated list, got ""/],
		[['--temperatures', '0,,1'], /--temperatures: expected a comma-separated list/],
		[['--temperatures', '0,0'], /--temperatures: "0" is listed twice/],
		[['--temperatures', '0,0.0'], /--temperatures: 0 is listed twice/],
		[['--temperatures', '2.5'], /--temperatures: expected numbers in \[0, 2\]/],
		[['--temperatures=-0.5'], /--temperatures: expected numbers in \[0, 2\]/],
		[['--temperatures', 'hot'], /--temperatures: expected numbers in \[0, 2\]/],
		[['--perturbations', 'none,none'], /--perturbations: "none" is listed twice/],
		[['--perturbations', ''], /--perturbations: expected a comma-separated list/],
		[['--perturbations', 'shuffle'], /unknown "shuffle"/],
		[['--seed=-1'], /--seed: expected an integer ≥ 0, got "-1"/],
		[['--limit', ''], /--limit: expected an integer ≥ 0, got ""/],
		[['--limit', '1.5'], /--limit: expected an integer/],
		[['--samples', '0'], /--samples: expected an integer ≥ 1/],
		[['--concurrency', '0x10'], /--concurrency: expected an integer/],
		[['--max-tokens', '1e3'], /--max-tokens: expected an integer/],
		[['--truncate-fraction', ''], /--truncate-fraction must be in \(0, 1\]/],
		[['--truncate-fraction', '0'], /--truncate-fraction must be in \(0, 1\]/],
		[['--append-text', ''], /--append-text is empty/],
		[['--out', ''], /--out is empty/],
		[['--judge-mode', 'vibes'], /--judge-mode: rules, llm or hybrid/],
		[['--dataset', 'o.jsonl'], /--out: the records file of --out \(o\.jsonl\) would write over/],
		[
			['--dataset', './o.answers.jsonl'],
			/\(o\.answers\.jsonl\) would write over the --dataset file \(\.\/o\.answers\.jsonl\)/
		],
		[['--template', 'o.manifest.json'], /would write over the --template file/],
		[['--dataset', 'o.lock'], /the lock file of --out \(o\.lock\) would write over/]
	];
	for (const [extra, message] of bad) {
		it(`${extra.join(' ') || '(none)'} → usage error`, () => {
			expect(() => parseRunArgs([...MINIMAL_RUN_ARGS, ...extra])).toThrow(message);
		});
	}

	it('accepts the edges of the ranges', () => {
		const o = parseRunArgs([
			...MINIMAL_RUN_ARGS,
			'--temperatures',
			'0, 2',
			'--truncate-fraction',
			'1'
		]);
		expect(o.temperatures).toEqual([0, 2]);
		expect(o.truncateFraction).toBe(1);
		expect(o.overwrite).toBe(false);
	});

	it("turns parseArgs' errors into usage errors with the usage text, exit 2", async () => {
		for (const [argv, message] of [
			[
				['run', ...MINIMAL_RUN_ARGS, '--temprature', '1'],
				/usage error: Unknown option '--temprature'/
			],
			[
				['run', ...MINIMAL_RUN_ARGS, '--seed', '-1'],
				/usage error: Option '--seed' argument is ambiguous\..*'--seed=-XYZ'/
			],
			[['run', ...MINIMAL_RUN_ARGS, 'stray'], /usage error: Unexpected argument 'stray'/],
			[
				['run', ...MINIMAL_RUN_ARGS, '--temperatures', '0,0'],
				/usage error: --temperatures: "0" is listed twice/
			],
			[['sumarize', 'x.jsonl'], /usage error: unknown command "sumarize"/],
			[['summarize'], /usage error: summarize needs a records file/]
		] as const) {
			const r = await runMain([...argv]);
			expect(r.code, argv.join(' ')).toBe(2);
			expect(r.stderr).toMatch(message);
			expect(r.stderr).toMatch(/Usage: user-turn-probe|user-turn-probe run \.\.\./);
			expect(r.stderr).not.toMatch(/at .*\.ts:\d+/); // no stack trace
		}
	});

	it('--help lists every flag run accepts and every flag the README shows for run', async () => {
		const r = await runMain(['run', '--help']);
		expect(r.code).toBe(0);
		for (const flag of Object.keys(RUN_OPTIONS)) expect(r.stdout).toContain(`--${flag}`);
		const readme = readFileSync(README, 'utf8');
		const section = readme.slice(
			readme.indexOf('## Command line'),
			readme.indexOf('\n## ', readme.indexOf('## Command line') + 5)
		);
		const promised = new Set(section.match(/--[a-z][a-z-]+/g));
		expect(promised.size).toBeGreaterThan(5);
		for (const flag of promised) expect(RUN_USAGE, flag).toContain(flag);
	});
});

describe('run inputs that do not exist', () => {
	let cli: Cli;
	beforeAll(async () => {
		cli = await startCli();
	});
	afterAll(() => cli.close());

	it('a dataset name typo names the datasets that exist', async () => {
		const args = cli.args(`${cli.dir}/typo.jsonl`);
		args[args.indexOf('--dataset') + 1] = 'gsm8kk';
		const r = await runMain(args);
		expect(r.code).toBe(2);
		expect(r.stderr).toMatch(
			/--dataset: "gsm8kk" is neither a dataset name \(demo, gsm8k, ifeval, ifbench, conversations, oasst_threads, gpqa_diamond, gpqa_main\) nor a file/
		);
		expect(r.stderr).not.toMatch(/ENOENT/);
	});

	it('a missing template file is named, not ENOENT', async () => {
		const r = await runMain(
			cli.args(`${cli.dir}/tpl.jsonl`, ['--template', `${cli.dir}/nope.jinja`])
		);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/error: no such template file: .*nope\.jinja/);
	});
});
