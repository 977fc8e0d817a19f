/**
 * docs/servers.md's "Trying it without a GPU", followed as written: its mock-server command is
 * started (on a free port instead of 8765, which another process may hold), its CLI lines run in an
 * empty folder, and the template it tells set-up to give ships with the app. Without the template
 * the same command fails and names --template: the step the recipe once left out.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTemplate } from '../../../src/lib/setup/templates.ts';
import { shippedTemplate } from '../../../src/lib/templates/shippedTemplates.ts';
import { BIN } from './harness.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const DOC = readFileSync(join(REPO, 'docs/servers.md'), 'utf8');
const run = promisify(execFile);

/** The section's shell blocks, each as its commands (continuation lines joined) split into words. */
function recipe(): string[][][] {
	const section = DOC.slice(DOC.indexOf('## Trying it without a GPU'));
	const end = section.indexOf('\n## ', 1);
	const text = end < 0 ? section : section.slice(0, end);
	return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) =>
		m[1]
			.replace(/\\\n\s*/g, ' ')
			.split('\n')
			.filter((l) => l.trim() !== '')
			.map((l) => l.trim().split(/\s+/))
	);
}

describe('docs/servers.md: trying it without a GPU', () => {
	const [[serverCmd], cliCmds] = recipe();
	let server: ChildProcess | undefined;
	let url = '';

	beforeAll(async () => {
		expect(serverCmd.slice(0, 3)).toEqual(['npx', 'tsx', 'tests/helpers/mockOpenAIServer.ts']);
		const port = serverCmd.indexOf('--port');
		expect(serverCmd[port + 1]).toBe('8765');
		const args = serverCmd.map((w, i) => (i === port + 1 ? '0' : w));
		// Its own process group: npx starts tsx, which starts node; the group ends together.
		server = spawn(args[0], args.slice(1), {
			cwd: REPO,
			detached: true,
			stdio: ['ignore', 'pipe', 'inherit']
		});
		url = await new Promise<string>((resolve, reject) => {
			server?.stdout?.once('data', (b: Buffer) => resolve(b.toString().split('\n')[0].trim()));
			server?.once('exit', (code) => reject(new Error(`the mock server exited (${code})`)));
		});
	}, 60_000);
	afterAll(() => {
		if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
	});

	/** One of the section's CLI lines in `cwd`, the doc's address swapped for the server's. */
	const cli = async (cwd: string, words: string[]) => {
		expect(words.slice(0, 2)).toEqual(['npx', 'user-turn-probe']);
		const args = words.slice(2).map((w) => (w === 'http://127.0.0.1:8765' ? url : w));
		return run('node', [BIN, ...args], { cwd, timeout: 120_000 }).catch(
			(e: { code: number; stderr: string; stdout: string }) => e
		);
	};

	it('runs its CLI lines as written: a run, then its table', async () => {
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(cliCmds).toHaveLength(2);
		const cwd = mkdtempSync(join(tmpdir(), 'utp-recipe-'));
		const ran = await cli(cwd, cliCmds[0]);
		expect(ran.stderr).toMatch(
			/chat template: Qwen\/Qwen2\.5-0\.5B-Instruct, shipped with the app/
		);
		expect('code' in ran ? ran.code : 0, ran.stderr).toBe(0);
		expect(existsSync(join(cwd, 'runs/mock.jsonl'))).toBe(true);
		const summary = await cli(cwd, cliCmds[1]);
		expect(summary.stdout).toMatch(/genuine follow-up/);
	}, 240_000);

	it('without the template, the same command fails and names --template', async () => {
		const words = cliCmds[0];
		const at = words.indexOf('--template');
		const without = [...words.slice(0, at), ...words.slice(at + 2)];
		const ran = await cli(mkdtempSync(join(tmpdir(), 'utp-recipe-')), without);
		expect('code' in ran ? ran.code : 0).toBe(1);
		expect(ran.stderr).toMatch(/No chat template: the server does not serve one/);
		expect(ran.stderr).toMatch(/Name one with --template/);
	}, 240_000);

	it("the repo it tells set-up to give loads with no network, under the control's own name", async () => {
		const repo = /give the repo `([^`]+)`/.exec(DOC.replace(/\s+/g, ' '))?.[1] ?? '';
		expect(repo).toBe('Qwen/Qwen2.5-0.5B-Instruct');
		const offline = (async () => {
			throw new TypeError('fetch failed (no network in this test)');
		}) as unknown as typeof fetch;
		const t = await loadTemplate(
			{ kind: 'repo', repos: [repo] },
			{ fetch: offline, shipped: shippedTemplate }
		);
		expect(t.provenance).toMatch(/^npm @lenml\/tokenizer-qwen2_5 /);
		const panel = readFileSync(join(REPO, 'src/components/engine/TemplateSource.svelte'), 'utf8');
		expect(DOC).toContain('"Chat template of the generator"');
		expect(panel).toContain('<legend>Chat template of the generator');
	});
});
