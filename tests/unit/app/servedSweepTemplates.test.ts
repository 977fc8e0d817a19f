/**
 * A server sweep's further models: each is rendered with its own chat template, resolved from its
 * served name as a single run of it would (a shipped paper family first, then the Hub), with the
 * context window the server states for it; a name that names no template is left out and said so,
 * never given the first model's template or a llama-server's /props (which describes another model).
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ownTemplate } from '../../../src/lib/app/sweepTemplates.ts';
import { createAppServices } from '../../../src/lib/app/services.ts';
import { SHIPPED_FAMILIES } from '../../../src/lib/templates/families.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';
import { memoryStorage } from '../../helpers/memoryStorage.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';

const GPT_OSS = 'openai/gpt-oss-20b';
/** Not shipped: only the (mocked) Hub has it. */
const HUB_REPO = 'acme/Tiny-Chat-1B';
const HUB_TEMPLATE =
	'{% for m in messages %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}';

/** The Hub as fetch sees it: HUB_REPO's tokenizer_config.json, a 404 for anything else. */
function hub(asked: string[]): typeof fetch {
	return async (input) => {
		const url = String(input);
		asked.push(url);
		if (url === `https://huggingface.co/${HUB_REPO}/resolve/main/tokenizer_config.json`) {
			const config = { chat_template: HUB_TEMPLATE, eos_token: '<|end|>', bos_token: null };
			return new Response(JSON.stringify(config), { status: 200 });
		}
		return new Response('Entry not found', { status: 404 });
	};
}

describe('a server sweep’s further models', () => {
	let mock: MockOpenAI | undefined;
	afterEach(async () => {
		await mock?.close();
		mock = undefined;
	});

	async function request(mockServer: MockOpenAI, asked: string[] = []) {
		const settings = new EngineSettings(memoryStorage());
		settings.engine.current = 'server';
		settings.models.server.baseUrl.current = mockServer.url;
		settings.models.server.modelId.current = 'Qwen/Qwen3.5-0.8B';
		return {
			services: createAppServices({ fetch: hub(asked) }),
			settings,
			gpu: { canRunModels: false, shaderF16: false },
			signal: new AbortController().signal
		};
	}

	it('each gets its own template and the context window the server states for it', async () => {
		mock = await startMockOpenAI({ models: ['Qwen/Qwen3.5-0.8B', GPT_OSS, HUB_REPO, 'mystery'] });
		mock.modelFields[GPT_OSS] = { max_model_len: 32768 };
		mock.modelFields[HUB_REPO] = { max_model_len: 4096 };
		const asked: string[] = [];
		const r = await request(mock, asked);

		const shipped = await ownTemplate(r, GPT_OSS);
		if ('reason' in shipped) throw new Error(shipped.reason);
		const family = SHIPPED_FAMILIES.find((f) => f.repos.includes(GPT_OSS));
		expect(shipped.check.template.repo).toBe(GPT_OSS);
		expect(family?.origin.kind === 'copy' && family.origin.sha256).toBe(
			shipped.check.template.sha256
		);
		expect(shipped.check.template.source).toContain('<|start|>');
		expect(shipped.contextWindow).toBe(32768);
		// A shipped family never asks the Hub.
		expect(asked.filter((u) => u.includes('gpt-oss'))).toEqual([]);

		const fromHub = await ownTemplate(r, HUB_REPO);
		if ('reason' in fromHub) throw new Error(fromHub.reason);
		expect(fromHub.check.template.repo).toBe(HUB_REPO);
		expect(fromHub.check.template.sha256).not.toBe(shipped.check.template.sha256);
		expect(fromHub.check.template.source).toBe(HUB_TEMPLATE);
		expect(fromHub.contextWindow).toBe(4096);

		expect(await ownTemplate(r, 'mystery')).toEqual({
			model: 'mystery',
			reason: expect.stringMatching(/not a Hugging Face repo/)
		});
	});

	it('a repo the Hub does not have is left out, named with the Hub’s answer', async () => {
		mock = await startMockOpenAI({ models: ['Qwen/Qwen3.5-0.8B', 'acme/Gone'] });
		const skipped = await ownTemplate(await request(mock), 'acme/Gone');
		expect(skipped).toMatchObject({ model: 'acme/Gone' });
		expect('reason' in skipped && skipped.reason).toMatch(/chat template could not be read/);
	});

	it('never takes a llama-server’s /props, which describes only the model it loaded', async () => {
		mock = await startMockOpenAI({
			llamaServer: {
				modelPath: '/models/qwen.gguf',
				alias: 'qwen-local',
				chatTemplate: { source: HUB_TEMPLATE, eos_token: '<|end|>' }
			}
		});
		expect(await ownTemplate(await request(mock), 'other-local')).toMatchObject({
			model: 'other-local',
			reason: expect.stringMatching(/not a Hugging Face repo/)
		});
	});
});
