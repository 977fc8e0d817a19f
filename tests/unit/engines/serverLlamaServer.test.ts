/**
 * llama-server's real behaviour, reproduced by the mock (tests/helpers/mockOpenAI.ts llamaServer
 * flavour and midStreamError), against the OpenAI engine and a whole CLI run: context overflow in
 * each of the forms llama-server sends is a per-item error, never a fatal one; /v1/models lists the
 * model path unless --alias; llama.cpp's timings reach usage.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRunArgs } from '../../../src/cli/args.ts';
import { runCommand } from '../../../src/cli/run.ts';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { EngineError, type CompletionRequest } from '../../../src/lib/probe/engine.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import {
	CONTEXT_EXCEEDED_MESSAGE,
	exceedContextSizeBody,
	startMockOpenAI,
	type MockOpenAI
} from '../../helpers/mockOpenAI.ts';
import type { ScriptFn } from '../../helpers/script.ts';

const GGUF = '/models/qwen2.5-0.5b-instruct-q8_0.gguf';
const noSleep = async () => {};

let mock: MockOpenAI | undefined;
afterEach(async () => {
	await mock?.close();
	mock = undefined;
});

const completion = (model: string, prompt = 'Q: 1+1?\nA:'): CompletionRequest => ({
	model,
	prompt,
	temperature: 0,
	top_p: 1,
	seed: 0,
	max_tokens: 32,
	stop: ['<|im_end|>']
});

describe('llama-server as the mock reproduces it', () => {
	it('lists the model path as its id unless --alias; loading by another name names the path', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF } });
		const engine = new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep });
		expect(await engine.listModels()).toEqual([GGUF]);
		const err = await engine.load(['qwen2.5']).catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'bad_model' });
		expect((err as Error).message).toContain(GGUF);
		await mock.close();
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, alias: 'qwen2.5' } });
		expect(await new OpenAIEngine({ baseUrl: mock.url }).listModels()).toEqual(['qwen2.5']);
	});

	it('reads llama.cpp timings into usage (streamed and whole)', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, alias: 'm' } });
		const engine = new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep });
		const res = await engine.complete(completion('m'));
		expect(res.usage.decode_tps).toBe(50);
		expect(res.usage.prefill_tps).toBe(2000);
		const judged = await engine.chatJson({
			model: 'm',
			messages: [{ role: 'user', content: 'Label.' }],
			schema: { type: 'object' },
			temperature: 0,
			top_p: 1,
			seed: 0,
			max_tokens: 64
		});
		expect(judged.usage.decode_tps).toBe(50);
	});

	it('turns HTTP 400 exceed_context_size_error into a context_window error, not retried', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, alias: 'm', contextSize: 8 } });
		const engine = new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep });
		const err = await engine
			.complete(completion('m', 'one two three four five six seven eight nine'))
			.catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ code: 'context_window', retryable: false });
		expect((err as Error).message).toContain(
			'request (9 tokens) exceeds the available context size (8 tokens), try increasing it'
		);
		expect(mock.requests.filter((r) => r.path === '/v1/completions')).toHaveLength(1);
	});

	it('recognises the 400 by its type even when the message is worded otherwise', async () => {
		mock = await startMockOpenAI();
		const body = JSON.parse(exceedContextSizeBody(5000, 4096)) as {
			error: { message: string };
		};
		body.error.message = 'the request is too large for this slot';
		mock.enqueueFailure({ status: 400, body: JSON.stringify(body) });
		const err = await new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep })
			.complete(completion('mock-model'))
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'context_window' });
	});

	it('turns "Context size has been exceeded." mid-stream into a context_window error', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, alias: 'm' } });
		mock.enqueueFailure({ midStreamError: CONTEXT_EXCEEDED_MESSAGE, afterTokens: 2 });
		const deltas: string[] = [];
		const engine = new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep });
		const err = await engine
			.complete({ ...completion('m'), onToken: (d) => deltas.push(d) })
			.catch((e: unknown) => e);
		expect(deltas).toHaveLength(2);
		expect(err).toMatchObject({ code: 'context_window', retryable: false });
		expect((err as Error).message).toContain(CONTEXT_EXCEEDED_MESSAGE);
		expect(mock.requests.filter((r) => r.path === '/v1/completions')).toHaveLength(1);
		// The server is fine afterwards.
		expect((await engine.complete(completion('m'))).finish_reason).toBe('stop');
	});

	it("reads older llama-server's `error:` field mid-stream the same way", async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, alias: 'm' } });
		mock.enqueueFailure({
			midStreamError: CONTEXT_EXCEEDED_MESSAGE,
			afterTokens: 1,
			legacyErrorField: true
		});
		const err = await new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep })
			.complete(completion('m'))
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'context_window', retryable: false });
		expect(mock.requests.filter((r) => r.path === '/v1/completions')).toHaveLength(1);
	});

	it('turns the HTTP 500 "Context size has been exceeded." of a judge call into context_window', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, alias: 'm' } });
		mock.enqueueFailure({ midStreamError: CONTEXT_EXCEEDED_MESSAGE });
		const err = await new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep })
			.chatJson({
				model: 'm',
				messages: [{ role: 'user', content: 'Label.' }],
				schema: { type: 'object' },
				temperature: 0,
				top_p: 1,
				seed: 0,
				max_tokens: 64
			})
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'context_window' });
		expect(mock.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
	});

	it('keeps other server errors mid-stream as retryable http errors', async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF, alias: 'm' } });
		mock.enqueueFailure({ midStreamError: 'decode failed', afterTokens: 1 });
		const err = await new OpenAIEngine({ baseUrl: mock.url, sleep: noSleep, maxRetries: 0 })
			.complete(completion('m'))
			.catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'http', retryable: true });
	});
});

describe('a CLI run against llama-server with a small context', () => {
	const QWEN = fixturePath('templates/Qwen__Qwen2.5-0.5B-Instruct.jinja');
	const script: ScriptFn = (req) => {
		if (req.kind === 'chat') return JSON.stringify({ label: 'genuine_followup', rationale: 'ok' });
		if (req.prompt.endsWith('<|im_start|>assistant\n')) return 'It is 4.<|im_end|>';
		return 'Why four?<|im_end|>';
	};

	it('skips and counts the items that overflow, and finishes the rest (exit 0)', async () => {
		mock = await startMockOpenAI({
			script,
			// Room for the judge prompt (its labels, precedence and verdict), not for the long item.
			llamaServer: { modelPath: GGUF, alias: 'm', contextSize: 1700 }
		});
		const dir = mkdtempSync(join(tmpdir(), 'utp-llama-ctx-'));
		const dataset = join(dir, 'items.jsonl');
		const rows = [
			{ question: 'What is 2 + 2?', answer: '#### 4' },
			{ question: `Add these: ${'one plus '.repeat(1000)}one.`, answer: '#### 1001' },
			{ question: 'What is 3 + 1?', answer: '#### 4' }
		];
		writeFileSync(dataset, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
		const out = join(dir, 'out.jsonl');
		const errors: string[] = [];
		const code = await runCommand(
			parseRunArgs([
				'--base-url',
				mock.url,
				'--model',
				'm',
				'--judge-model',
				'm',
				'--judge-mode',
				'llm',
				'--dataset',
				dataset,
				'--limit',
				'0',
				'--temperatures',
				'0,1',
				'--perturbations',
				'none',
				'--template',
				QWEN,
				'--eos-token',
				'<|im_end|>',
				'--out',
				out
			]),
			{ stderr: { write: (s: string) => (errors.push(s), true) } }
		);
		expect(code, errors.join('')).toBe(0);
		const records = readFileSync(out, 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((l) => JSON.parse(l) as ProbeRecord);
		// 2 items × 2 temperatures; the long item is skipped at its answer, not fatal.
		expect(records).toHaveLength(4);
		expect(new Set(records.map((r) => r.item_id)).size).toBe(2);
		expect(errors.join('')).toMatch(/done: 4 records; 1 item skipped/);
		expect(errors.join('')).toMatch(
			/skipped: .*exceeds the available context size \(1700 tokens\)/
		);
	});
});
