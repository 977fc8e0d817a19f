import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/run.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { script } from './harness.ts';

const offline = (async (url: string) => {
	throw new TypeError(`fetch failed (offline test: ${url})`);
}) as unknown as typeof fetch;

/** Node's fetch for the loopback mock, nothing else: the Hub is unreachable. */
const loopbackOnly = ((url: string | URL, init?: RequestInit) =>
	/^http:\/\/127\.0\.0\.1[:/]/.test(String(url))
		? fetch(url, init)
		: offline(String(url) as never)) as typeof fetch;

const GGUF = 'models/qwen2.5-0.5b-instruct-q8_0.gguf';
const QWEN25 = readFileSync(fixturePath('templates/Qwen__Qwen2.5-0.5B-Instruct.jinja'), 'utf8');

describe('the CLI finds its chat template and --out folder without help', () => {
	let mock: MockOpenAI | undefined;
	afterEach(async () => mock?.close());

	const run = async (server: MockOpenAI, model: string, out: string, extra: string[]) => {
		const err: string[] = [];
		const opts = parseRunArgs([
			'--base-url',
			server.url,
			'--model',
			model,
			'--judge-mode',
			'rules',
			'--dataset',
			'demo',
			'--limit',
			'1',
			'--temperatures',
			'0',
			'--perturbations',
			'none',
			'--out',
			out,
			...extra
		]);
		const code = await runCommand(opts, {
			stderr: { write: (s: string) => err.push(s) },
			fetch: loopbackOnly
		});
		return { code, stderr: err.join('') };
	};

	it("makes the --out folder on a fresh clone (README's runs/first.jsonl)", async () => {
		mock = await startMockOpenAI({ script, models: ['Qwen/Qwen2.5-0.5B-Instruct'] });
		const out = join(mkdtempSync(join(tmpdir(), 'utp-out-')), 'runs', 'nested', 'first.jsonl');
		const { code } = await run(mock, 'Qwen/Qwen2.5-0.5B-Instruct', out, []);
		expect(code).toBe(0);
		expect(existsSync(out)).toBe(true);
		expect(existsSync(out.replace(/\.jsonl$/, '.manifest.json'))).toBe(true);
	});

	it('uses the template the app ships for --template REPO with the Hub unreachable', async () => {
		mock = await startMockOpenAI({ script, models: ['gen'] });
		const out = join(mkdtempSync(join(tmpdir(), 'utp-out-')), 'shipped.jsonl');
		const { code, stderr } = await run(mock, 'gen', out, [
			'--template',
			'Qwen/Qwen2.5-0.5B-Instruct'
		]);
		expect(stderr).toMatch(
			/chat template: Qwen\/Qwen2\.5-0\.5B-Instruct, shipped with the app \(npm @lenml\/tokenizer-qwen2_5 /
		);
		expect(code).toBe(0);
		const manifest = JSON.parse(readFileSync(out.replace(/\.jsonl$/, '.manifest.json'), 'utf8'));
		expect(manifest.config.generator.template_repo).toBe('Qwen/Qwen2.5-0.5B-Instruct');
	});

	it("uses a llama-server's own template from /props when no --template is given", async () => {
		mock = await startMockOpenAI({
			script,
			llamaServer: {
				modelPath: GGUF,
				chatTemplate: { source: QWEN25, eos_token: '<|im_end|>' }
			}
		});
		const out = join(mkdtempSync(join(tmpdir(), 'utp-out-')), 'props.jsonl');
		const { code, stderr } = await run(mock, GGUF, out, []);
		expect(stderr).toContain(`chat template: served by the server (${mock.url}/props)`);
		expect(code).toBe(0);
		expect(mock.requests.some((r) => r.path === '/props')).toBe(true);
		const record = JSON.parse(readFileSync(out, 'utf8').split('\n')[0]);
		expect(record.prompt).toMatch(/<\|im_start\|>user\n$/);
	});

	it('lets --template win over the template a llama-server serves', async () => {
		mock = await startMockOpenAI({
			script,
			llamaServer: {
				modelPath: GGUF,
				chatTemplate: { source: '{{ broken', eos_token: '<|im_end|>' }
			}
		});
		const out = join(mkdtempSync(join(tmpdir(), 'utp-out-')), 'chosen.jsonl');
		const { code, stderr } = await run(mock, GGUF, out, [
			'--template',
			'Qwen/Qwen2.5-0.5B-Instruct'
		]);
		expect(code).toBe(0);
		expect(stderr).toMatch(/shipped with the app/);
		expect(stderr).not.toMatch(/served by the server/);
	});

	it('says what to give when neither the server nor the model id names a template', async () => {
		mock = await startMockOpenAI({ script, models: ['gen'] });
		const out = join(mkdtempSync(join(tmpdir(), 'utp-out-')), 'none.jsonl');
		await expect(run(mock, 'gen', out, [])).rejects.toThrow(
			/does not serve one \(llama-server does, at \/props\).*not a Hugging Face repo/
		);
	});
});
