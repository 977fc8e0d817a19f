/**
 * The WebGPU path and web-llm 0.2.86 itself: catalog models' records through a model mirror (the
 * worker handler, with web-llm's own prebuiltAppConfig as its base list), and the requests the app
 * hands to web-llm checked by web-llm's own validation (postInitAndCheckFieldsCompletion and
 * postInitAndCheckFieldsChatCompletion, which MLCEngine runs on every request).
 */
import {
	ModelType,
	postInitAndCheckFieldsChatCompletion,
	postInitAndCheckFieldsCompletion,
	prebuiltAppConfig,
	type AppConfig,
	type ChatCompletionRequest,
	type CompletionCreateParams
} from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { getCatalog } from '../../../src/lib/engines/webgpu/catalog.ts';
import { mirroredRecord } from '../../../src/lib/engines/webgpu/custom.ts';
import type { WorkerRequest } from '../../../src/lib/engines/webgpu/protocol.ts';
import type {
	ErrorReply,
	ResultReply,
	WorkerReply
} from '../../../src/lib/engines/worker/protocol.ts';
import {
	createHandler,
	type CacheSurface
} from '../../../src/lib/engines/webgpu/worker/handler.ts';
import { FakeWebLLM } from '../../helpers/fakeWebLLM.ts';

const MIRROR = 'http://127.0.0.1:8931/kit';
const MODEL = 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC';

function harness(cache: CacheSurface = {}, fetch?: (url: string) => Promise<Response>) {
	const fake = new FakeWebLLM();
	fake.reportsFor = () => [];
	const waiting = new Map<number, (m: ResultReply | ErrorReply) => void>();
	const handle = createHandler(
		fake.createEngine,
		(msg: WorkerReply) => {
			if (msg.kind === 'result' || msg.kind === 'error') waiting.get(msg.id)?.(msg);
		},
		cache,
		{ baseAppConfig: prebuiltAppConfig, ...(fetch && { fetch }) }
	);
	const send = (msg: WorkerRequest) =>
		new Promise<ResultReply | ErrorReply>((resolve) => {
			waiting.set(msg.id, resolve);
			handle(structuredClone(msg));
		});
	return { fake, send };
}

const recordOf = (config: AppConfig | undefined, id: string) =>
	config?.model_list.find((r) => r.model_id === id);

describe('catalog models through a model mirror', () => {
	it("maps every catalog variant's weights and model library into the mirror's Hub layout", () => {
		const ids = getCatalog().models.flatMap((m) => m.variants.map((v) => v.id));
		for (const id of ids) {
			const record = recordOf(prebuiltAppConfig, id);
			if (!record) throw new Error(`${id} is not in prebuiltAppConfig`);
			const m = mirroredRecord(record, `${MIRROR}/`);
			expect(m.model).toBe(record.model.replace('https://huggingface.co/', `${MIRROR}/`));
			expect(m.model_lib).toMatch(
				new RegExp(`^${MIRROR}/mlc-ai/binary-mlc-llm-libs/resolve/main/web-llm-models/`)
			);
			expect(m.model_id).toBe(id);
		}
	});

	it('a load with a mirror gives web-llm the mirror records; a model cached from the Hub keeps its own', async () => {
		const cachedFromHub = new Set<string>();
		const h = harness({ has: async (id) => cachedFromHub.has(id) });
		const loaded = await h.send({ kind: 'load', id: 1, models: [MODEL], mirror: { base: MIRROR } });
		expect(loaded.kind).toBe('result');
		const record = recordOf(h.fake.appConfig, MODEL);
		expect(record?.model).toBe(`${MIRROR}/mlc-ai/${MODEL}`);
		expect(record?.model_lib.startsWith(`${MIRROR}/mlc-ai/binary-mlc-llm-libs/resolve/main/`)).toBe(
			true
		);

		cachedFromHub.add(MODEL);
		const again = harness({ has: async (id) => cachedFromHub.has(id) });
		await again.send({ kind: 'load', id: 1, models: [MODEL], mirror: { base: MIRROR } });
		// Nothing to re-download: web-llm keeps reading its cache under the Hub's URLs.
		expect(
			recordOf(again.fake.appConfig, MODEL)?.model ?? recordOf(prebuiltAppConfig, MODEL)?.model
		).toBe(`https://huggingface.co/mlc-ai/${MODEL}`);
	});

	it('a model cached from the mirror counts as cached', async () => {
		const h = harness({
			has: async (id, config) => recordOf(config, id)?.model.startsWith(MIRROR) === true
		});
		const withMirror = await h.send({
			kind: 'cacheQuery',
			id: 1,
			op: 'has',
			model: MODEL,
			mirror: MIRROR
		});
		const without = await h.send({ kind: 'cacheQuery', id: 2, op: 'has', model: MODEL });
		expect(withMirror).toMatchObject({ kind: 'result', value: { cached: true } });
		expect(without).toMatchObject({ kind: 'result', value: { cached: false } });
	});
});

describe('a mirror missing a catalog model file', () => {
	const REPO = `${MIRROR}/mlc-ai/${MODEL}/resolve/main`;
	const lib = () => recordOf(prebuiltAppConfig, MODEL)?.model_lib ?? '';
	const libOnMirror = () =>
		`${MIRROR}/mlc-ai/binary-mlc-llm-libs/resolve/main/${lib().split('/main/')[1]}`;

	/** web-llm's failed load, then the worker's own look at the mirror's files. */
	async function failedLoad(files: Record<string, string>) {
		const seen: string[] = [];
		const h = harness({}, async (url) => {
			seen.push(url);
			return url in files
				? new Response(files[url])
				: new Response('Not Found', { status: 404, statusText: 'Not Found' });
		});
		// Chrome's words for a 404 that web-llm's Cache.add met: they name no file.
		h.fake.failLoadOf[MODEL] = new Error("Failed to execute 'add' on 'Cache': Request failed");
		const reply = await h.send({
			kind: 'load',
			id: 1,
			models: [MODEL],
			mirror: { base: `${MIRROR}/` }
		});
		if (reply.kind !== 'error') throw new Error('the load did not fail');
		return { error: reply.error, seen };
	}

	it("names the mirror's missing config, not the user's own model", async () => {
		const { error, seen } = await failedLoad({});
		expect(error.message).toBe(
			`The model mirror ${MIRROR} has no mlc-ai/${MODEL}/resolve/main/mlc-chat-config.json (${REPO}/mlc-chat-config.json answers HTTP 404). Add it with: user-turn-probe mirror --model <this model> --out <the mirror's folder>.`
		);
		expect(error.message).not.toMatch(/Your model|Hugging Face/);
		expect(seen).toEqual([`${REPO}/mlc-chat-config.json`]);
	});

	it("names the mirror's missing model library once the config is there", async () => {
		const { error, seen } = await failedLoad({
			[`${REPO}/mlc-chat-config.json`]: '{"model_type":"qwen2"}'
		});
		expect(seen).toEqual([`${REPO}/mlc-chat-config.json`, libOnMirror()]);
		expect(error.message).toContain(`${libOnMirror()} answers HTTP 404`);
	});
});

describe("the app's requests pass web-llm 0.2.86's own validation", () => {
	async function requestsMade() {
		const h = harness();
		await h.send({ kind: 'load', id: 1, models: [MODEL] });
		const prompt =
			'<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n4<|im_end|>\n<|im_start|>user\n';
		await h.send({
			kind: 'complete',
			id: 2,
			req: {
				model: MODEL,
				prompt,
				temperature: 1,
				top_p: 0.95,
				seed: 7,
				max_tokens: 64,
				stop: ['<|im_end|>']
			}
		});
		const schema = {
			type: 'object',
			properties: { label: { type: 'string', enum: ['genuine_followup', 'other'] } },
			required: ['label']
		};
		await h.send({
			kind: 'chatJson',
			id: 3,
			req: {
				model: MODEL,
				messages: [
					{ role: 'system', content: 'Label the user turn.' },
					{ role: 'user', content: 'Turn: thanks!' }
				],
				schema,
				temperature: 0,
				top_p: 1,
				seed: 3,
				max_tokens: 100
			}
		});
		const completion = h.fake.calls.find((c) => c.kind === 'complete')?.request;
		const chat = h.fake.calls.find((c) => c.kind === 'chat')?.request;
		if (!completion || !chat) throw new Error('the handler made no requests');
		return {
			completion: completion as CompletionCreateParams,
			chat: chat as ChatCompletionRequest
		};
	}

	it('a turn (completion) and a judgement (chat completion with a JSON schema) are accepted', async () => {
		const { completion, chat } = await requestsMade();
		expect(() =>
			postInitAndCheckFieldsCompletion(structuredClone(completion), MODEL)
		).not.toThrow();
		expect(() =>
			postInitAndCheckFieldsChatCompletion(structuredClone(chat), MODEL, ModelType.LLM)
		).not.toThrow();
	});

	it('the check can fail: web-llm refuses several choices on a streamed request', async () => {
		const { completion, chat } = await requestsMade();
		expect(() =>
			postInitAndCheckFieldsCompletion({ ...structuredClone(completion), n: 2 }, MODEL)
		).toThrow();
		expect(() =>
			postInitAndCheckFieldsChatCompletion(
				{ ...structuredClone(chat), n: 2 } as ChatCompletionRequest,
				MODEL,
				ModelType.LLM
			)
		).toThrow();
	});
});
