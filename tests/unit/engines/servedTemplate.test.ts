/**
 * A llama-server's own chat template (GET /props), as set-up's "Check server" and Start read it:
 * used when the user chose none, said as such, a chosen template wins, and a server without /props
 * (vLLM) falls back to the model id's repo.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { checkServer } from '../../../src/lib/app/serverCheck.ts';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { userHeader } from '../../../src/lib/probe/template.ts';
import { TemplateError } from '../../../src/lib/probe/template.ts';
import { loadTemplate, type TemplateSpec } from '../../../src/lib/setup/templates.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import {
	LLAMA_CPP_CHATML_FALLBACK,
	startMockOpenAI,
	type MockOpenAI
} from '../../helpers/mockOpenAI.ts';

const QWEN25 = readFileSync(fixturePath('templates/Qwen__Qwen2.5-0.5B-Instruct.jinja'), 'utf8');
const GGUF = '/models/qwen2.5-0.5b-instruct-q8_0.gguf';
const offline = async (url: string) => {
	throw new TypeError(`fetch failed (offline: ${url})`);
};

let mock: MockOpenAI | undefined;
afterEach(async () => {
	await mock?.close();
	mock = undefined;
});

/** set-up's template loading with the app's server hook (services.ts), the Hub unreachable. */
const load = (spec: TemplateSpec) =>
	loadTemplate(spec, {
		fetch: offline,
		served: (s) => new OpenAIEngine({ baseUrl: s.baseUrl, apiKey: s.apiKey }).servedTemplate()
	});

describe("a llama-server's own chat template", () => {
	it('is read from /props with its special tokens, and marked as served', async () => {
		mock = await startMockOpenAI({
			llamaServer: { modelPath: GGUF, chatTemplate: { source: QWEN25, eos_token: '<|im_end|>' } }
		});
		const t = await load({ kind: 'server', baseUrl: `${mock.url}/v1`, repos: [] });
		expect(t.source).toBe(QWEN25);
		expect(t.eos_token).toBe('<|im_end|>');
		expect(t.server).toBe(`${mock.url}/props`);
		expect(t.sha256).toMatch(/^[0-9a-f]{64}$/);
		const exchange = [
			{ role: 'user' as const, content: 'Q' },
			{ role: 'assistant' as const, content: 'A' }
		];
		expect(userHeader(t, exchange)).toBe('<|im_start|>user\n');
	});

	it("is llama.cpp's ChatML fallback when the GGUF has none, as the server applies it", async () => {
		mock = await startMockOpenAI({ llamaServer: { modelPath: GGUF } });
		const t = await load({ kind: 'server', baseUrl: mock.url, repos: [] });
		expect(t.source).toBe(LLAMA_CPP_CHATML_FALLBACK);
	});

	it('sends the API key, as llama-server --api-key requires on /props', async () => {
		mock = await startMockOpenAI({
			apiKey: 'sk-1',
			llamaServer: { modelPath: GGUF, chatTemplate: { source: QWEN25, eos_token: '<|im_end|>' } }
		});
		const t = await load({ kind: 'server', baseUrl: mock.url, apiKey: 'sk-1', repos: [] });
		expect(t.server).toBe(`${mock.url}/props`);
	});

	it('falls back to the model id repo on a server without /props (vLLM), shipped offline', async () => {
		mock = await startMockOpenAI({ models: ['Qwen/Qwen2.5-0.5B-Instruct'] });
		const t = await loadTemplate(
			{ kind: 'server', baseUrl: mock.url, repos: ['Qwen/Qwen2.5-0.5B-Instruct'] },
			{
				fetch: offline,
				served: (s) => new OpenAIEngine({ baseUrl: s.baseUrl }).servedTemplate(),
				shipped: async (repo) => ({ source: QWEN25, bos_token: null, eos_token: null, repo })
			}
		);
		expect(t.server).toBeUndefined();
		expect(t.repo).toBe('Qwen/Qwen2.5-0.5B-Instruct');
	});

	it('is a TemplateError naming what to give when neither the server nor the id has one', async () => {
		mock = await startMockOpenAI({ models: ['served-model'] });
		await expect(load({ kind: 'server', baseUrl: mock.url, repos: [] })).rejects.toThrow(
			TemplateError
		);
	});

	it('a served template that cannot render is a TemplateError, not a silent fallback', async () => {
		mock = await startMockOpenAI({
			llamaServer: { modelPath: GGUF, chatTemplate: { source: '{% for %}', eos_token: '' } }
		});
		await expect(
			load({ kind: 'server', baseUrl: mock.url, repos: ['Qwen/Qwen2.5-0.5B-Instruct'] })
		).rejects.toThrow(TemplateError);
	});

	it('"Check server" says the server\'s template will be used and that a chosen one wins', async () => {
		mock = await startMockOpenAI({
			llamaServer: { modelPath: GGUF, chatTemplate: { source: QWEN25, eos_token: '<|im_end|>' } }
		});
		const url = mock.url;
		const engine = new OpenAIEngine({ baseUrl: url });
		const check = await checkServer(
			{ baseUrl: mock.url, model: GGUF },
			{
				listModels: (signal) => engine.listModels(signal),
				answersOpaque: async () => true,
				template: () => load({ kind: 'server', baseUrl: url, repos: [] })
			}
		);
		expect(check.ok).toBe(true);
		const line = check.lines.find((l) => l.what === 'template');
		expect(line?.text).toBe(
			`The server serves its own chat template (${mock.url}/props): it will be used. A template you choose under "Chat template" wins.`
		);
	});
});
