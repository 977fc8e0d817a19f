/**
 * The two failures a new researcher meets first name their fix in flags: no chat template names
 * --template with the templates that ship, and a dataset host out of reach names --dataset demo
 * and a local file. Run through the CLI as a user does, with only 127.0.0.1 reachable.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { errorLines } from '../../../src/cli/progress.ts';
import { runCommand } from '../../../src/cli/run.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { script } from './harness.ts';

/** Node's fetch for the loopback mock; any other host fails as a blocked one does. */
const loopbackOnly = ((url: string | URL, init?: RequestInit) =>
	/^http:\/\/127\.0\.0\.1[:/]/.test(String(url))
		? fetch(url, init)
		: Promise.reject(new TypeError('fetch failed'))) as typeof fetch;

describe('errors that name their fix', () => {
	let mock: MockOpenAI | undefined;
	afterEach(async () => mock?.close());

	/** What the command prints: its own lines, then a thrown error as main prints it. */
	const run = async (extra: string[]) => {
		mock = await startMockOpenAI({ script, models: ['gen'] });
		const out = join(mkdtempSync(join(tmpdir(), 'utp-fix-')), 'r.jsonl');
		const err: string[] = [];
		const opts = parseRunArgs([
			...['--base-url', mock.url, '--model', 'gen', '--judge-mode', 'rules'],
			...['--limit', '1', '--temperatures', '0', '--out', out],
			...extra
		]);
		const code = await runCommand(opts, {
			stderr: { write: (s: string) => err.push(s) },
			fetch: loopbackOnly
		}).catch((e: unknown) => {
			err.push(errorLines(e));
			return 1;
		});
		return { code, stderr: err.join('') };
	};

	it('no template: names --template and lists the shipped templates', async () => {
		const { code, stderr } = await run(['--dataset', 'demo']);
		expect(code).toBe(1);
		expect(stderr).toMatch(/error: No chat template: the server does not serve one/);
		expect(stderr).toMatch(/→ Name one with --template <repo\|url\|file>; these ship with the app/);
		expect(stderr).toContain('Qwen/Qwen2.5-0.5B-Instruct');
		expect(stderr).toContain('openai/gpt-oss-20b');
	});

	it('a template repo the Hub cannot give: the same fix', async () => {
		const { code, stderr } = await run(['--dataset', 'demo', '--template', 'someone/private']);
		expect(code).toBe(1);
		expect(stderr).toMatch(/No chat template found. Tried:/);
		expect(stderr).toMatch(/Name one with --template <repo\|url\|file>/);
	});

	it('a dataset host out of reach: names --dataset demo and a local file', async () => {
		const { code, stderr } = await run([
			'--dataset',
			'gsm8k',
			'--template',
			'Qwen/Qwen2.5-0.5B-Instruct'
		]);
		expect(code).toBe(1);
		expect(stderr).toMatch(/datasets-server\.huggingface\.co could not be reached/);
		expect(stderr).toMatch(
			/--dataset demo is built in and runs offline; --dataset <file\.jsonl\|\.json\|\.csv> works too\./
		);
	});
});
