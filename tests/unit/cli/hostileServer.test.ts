/**
 * The CLI, as users start it (a child process), against a server that misbehaves without end: a
 * token every 0.5 s forever ends at the request's total time with a message; a 1 GB completion
 * stream, judge body or /props (generated on the fly, never held by the server) is stopped at its
 * byte limit, and the process's peak memory stays under 300 MB. Before: 0 records and no message
 * after 90 s; peaks of 1.2, 3.2 and 2.2 GB.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl } from '../../helpers/fixtures.ts';
import { startHostileServer, type HostileServer } from '../../helpers/hostileServer.ts';
import { BIN, QWEN } from './harness.ts';

/** The ceiling the issue sets for a process facing a 1 GB reply. */
const PEAK_RSS_MAX_MB = 300;

let server: HostileServer;
let dir: string;
let dataset: string;
beforeAll(async () => {
	server = await startHostileServer();
	dir = mkdtempSync(join(tmpdir(), 'utp-hostile-'));
	dataset = join(dir, 'gsm8k.jsonl');
	const rows = readJsonl<{ question: string; answer: string }>('gsm8k/test.jsonl').slice(0, 1);
	writeFileSync(dataset, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
});
afterAll(() => server.close());

interface Measured {
	code: number | null;
	stderr: string;
	peakMb: number;
	ms: number;
}

/** The CLI under /usr/bin/time -v, which reports the child's peak resident set size. */
function measuredRun(out: string, extra: readonly string[]): Promise<Measured> {
	const argv = [
		'run',
		'--base-url',
		server.base,
		'--model',
		'gen',
		'--judge-model',
		'gen',
		'--judge-mode',
		'llm',
		'--dataset',
		dataset,
		'--limit',
		'1',
		'--temperatures',
		'0',
		'--out',
		join(dir, out),
		...extra
	];
	const t0 = Date.now();
	const child = spawn('/usr/bin/time', ['-v', process.execPath, BIN, ...argv], {
		stdio: ['ignore', 'ignore', 'pipe']
	});
	let stderr = '';
	child.stderr.on('data', (b) => (stderr += String(b)));
	return new Promise((resolve) =>
		child.on('close', (code) => {
			const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]);
			resolve({ code, stderr, peakMb: kb / 1024, ms: Date.now() - t0 });
		})
	);
}

const withTemplate = ['--template', QWEN, '--eos-token', '<|im_end|>'];

describe('the CLI against a hostile server', () => {
	it('ends a request that trickles forever at --request-timeout-ms, with a message', async () => {
		server.hostility = 'trickle-stream';
		const r = await measuredRun('trickle.jsonl', [
			...withTemplate,
			'--timeout-ms',
			'5000',
			'--request-timeout-ms',
			'3000'
		]);
		expect(r.stderr).toContain(
			`The server at ${server.base}/v1 did not finish one completion within 3 s, the limit for one request.`
		);
		expect(r.stderr).toContain('--request-timeout-ms');
		expect(r.code).toBe(1);
		// One request's 3 s, and the CLI's start and end; the old code never ended.
		expect(r.ms).toBeLessThan(60_000);
	}, 90_000);

	const floods = [
		['flood-stream', 'one completion', withTemplate],
		['flood-judge', "the judge's reply", withTemplate],
		['flood-props', '/props', []]
	] as const;
	for (const [hostility, what, extra] of floods) {
		it(`stops a 1 GB ${hostility.slice(6)} and stays under ${PEAK_RSS_MAX_MB} MB`, async () => {
			server.hostility = hostility;
			server.floodBytes = 1024 ** 3;
			const r = await measuredRun(`${hostility}.jsonl`, extra);
			expect(r.peakMb, r.stderr).toBeLessThan(PEAK_RSS_MAX_MB);
			if (what !== '/props') expect(r.stderr).toContain(`for ${what}, the limit for it`);
			expect(r.stderr).not.toMatch(/Invalid string length|heap out of memory/);
			console.log(`${hostility}: peak RSS ${r.peakMb.toFixed(0)} MB, exit ${r.code}, ${r.ms} ms`);
		}, 120_000);
	}
});
