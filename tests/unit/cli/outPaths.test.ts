/**
 * One real path per --out, and no output over an input. Before: two runs, one through a symlink to
 * the other's records file, both finished and the file kept 14–23 lines for 48 records; one run
 * through a link replaced the link by a file at compaction; a sweep's --overwrite replaced its own
 * dataset with a model's records, then failed on the next model.
 */
import {
	appendFileSync,
	existsSync,
	lstatSync,
	mkdirSync,
	readFileSync,
	symlinkSync,
	writeFileSync
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { acquireRunLock, lockPath, OutNotWritableError } from '../../../src/cli/lock.ts';
import { realPath } from '../../../src/cli/realPath.ts';
import { sweepOf } from '../../../src/cli/sweep.ts';
import { MINIMAL_RUN_ARGS, runMain, spawnCli, startCli, until, type Cli } from './harness.ts';

function lines(path: string): string[] {
	return readFileSync(path, 'utf8').split('\n').filter(Boolean);
}
function keys(path: string): string[] {
	return lines(path).map((l) => (JSON.parse(l) as { key: string }).key);
}

let cli: Cli;
beforeAll(async () => {
	cli = await startCli(6);
	cli.server.setModels(['gen', 'judge', 'x', 'y']);
});
afterAll(() => cli.close());

const rulesArgs = (out: string, extra: string[] = []) =>
	cli.args(out, ['--judge-mode', 'rules', '--judge-model', 'gen', '--concurrency', '2', ...extra]);

describe('realPath', () => {
	it('resolves a link, a dangling link and a file not made yet through a linked folder', () => {
		const dir = join(cli.dir, 'real');
		mkdirSync(join(dir, 'target'), { recursive: true });
		symlinkSync(join(dir, 'target'), join(dir, 'via'));
		symlinkSync('target/later.jsonl', join(dir, 'dangling.jsonl'));
		const target = realPath(join(dir, 'target'));
		expect(realPath(join(dir, 'via', 'new.jsonl'))).toBe(join(target, 'new.jsonl'));
		expect(realPath(join(dir, 'dangling.jsonl'))).toBe(join(target, 'later.jsonl'));
	});
});

describe('--out through a symlink', () => {
	it('a second run through a link to the first run’s file is refused, and nothing is lost', async () => {
		const out = join(cli.dir, 'shared.jsonl');
		const link = join(cli.dir, 'mine.jsonl');
		writeFileSync(out, '');
		symlinkSync(out, link);
		cli.server.tokenDelayMs = 80;
		try {
			const first = spawnCli(rulesArgs(out));
			let firstEnded = false;
			void first.done.then(() => (firstEnded = true));
			await until(() => lines(out).length > 0, 30_000, 'the first run stores a record');
			const second = await spawnCli(rulesArgs(link)).done;
			expect(firstEnded, 'the first run ended before the second was refused').toBe(false);
			expect(second.code, second.stderr).toBe(1);
			expect(second.stderr).toContain(`being written by another run (pid ${first.pid}`);
			expect(second.stderr).toContain(`--out ${link} is a link: writing ${realPath(out)}`);
			const a = await first.done;
			expect(a.code, a.stderr).toBe(0);
			// 6 items × (T=0 + T=1) × (none, truncate): every record, once.
			expect(keys(out)).toHaveLength(24);
			expect(new Set(keys(out)).size).toBe(24);
			expect(lstatSync(link).isSymbolicLink()).toBe(true);
			expect(existsSync(lockPath(out))).toBe(false);
		} finally {
			cli.server.tokenDelayMs = 0;
		}
	}, 90_000);

	it('one run through a link keeps the link a link when it compacts, and --overwrite too', async () => {
		const dir = join(cli.dir, 'linked');
		mkdirSync(dir);
		const target = join(dir, 'target.jsonl');
		const link = join(cli.dir, 'link-to-target.jsonl');
		symlinkSync(target, link); // dangling until the run writes its first record
		const first = await runMain(rulesArgs(link));
		expect(first.code, first.stderr).toBe(0);
		expect(lstatSync(link).isSymbolicLink()).toBe(true);
		expect(existsSync(join(dir, 'target.manifest.json'))).toBe(true);
		// A record stored twice (as a resumed run stores a record it redid) makes the next run compact.
		appendFileSync(target, lines(target)[0] + '\n');
		expect(lines(target)).toHaveLength(25);
		const again = await runMain(rulesArgs(link));
		expect(again.code, again.stderr).toBe(0);
		expect(lstatSync(link).isSymbolicLink()).toBe(true);
		expect(lines(target)).toHaveLength(24);
		expect(new Set(keys(target)).size).toBe(24);
		const over = await runMain(rulesArgs(link, ['--overwrite']));
		expect(over.code, over.stderr).toBe(0);
		expect(lstatSync(link).isSymbolicLink()).toBe(true);
		expect(keys(target)).toHaveLength(24);
	}, 90_000);
});

describe('every output of a run against every input', () => {
	const flags = (extra: string[]) => parseRunArgs([...MINIMAL_RUN_ARGS, ...extra]);

	it('refuses a sweep whose model writes over its own dataset, and leaves the dataset as it was', async () => {
		const dir = join(cli.dir, 'W');
		mkdirSync(dir);
		const dataset = join(dir, 'ds.x.jsonl');
		const text = readFileSync(cli.dataset, 'utf8');
		writeFileSync(dataset, text);
		const r = await runMain(
			rulesArgs(join(dir, 'ds.jsonl'), ['--dataset', dataset, '--model', 'x,y', '--overwrite'])
		);
		expect(r.code).toBe(2);
		expect(r.stderr).toContain(
			`the records file of --model x (${dataset}) would write over the --dataset file (${dataset})`
		);
		expect(readFileSync(dataset, 'utf8')).toBe(text);
		expect(existsSync(join(dir, 'ds.y.jsonl'))).toBe(false);
	});

	it('refuses a sweep where one run’s answers file is another run’s records file', () => {
		expect(() => sweepOf(flags(['--model', 'x,x.answers', '--out', 'o.jsonl']))).toThrow(
			'the records file of --model x.answers (o.x.answers.jsonl) is the same file as the answers file of --model x (o.x.answers.jsonl)'
		);
	});

	it('refuses a template or study list among the outputs', () => {
		expect(() =>
			sweepOf(flags(['--model', 'a,b', '--out', 'o.jsonl', '--template', 'o.b.manifest.json']))
		).toThrow('the manifest of --model b (o.b.manifest.json) would write over the --template file');
		expect(() =>
			sweepOf(flags(['--model', 'a,b', '--out', 'o.jsonl', '--dataset', 'o.study.json']))
		).toThrow('the study list (o.study.json) would write over the --dataset file (o.study.json)');
	});

	it('refuses a single run whose --out is the dataset reached through a link', () => {
		const dir = join(cli.dir, 'single');
		mkdirSync(dir);
		const real = join(dir, 'data.jsonl');
		writeFileSync(real, '');
		const link = join(dir, 'alias.jsonl');
		symlinkSync(real, link);
		expect(() => flags(['--dataset', link, '--out', real])).toThrow(
			`the records file of --out (${real}) would write over the --dataset file (${link})`
		);
	});
});

describe('an --out that cannot be written', () => {
	it('names a file name too long (a sweep of a 300-character model id) instead of ENAMETOOLONG', () => {
		const out = join(cli.dir, `sweep.${'m'.repeat(300)}.jsonl`);
		expect(() => acquireRunLock(out)).toThrow(OutNotWritableError);
		expect(() => acquireRunLock(out)).toThrow(
			'its file name is longer than the file system allows'
		);
	});
});
