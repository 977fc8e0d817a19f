/**
 * Bring your own MLC model: validation of what the user types, the web-llm record it becomes,
 * the worker's merge with web-llm's prebuilt list, cache queries before any load, and the words a
 * failed load of a custom model gets (against the fake of web-llm's surface and a fake fetch).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import {
	customAppConfig,
	customModelRecord,
	mergeAppConfig,
	modelFileUrl,
	modelFilesBase,
	parseCustomModel,
	readCustomModels,
	type CustomMlcInput
} from '../../../src/lib/engines/webgpu/custom.ts';
import { diagnoseCustomLoad } from '../../../src/lib/engines/webgpu/worker/diagnose.ts';
import type { CacheSurface } from '../../../src/lib/engines/webgpu/worker/handler.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { fakeEngine, webllmError } from '../../helpers/fakeWebLLM.ts';

const GEN = 'Qwen3-0.6B-q4f16_1-MLC';
const INPUT: CustomMlcInput = {
	id: 'Tiny-q4f16_1-MLC',
	label: 'My tiny model',
	model_url: 'http://127.0.0.1:8123/tiny',
	model_lib_url: 'http://127.0.0.1:8123/libs/tiny-webgpu.wasm',
	context_window: '2048'
};

/** The model INPUT describes (it is valid). */
function model() {
	const parsed = parseCustomModel(INPUT, []);
	if (!parsed.model) throw new Error(parsed.problems.join(' '));
	return parsed.model;
}

let closers: (() => void)[] = [];
afterEach(() => {
	for (const close of closers) close();
	closers = [];
});

describe('parseCustomModel', () => {
	it('accepts https anywhere and http on this computer, trimming what was typed', () => {
		const ok = parseCustomModel({ ...INPUT, id: '  Tiny-q4f16_1-MLC ' }, []);
		expect(ok.problems).toEqual([]);
		expect(ok.model).toEqual({
			id: 'Tiny-q4f16_1-MLC',
			label: 'My tiny model',
			model_url: INPUT.model_url,
			model_lib_url: INPUT.model_lib_url,
			context_window: 2048
		});
		for (const host of ['http://localhost:9/m', 'http://[::1]:9/m', 'https://example.org/m']) {
			expect(parseCustomModel({ ...INPUT, model_url: host }, []).problems).toEqual([]);
		}
		// No display name: the id stands in.
		expect(parseCustomModel({ ...INPUT, label: ' ' }, []).model?.label).toBe(INPUT.id);
	});

	it('names every bad field, in words for the form', () => {
		const bad = parseCustomModel(
			{
				id: 'my model',
				label: '',
				model_url: 'http://example.org/m',
				model_lib_url: 'not a url',
				context_window: '4k'
			},
			[]
		);
		expect(bad.model).toBeUndefined();
		expect(bad.problems).toEqual([
			'The model id "my model" must not contain spaces.',
			'The model URL must use https:// (plain http:// only for 127.0.0.1 or localhost): http://example.org/m',
			'The model library URL "not a url" is not a URL (it must start with https://).',
			'The context window must be a whole number of tokens above 0 (e.g. 4096), not "4k".'
		]);
	});

	it('refuses empty fields, other schemes, and context windows that are not positive integers', () => {
		const empty = parseCustomModel(
			{ id: '', label: '', model_url: '', model_lib_url: '', context_window: '' },
			[]
		);
		expect(empty.problems).toHaveLength(4);
		expect(empty.problems[0]).toMatch(/Enter a model id/);
		expect(empty.problems[1]).toBe('Enter the model URL.');
		for (const url of ['ftp://127.0.0.1/m', 'file:///home/me/m', 'javascript:alert(1)']) {
			expect(parseCustomModel({ ...INPUT, model_url: url }, []).problems[0]).toMatch(
				/must start with https:\/\//
			);
		}
		for (const ctx of ['0', '-4096', '4096.5', 'Infinity', '1e9']) {
			expect(parseCustomModel({ ...INPUT, context_window: ctx }, []).problems, ctx).toHaveLength(1);
		}
		expect(parseCustomModel({ ...INPUT, context_window: '1e3' }, []).model?.context_window).toBe(
			1000
		);
	});

	it('refuses an id the catalog or another custom model already uses', () => {
		expect(parseCustomModel({ ...INPUT, id: GEN }, [GEN]).problems).toEqual([
			`A model with the id "${GEN}" exists already: choose another id.`
		]);
	});
});

describe('readCustomModels', () => {
	it('keeps valid stored models, drops broken, duplicate and catalog-shadowing ones', () => {
		const good = parseCustomModel(INPUT, []).model;
		const stored = [
			good,
			{ ...good },
			{ ...good, id: GEN },
			{ ...good, id: 'x', model_url: 'http://evil.example/m' },
			{ ...good, id: 'y', context_window: -1 },
			null,
			'text'
		];
		expect(readCustomModels(stored, [GEN])).toEqual([good]);
		expect(readCustomModels({ not: 'a list' }, [])).toEqual([]);
	});
});

describe('the URLs web-llm reads', () => {
	it('follows web-llm 0.2.86 cleanModelUrl: resolve/main/ unless the URL has a resolve part', () => {
		expect(modelFilesBase('http://127.0.0.1:8123/tiny')).toBe(
			'http://127.0.0.1:8123/tiny/resolve/main/'
		);
		expect(modelFilesBase('https://huggingface.co/me/M-MLC/')).toBe(
			'https://huggingface.co/me/M-MLC/resolve/main/'
		);
		expect(modelFilesBase('https://huggingface.co/me/M-MLC/resolve/v2/')).toBe(
			'https://huggingface.co/me/M-MLC/resolve/v2/'
		);
		expect(modelFileUrl({ model_url: INPUT.model_url }, 'mlc-chat-config.json')).toBe(
			'http://127.0.0.1:8123/tiny/resolve/main/mlc-chat-config.json'
		);
	});

	it('makes a ModelRecord with the context window as an override', () => {
		expect(customModelRecord(model())).toEqual({
			model: INPUT.model_url,
			model_id: INPUT.id,
			model_lib: INPUT.model_lib_url,
			overrides: { context_window_size: 2048 }
		});
		expect(customAppConfig([])).toBeUndefined();
		expect(customAppConfig([model()])?.model_list).toHaveLength(1);
	});

	it('adds custom records to the prebuilt list; a custom record wins on the same id', () => {
		const merged = mergeAppConfig(prebuiltAppConfig, { model_list: [record()] });
		expect(merged.model_list).toHaveLength(prebuiltAppConfig.model_list.length + 1);
		expect(merged.model_list.some((r) => r.model_id === GEN)).toBe(true);
		const shadow = { ...record(), model_id: GEN };
		const over = mergeAppConfig(prebuiltAppConfig, { model_list: [shadow] });
		expect(over.model_list.filter((r) => r.model_id === GEN)).toEqual([shadow]);
	});
});

/** A fetch over a table of URL → response; anything else fails like a refused connection. */
function fakeFetch(table: Record<string, () => Response>) {
	const seen: string[] = [];
	const fetchFn = async (url: string) => {
		seen.push(url);
		const make = table[url];
		if (!make) throw new TypeError('Failed to fetch');
		return make();
	};
	return { fetchFn, seen };
}

const CONFIG_URL = 'http://127.0.0.1:8123/tiny/resolve/main/mlc-chat-config.json';
const record = () => customModelRecord(model());

describe('diagnoseCustomLoad', () => {
	it('names a config that answers 404, and where web-llm reads the files from', async () => {
		const { fetchFn } = fakeFetch({
			[CONFIG_URL]: () => new Response('no', { status: 404, statusText: 'Not Found' })
		});
		const err = await diagnoseCustomLoad([record()], fetchFn);
		expect(err).toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ code: 'bad_model', retryable: false });
		expect(err?.message).toBe(
			`Your model "${INPUT.id}" could not load: ${CONFIG_URL} answered HTTP 404 Not Found.`
		);
		expect(err?.recovery).toContain('http://127.0.0.1:8123/tiny/resolve/main/');
	});

	it('names a config that is not JSON', async () => {
		const { fetchFn } = fakeFetch({ [CONFIG_URL]: () => new Response('{"model_type": ') });
		const err = await diagnoseCustomLoad([record()], fetchFn);
		expect(err?.code).toBe('bad_model');
		expect(err?.message).toContain(`${CONFIG_URL} is not valid JSON (`);
	});

	it('names a missing model library once the config is fine', async () => {
		const { fetchFn, seen } = fakeFetch({
			[CONFIG_URL]: () => new Response('{"model_type":"qwen2"}'),
			[INPUT.model_lib_url]: () => new Response('', { status: 404 })
		});
		const err = await diagnoseCustomLoad([record()], fetchFn);
		expect(err?.message).toBe(
			`Your model "${INPUT.id}" could not load: its model library ${INPUT.model_lib_url} answered HTTP 404.`
		);
		expect(seen).toEqual([CONFIG_URL, INPUT.model_lib_url]);
	});

	it('says a server cannot be reached (down, or no CORS) as a retryable network error', async () => {
		const { fetchFn } = fakeFetch({});
		const err = await diagnoseCustomLoad([record()], fetchFn);
		expect(err).toMatchObject({ code: 'network', retryable: true });
		expect(err?.message).toContain(`${CONFIG_URL} could not be reached (Failed to fetch)`);
		expect(err?.recovery).toMatch(/CORS/);
	});

	it('finds nothing when both files are there (the original error then stands)', async () => {
		const { fetchFn } = fakeFetch({
			[CONFIG_URL]: () => new Response('{}'),
			[INPUT.model_lib_url]: () => new Response('wasm')
		});
		expect(await diagnoseCustomLoad([record()], fetchFn)).toBeUndefined();
	});
});

describe('custom models through the worker (fake web-llm)', () => {
	function setup(
		getModels: () => ReturnType<typeof model>[],
		fetchFn?: (url: string) => Promise<Response>,
		cache: CacheSurface = {}
	) {
		const t = fakeEngine({ appConfig: () => customAppConfig(getModels()) }, cache, {
			baseAppConfig: prebuiltAppConfig,
			fetch: fetchFn
		});
		t.fake.reportsFor = () => [];
		closers.push(t.close);
		return t;
	}

	it('loads a custom model beside a catalog model: the list sent is added to the prebuilt one', async () => {
		const { engine, fake, worker } = setup(() => [model()]);
		await engine.load([GEN, INPUT.id]);
		expect(fake.reloads).toEqual([[GEN], [INPUT.id]]);
		expect(fake.appConfig?.model_list.find((r) => r.model_id === INPUT.id)).toEqual(record());
		// The page sends only its own models; the worker holds web-llm's list.
		const sent = worker.received.find((m) => m.kind === 'load');
		expect(sent).toMatchObject({ appConfig: { model_list: [record()] } });
	});

	it('knows a model added after the engine was made, for cache queries before any load', async () => {
		const models: ReturnType<typeof model>[] = [];
		const asked: string[][] = [];
		const cache: CacheSurface = {
			has: async (m, cfg) => {
				asked.push(cfg?.model_list.map((r) => r.model_id) ?? []);
				if (!cfg?.model_list.some((r) => r.model_id === m)) {
					throw webllmError(
						'ModelNotFoundError',
						`Cannot find model record in appConfig for ${m}.`
					);
				}
				return false;
			}
		};
		const { engine } = setup(() => models, undefined, cache);
		await expect(engine.isCached(INPUT.id)).rejects.toMatchObject({ code: 'bad_model' });
		models.push(model());
		expect(await engine.isCached(INPUT.id)).toBe(false);
		// Catalog models stay known next to it.
		expect(await engine.isCached(GEN)).toBe(false);
		expect(asked.at(-1)).toContain(GEN);
		expect(asked.at(-1)).toContain(INPUT.id);
	});

	it('turns a failed load of a custom model into an error naming the file', async () => {
		const { fetchFn, seen } = fakeFetch({
			[CONFIG_URL]: () => new Response('', { status: 404, statusText: 'Not Found' })
		});
		const deleted: string[] = [];
		const { engine, fake } = setup(() => [model()], fetchFn, {
			forgetConfig: async (m, cfg) => {
				expect(cfg?.model_list.some((r) => r.model_id === m)).toBe(true);
				deleted.push(m);
			}
		});
		// What Chrome's Cache.add throws for a 404, which alone reads as a Hugging Face failure.
		fake.failNext.reload = new TypeError("Failed to execute 'add' on 'Cache': Request failed");
		const err = await engine.load([INPUT.id]).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ code: 'bad_model' });
		expect((err as Error).message).toContain(`${CONFIG_URL} answered HTTP 404 Not Found`);
		expect((err as Error).message).not.toMatch(/Hugging Face/);
		expect(seen).toEqual([CONFIG_URL]);
		// Its cached config and library go, so a fixed config is read afresh next time.
		expect(deleted).toEqual([INPUT.id]);
	});

	it('keeps the cache when the model server cannot be reached (a retry may resume)', async () => {
		const deleted: string[] = [];
		const { engine, fake } = setup(() => [model()], fakeFetch({}).fetchFn, {
			forgetConfig: async (m) => void deleted.push(m)
		});
		fake.failNext.reload = new TypeError('Failed to fetch');
		const err = await engine.load([INPUT.id]).catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'network', retryable: true });
		expect((err as Error).message).toContain(`${CONFIG_URL} could not be reached`);
		expect(deleted).toEqual([]);
	});

	it('leaves a catalog model failure as it was, without fetching anything', async () => {
		const { fetchFn, seen } = fakeFetch({});
		const { engine, fake } = setup(() => [model()], fetchFn);
		fake.failNext.reload = new TypeError('Failed to fetch');
		const err = await engine.load([GEN]).catch((e: unknown) => e);
		expect(err).toMatchObject({ code: 'network' });
		expect((err as Error).message).toMatch(/Hugging Face/);
		expect(seen).toEqual([]);
	});
});
