/**
 * A runaway --template in the CLI: a loop, a huge range and a 100 MB render each end the command
 * within seconds with exit 1 and a message naming the limits, Ctrl-C included (before, the loop
 * hung at 100% CPU through two Ctrl-Cs and range(300000000) died with a V8 fatal error).
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RENDER_TIME_LIMIT_MS } from '../../../src/lib/probe/renderLimits.ts';
import { RUNAWAY_TEMPLATES, withPrefix } from '../../helpers/runawayTemplates.ts';
import { BIN, startCli, type Cli } from './harness.ts';

/** The CLI; with `ctrlC`, SIGINT once it says it checks the template. `ms`: from then to exit. */
function runCli(argv: string[], ctrlC = false) {
	const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
	let stderr = '';
	let t0 = Date.now();
	child.stderr.on('data', (b) => {
		stderr += String(b);
		if (ctrlC && stderr.includes('chat template:') && !child.killed) {
			t0 = Date.now();
			setTimeout(() => child.kill('SIGINT'), 100);
		}
	});
	return new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) =>
		child.on('close', (code) => resolve({ code, stderr, ms: Date.now() - t0 }))
	);
}

describe('CLI: a runaway chat template', () => {
	let cli: Cli;
	beforeAll(async () => {
		cli = await startCli(2);
	});
	afterAll(() => cli.close());

	for (const [name, { prefix, says }] of Object.entries(RUNAWAY_TEMPLATES)) {
		it(`ends with a message naming the limits: ${name}`, async () => {
			const file = join(cli.dir, `${name.replace(/\W+/g, '-')}.jinja`);
			writeFileSync(file, withPrefix(prefix).source);
			const out = join(cli.dir, `${name.replace(/\W+/g, '-')}.jsonl`);
			const r = await runCli(cli.args(out, ['--template', file]));
			expect(r.code).toBe(1);
			expect(r.stderr).toMatch(says);
			expect(r.stderr).toContain('4,000,000 characters');
			expect(existsSync(out)).toBe(false);
		}, 30_000);
	}

	it('stops at once on Ctrl-C while the looping template renders', async () => {
		const file = join(cli.dir, 'ctrl-c.jinja');
		writeFileSync(file, withPrefix(RUNAWAY_TEMPLATES['a loop of 3000 × 3000'].prefix).source);
		const r = await runCli(cli.args(join(cli.dir, 'ctrl-c.jsonl'), ['--template', file]), true);
		// The render runs in a worker thread, so the signal is heard and the worker terminated.
		expect(r.code).toBe(130);
		expect(r.stderr).toContain('SIGINT: stopping');
		expect(r.stderr).not.toContain('ran longer than');
		expect(r.ms).toBeLessThan(RENDER_TIME_LIMIT_MS / 2);
	}, 30_000);
});
