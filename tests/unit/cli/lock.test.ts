/**
 * One writer per --out, with real processes: a second `run` on the same --out is refused while the
 * first writes (before, both "finished" and the records file kept 0–2 of 200 lines), a lock left by
 * a killed run is taken over with a note, and `summarize` reads while a run writes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireRunLock, lockPath, RunLockedError } from '../../../src/cli/lock.ts';
import { killCliWhen, spawnCli, startCli, until, type Cli } from './harness.ts';

function recordKeys(path: string): string[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((l) => (JSON.parse(l) as { key: string }).key);
}

describe('CLI: one writer per --out', () => {
	let cli: Cli;

	beforeAll(async () => {
		cli = await startCli(6);
	});
	afterAll(async () => cli.close());

	const args = (out: string) =>
		cli.args(out, ['--judge-mode', 'rules', '--judge-model', 'gen', '--concurrency', '2']);

	it('refuses a second run on the same --out while the first writes, and loses nothing', async () => {
		const out = join(cli.dir, 'two.jsonl');
		// Slow enough that the first run still writes when the second starts (a loaded machine too).
		cli.server.tokenDelayMs = 80;
		try {
			const first = spawnCli(args(out));
			let firstEnded = false;
			void first.done.then(() => (firstEnded = true));
			await until(() => existsSync(out), 30_000, 'the first run stores a record');
			const second = await spawnCli(args(out)).done;
			expect(firstEnded, 'the first run ended before the second was refused').toBe(false);
			expect(second.code).toBe(1);
			expect(second.stderr).toContain(`being written by another run (pid ${first.pid}`);
			expect(second.stderr).toContain(lockPath(out));
			// summarize reads while the run writes.
			const summary = await spawnCli(['summarize', out]).done;
			expect(summary.code).toBe(0);
			expect(summary.stdout).toMatch(/none/);
			const a = await first.done;
			expect(a.code).toBe(0);
			const keys = recordKeys(out);
			// 6 items × (T=0 + T=1) × (none, truncate): every record, once.
			expect(keys).toHaveLength(24);
			expect(new Set(keys).size).toBe(24);
			expect(existsSync(lockPath(out))).toBe(false);
		} finally {
			cli.server.tokenDelayMs = 0;
		}
	}, 90_000);

	it('takes over the lock of a killed run, says so, and completes the run', async () => {
		const out = join(cli.dir, 'killed.jsonl');
		cli.server.tokenDelayMs = 15;
		try {
			await killCliWhen(args(out), () => existsSync(out) && existsSync(lockPath(out)), {
				giveUpMs: 30_000
			});
		} finally {
			cli.server.tokenDelayMs = 0;
		}
		expect(existsSync(lockPath(out))).toBe(true);
		const again = await spawnCli(args(out)).done;
		expect(again.stderr).toContain('no longer running');
		expect(again.code).toBe(0);
		expect(new Set(recordKeys(out)).size).toBe(24);
		expect(existsSync(lockPath(out))).toBe(false);
	}, 90_000);

	it('refuses a lock held by a live process in the same way, in-process', () => {
		const out = join(cli.dir, 'inproc.jsonl');
		const lock = acquireRunLock(out);
		try {
			expect(() => acquireRunLock(out)).toThrow(RunLockedError);
		} finally {
			lock.release();
		}
		// Released: the next run takes it.
		acquireRunLock(out).release();
	});

	it('treats an unreadable lock as stale rather than blocking forever', () => {
		const out = join(cli.dir, 'garbage.jsonl');
		writeFileSync(lockPath(out), 'not json');
		const lock = acquireRunLock(out);
		expect(lock.tookOver).toContain('no longer running');
		lock.release();
		expect(existsSync(lockPath(out))).toBe(false);
	});
});
