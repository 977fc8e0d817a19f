/**
 * The paper's families through the CLI against a server that behaves like vLLM (special tokens
 * dropped unless the request says otherwise, stop strings matched on the returned text, EOS ends
 * generation): the visible answer is scored and kept, user turns end at the turn's end, gpt-oss's
 * leak keeps its markup; the header cut and reasoning effort are flags, recorded in the manifest;
 * a server that cannot return the markup stops the run with a message saying what to do.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/run.ts';
import type { AnswerRecord, ProbeConfig, ProbeRecord } from '../../../src/lib/probe/types.ts';
import { fixturePath, fixtureTemplate } from '../../helpers/fixtures.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import {
	FAMILIES,
	FOLLOW_UP,
	QUESTION,
	VISIBLE,
	familyScript,
	vllmModel,
	type Family
} from '../../helpers/paperFamilies.ts';
import { MINIMAL_RUN_ARGS } from './harness.ts';

const FILES: Record<string, string> = {
	'Qwen/Qwen3.5-0.8B': 'Qwen__Qwen3.5-0.8B.jinja',
	'openai/gpt-oss-20b': 'openai__gpt-oss-20b.jinja',
	'zai-org/GLM-4.7-Flash': 'zai-org__GLM-4.7-Flash.jinja'
};

let mock: MockOpenAI | undefined;
let dir: string;
let dataset: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'utp-vllm-'));
	dataset = join(dir, 'items.jsonl');
	writeFileSync(dataset, JSON.stringify({ question: QUESTION, answer: '#### 18' }) + '\n');
});
afterEach(async () => {
	await mock?.close();
	mock = undefined;
});

function lines<T>(path: string): T[] {
	return readFileSync(path, 'utf8')
		.split('\n')
		.filter((l) => l.trim() !== '')
		.map((l) => JSON.parse(l) as T);
}

async function run(f: Family, name: string, extra: string[] = [], strict = false) {
	const t = fixtureTemplate(f.id);
	mock = await startMockOpenAI({
		models: ['gen'],
		script: familyScript(f),
		vllm: { server: 'vllm', ...vllmModel(f, t) },
		rejectUnknownFields: strict
	});
	const out = join(dir, `${name}.jsonl`);
	const stderr: string[] = [];
	const code = await runCommand(
		parseRunArgs([
			...['--base-url', mock.url, '--model', 'gen', '--judge-mode', 'rules'],
			...['--dataset', dataset, '--temperatures', '1', '--samples', '4'],
			...['--template', fixturePath(`templates/${FILES[f.id]}`)],
			...['--eos-token', t.eos_token ?? '', '--out', out],
			...extra
		]),
		{ stderr: { write: (s: string) => stderr.push(s) } }
	);
	const manifest = JSON.parse(readFileSync(join(dir, `${name}.manifest.json`), 'utf8')) as {
		config: ProbeConfig;
	};
	const prompts = (mock.requests ?? [])
		.filter((r) => r.path === '/v1/completions')
		.map((r) => (r.body as { prompt: string }).prompt);
	return { code, stderr: stderr.join(''), out, manifest, prompts };
}

describe.each(FAMILIES)('the CLI on a vLLM-like server: $id', (f) => {
	it('scores and keeps the visible answer; user turns end at their end', async () => {
		const r = await run(f, `ok-${f.id.replace('/', '_')}`);
		expect(r.code, r.stderr).toBe(0);
		const [answer] = lines<AnswerRecord>(r.out.replace(/\.jsonl$/, '.answers.jsonl'));
		expect(answer.answer).toBe(VISIBLE);
		expect(answer.correct).toBe(true);
		const records = lines<ProbeRecord>(r.out);
		expect(records).toHaveLength(4);
		for (const rec of records) {
			expect(rec.prompt).not.toContain('Not 27');
			if (rec.user_turn.includes(FOLLOW_UP)) {
				expect(rec.user_turn).toBe(FOLLOW_UP);
				// Rules alone leave a follow-up undecided (no rule ever calls a turn genuine).
				expect(rec.label).toBe('undecided');
			} else expect(rec.label).toBe('assistant_restatement');
		}
		const gptOss = f.id.startsWith('openai/');
		expect(r.manifest.config.user_header).toBe(gptOss ? 'role' : 'template');
		expect(r.manifest.config.reasoning_effort).toBe(gptOss ? 'medium' : undefined);
		if (gptOss) {
			expect(r.stderr).toContain('user header: "<|start|>user" (role: gpt-oss (harmony)');
			const leak = records.find((rec) => rec.label === 'assistant_restatement');
			expect(leak?.user_turn).toMatch(/^<\|channel\|>analysis<\|message\|>We need/);
		}
	});

	if (f.id.startsWith('Qwen/')) return;

	it('stops with a clear message when the server drops the markup anyway', async () => {
		const r = await run(f, `strict-${f.id.replace('/', '_')}`, [], true);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/without the template's special tokens/);
		expect(r.stderr).toContain('docs/servers.md');
	});
});

describe('the header and reasoning-effort flags', () => {
	const GPT_OSS = FAMILIES[1];

	it('--user-header template and --reasoning-effort high are used and recorded', async () => {
		const r = await run(GPT_OSS, 'flags', [
			'--user-header',
			'template',
			'--reasoning-effort',
			'high'
		]);
		expect(r.code, r.stderr).toBe(0);
		expect(r.manifest.config.user_header).toBe('template');
		expect(r.manifest.config.reasoning_effort).toBe('high');
		for (const p of r.prompts) expect(p).toContain('Reasoning: high');
		expect(r.prompts.filter((p) => p.endsWith('<|start|>user<|message|>'))).toHaveLength(4);
	});

	it('a changed header refuses to resume into the same --out', async () => {
		const first = await run(GPT_OSS, 'resume');
		expect(first.code, first.stderr).toBe(0);
		await mock?.close();
		await expect(run(GPT_OSS, 'resume', ['--user-header', 'template'])).rejects.toThrow(
			/user_header \("role" → "template"\)/
		);
	});

	it('refuses --reasoning-effort for a template without one, and bad values', async () => {
		await expect(run(FAMILIES[0], 'qwen-effort', ['--reasoning-effort', 'low'])).rejects.toThrow(
			/no reasoning effort/
		);
		expect(() => parseRunArgs([...MINIMAL_RUN_ARGS, '--user-header', 'message'])).toThrow(
			/--user-header: template or role, got "message"/
		);
	});
});
