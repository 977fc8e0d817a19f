/**
 * SIGKILL while the judge is answering, then resume: the user turns already generated are kept
 * (stored pending before the judge call), so the resume sends judge requests only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/run.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import type { MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { killCliWhen, startCli, type Cli } from './harness.ts';

/** Every line of the file (a record stored twice appears twice; the last one counts). */
function stored(path: string): ProbeRecord[] {
	const byKey = new Map<string, ProbeRecord>();
	for (const line of readFileSync(path, 'utf8').split('\n')) {
		if (!line) continue;
		try {
			const r = JSON.parse(line) as ProbeRecord;
			if (typeof r.key === 'string') byKey.set(r.key, r);
		} catch {
			// A torn last line from the kill.
		}
	}
	return [...byKey.values()];
}

describe('CLI: SIGKILL while judging, then resume', () => {
	let cli: Cli;
	let server: MockOpenAI;
	let dir: string;

	beforeAll(async () => {
		cli = await startCli(3);
		({ server, dir } = cli);
	});
	afterAll(async () => cli.close());

	const args = (out: string) =>
		cli.flags(out, ['--perturbations', 'none,append', '--samples', '1', '--concurrency', '4']);

	it('redoes no generation after a kill mid-judging', async () => {
		const out = join(dir, 'killed.jsonl');
		// The judge never answers: every user turn generated so far waits for its label.
		server.faultPlan = (_n, req) =>
			req.path === '/v1/chat/completions' ? { hang: true } : undefined;
		await killCliWhen(['run', ...args(out)], () => existsSync(out) && stored(out).length >= 4, {
			giveUpMs: 20_000,
			giveUpMessage: 'no user turn was stored while the judge was answering'
		});
		const pending = stored(out);
		expect(pending.length).toBeGreaterThanOrEqual(4);
		expect(pending.every((r) => r.label === null && r.user_turn.length > 0)).toBe(true);

		server.faultPlan = undefined;
		server.requests.length = 0;
		const code = await runCommand(parseRunArgs(args(out)), { stderr: { write: () => true } });
		expect(code).toBe(0);
		const after = stored(out);
		expect(after).toHaveLength(12);
		expect(after.every((r) => r.label !== null)).toBe(true);
		// Nothing stored was generated again: no kept turn's request (its prompt, temperature and
		// seed; the temperatures of one perturbation share a prompt) was sent anew.
		const sent = server.requests.filter((r) => r.path === '/v1/completions');
		const asked = (b: { prompt: string; temperature: number; seed: number }) =>
			JSON.stringify([b.prompt, b.temperature, b.seed]);
		const requests = new Set(sent.map((r) => asked(r.body as Parameters<typeof asked>[0])));
		for (const r of pending) expect(requests.has(asked(r))).toBe(false);
		const made = after.filter((a) => !pending.some((r) => r.key === a.key));
		for (const r of made) expect(requests.has(asked(r))).toBe(true);
		expect(
			sent.filter((r) => !(r.body as { prompt: string }).prompt.endsWith('assistant\n'))
		).toHaveLength(12 - pending.length);
		for (const r of pending) {
			expect(after.find((a) => a.key === r.key)?.user_turn).toBe(r.user_turn);
		}
	}, 60_000);
});
