/**
 * A full disk on a real small tmpfs (mounted here when the machine allows it, else skipped): the
 * error names the file and the space it needed, the run is said to be resumable, the manifest
 * says paused, no torn line or .tmp file is left, and once space is freed the same command
 * finishes the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/run.ts';
import { startCli, type Cli } from './harness.ts';

const mountPoint = mkdtempSync(join(tmpdir(), 'utp-full-'));

/** Mount a tmpfs of `size` (e.g. "48k") at the mount point; false where mount is not allowed. */
function mountTmpfs(size: string, remount = false): boolean {
	try {
		const opts = remount ? `remount,size=${size}` : `size=${size}`;
		execFileSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', mountPoint], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

const canMount = mountTmpfs('40k');

describe.skipIf(!canMount)('CLI: the disk fills during a run', () => {
	let cli: Cli;
	beforeAll(async () => {
		cli = await startCli(6);
	});
	afterAll(async () => {
		await cli.close();
		try {
			execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
		} finally {
			rmSync(mountPoint, { recursive: true, force: true });
		}
	});

	it('names the file and the space, keeps every line whole, and resumes once space is freed', async () => {
		const dir = join(mountPoint, 'run');
		mkdirSync(dir);
		const out = join(dir, 'full.jsonl');
		const err: string[] = [];
		const stderr = { write: (s: string) => err.push(s) > 0 };
		const code = await runCommand(parseRunArgs(cli.flags(out)), { stderr });
		const text = err.join('');
		expect(code).toBe(1);
		expect(text).toMatch(
			/the disk is full: could not write \S+full\.(answers\.)?jsonl \(needs [\d.]+ [KM]?B/
		);
		expect(text).toContain('run the same command to resume');
		expect(text).not.toContain('done:');
		expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
		for (const f of ['full.jsonl', 'full.answers.jsonl']) {
			const body = readFileSync(join(dir, f), 'utf8');
			if (body === '') continue;
			expect(body.endsWith('\n'), f).toBe(true);
			for (const line of body.split('\n').filter(Boolean))
				expect(() => JSON.parse(line)).not.toThrow();
		}
		const manifest = JSON.parse(readFileSync(join(dir, 'full.manifest.json'), 'utf8'));
		expect(manifest.status).toBe('paused');

		expect(mountTmpfs('4m', true)).toBe(true);
		const again = await runCommand(parseRunArgs(cli.flags(out)), { stderr: { write: () => true } });
		expect(again).toBe(0);
		const keys = readFileSync(out, 'utf8').split('\n').filter(Boolean);
		// 6 items × (T=0 + T=1) × (none, truncate), one line each once compacted.
		expect(keys).toHaveLength(24);
		expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
		expect(JSON.parse(readFileSync(join(dir, 'full.manifest.json'), 'utf8')).status).toBe('done');
	}, 60_000);
});
