/**
 * A study of runs that do not share their dataset, seed or judge says so, in `summarize` and in
 * the study view alike; a run listed twice counts once. Before: gsm8k seed 1 beside another
 * dataset with seed 99 was compared without a word, and `summarize a a` counted a twice.
 */
import { copyFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DexieRunStore } from '../../../src/lib/db/runs.ts';
import { filesToBundle, parseAnswersJsonl } from '../../../src/lib/probe/exchange.ts';
import { studyMixWarnings } from '../../../src/lib/results/studyMix.ts';
import { StudyState } from '../../../src/lib/state/study.svelte.ts';
import { testDB } from '../db/helpers.ts';
import { runMain, startCli, type Cli } from './harness.ts';

let cli: Cli;
let a = '';
let b = '';
beforeAll(async () => {
	cli = await startCli(3);
	a = join(cli.dir, 'a.jsonl');
	b = join(cli.dir, 'b.jsonl');
	const other = join(cli.dir, 'other.jsonl');
	copyFileSync(cli.dataset, other);
	const ra = await runMain(cli.args(a, ['--seed', '1']));
	const rb = await runMain(
		cli.args(b, ['--seed', '99', '--dataset', other, '--judge-mode', 'rules'])
	);
	expect(ra.code, ra.stderr).toBe(0);
	expect(rb.code, rb.stderr).toBe(0);
}, 90_000);
afterAll(() => cli.close());

const manifestOf = (file: string) =>
	JSON.parse(readFileSync(file.replace(/\.jsonl$/, '.manifest.json'), 'utf8')) as {
		run_id: string;
	};

describe('a study of runs that differ beyond the model', () => {
	it('is warned about by summarize, naming which run has which', async () => {
		const r = await runMain(['summarize', '--json', a, b]);
		expect(r.code, r.stderr).toBe(0);
		const [ia, ib] = [manifestOf(a).run_id, manifestOf(b).run_id];
		expect(r.stderr).toContain(
			`warning: These runs use different datasets (${cli.dataset}: ${ia}; ${join(cli.dir, 'other.jsonl')}: ${ib}), so their rates are not over the same items.`
		);
		expect(r.stderr).toContain(
			`warning: These runs use different seeds (1: ${ia}; 99: ${ib}), so they drew other items and samples.`
		);
		expect(r.stderr).toContain(
			`warning: These runs use different judges (llm judge: ${ia}; rules: ${ib}), so their labels come from different labellers.`
		);
	});

	it('is warned about by the study view the same way', async () => {
		const { db } = testDB('study-mix');
		const store = new DexieRunStore(db);
		const ids: string[] = [];
		for (const file of [a, b]) {
			const stem = file.replace(/\.jsonl$/, '');
			const bundle = filesToBundle(
				readFileSync(file, 'utf8'),
				readFileSync(`${stem}.manifest.json`, 'utf8')
			);
			bundle.answers = parseAnswersJsonl(readFileSync(`${stem}.answers.jsonl`, 'utf8')).answers;
			ids.push(await store.importRun(bundle));
		}
		const view = new StudyState(store);
		await view.load(ids);
		const cliRun = await runMain(['summarize', '--json', a, b]);
		const cliWarnings = cliRun.stderr
			.split('\n')
			.filter((l) => l.startsWith('warning: These runs'))
			.map((l) => l.slice('warning: '.length));
		expect(view.warnings).toEqual(cliWarnings);
		expect(view.warnings).toHaveLength(3);
		db.close();
	});

	it('says nothing when the runs share them', () => {
		const same = { dataset: 'gsm8k', seed: 1, judge_mode: 'hybrid', judge: { id: 'j' } };
		expect(
			studyMixWarnings([
				{ run_id: 'x', ...same },
				{ run_id: 'y', ...same }
			])
		).toEqual([]);
	});
});

describe('a run listed twice', () => {
	it('counts once, by its real path, and summarize says so', async () => {
		const link = join(cli.dir, 'a-again.jsonl');
		symlinkSync(a, link);
		const r = await runMain(['summarize', '--json', a, b, link]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.stderr).toContain(`warning: ${link} is listed twice (as ${a}); it counts once`);
		const once = await runMain(['summarize', '--json', a, b]);
		expect(JSON.parse(r.stdout)).toEqual(JSON.parse(once.stdout));
		const twice = await runMain(['summarize', '--json', a, a]);
		expect((JSON.parse(twice.stdout) as { models: unknown[] }).models).toHaveLength(1);
	});
});

describe('a study list naming a web address', () => {
	it('says summarize reads files, instead of reading the address as a path', async () => {
		const list = join(cli.dir, 'web.study.json');
		const url = 'https://runs.example.org/a.run.jsonl';
		writeFileSync(
			list,
			JSON.stringify({ format: 'user-turn-probe-study', version: 1, runs: ['a.jsonl', url] })
		);
		const r = await runMain(['summarize', list]);
		expect(r.code).not.toBe(0);
		expect(r.stderr).toContain(`${list} lists ${url}, a web address: summarize reads files`);
	});
});
