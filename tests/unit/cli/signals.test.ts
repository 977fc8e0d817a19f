/**
 * SIGTERM (kill, a container stopping) and SIGHUP (a closed terminal) stop a run as Ctrl-C does:
 * a message, the manifest paused, the lock released; and a stopped run exits non-zero (128 + the
 * signal's number), so a script does not take it for a finished one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockPath } from '../../../src/cli/lock.ts';
import { spawnCli, startCli, until, type Cli } from './harness.ts';

describe('CLI: stopped by a signal', () => {
	let cli: Cli;
	beforeAll(async () => {
		cli = await startCli(6);
		cli.server.tokenDelayMs = 50;
	});
	afterAll(() => cli.close());

	for (const [signal, code] of [
		['SIGINT', 130],
		['SIGTERM', 143],
		['SIGHUP', 129]
	] as const) {
		it(`${signal} stops cleanly, pauses the run and exits ${code}`, async () => {
			const out = join(cli.dir, `${signal}.jsonl`);
			const run = spawnCli(cli.args(out, ['--judge-mode', 'rules', '--judge-model', 'gen']));
			await until(() => existsSync(out), 30_000, 'a record is stored');
			process.kill(run.pid as number, signal);
			const r = await run.done;
			expect(r.code).toBe(code);
			expect(r.stderr).toContain(`${signal}: stopping`);
			expect(r.stderr).toContain('run the same command to resume');
			const manifest = JSON.parse(readFileSync(join(cli.dir, `${signal}.manifest.json`), 'utf8'));
			expect(manifest.status).toBe('paused');
			expect(existsSync(lockPath(out))).toBe(false);
		}, 60_000);
	}
});
