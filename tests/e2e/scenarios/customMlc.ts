/**
 * Bring your own MLC model in real Chromium with real web-llm 0.2.86 in its worker: set-up refuses
 * a bad model URL, adds a model whose files are on a local server (127.0.0.1), takes its chat
 * template from the tokenizer_config.json beside the weights, and a run's load sends web-llm to
 * that server for mlc-chat-config.json. No web-llm 0.2.86 model library can be had offline, so the
 * server serves no model (a model's files put into web-llm's cache by hand show the "cached" badge,
 * asked of the worker before any load): first the config answers 404, then (another model) it is malformed JSON,
 * and the run must stop with an error that names the file's URL and what is wrong with it.
 * Self-contained: its own model server, profile and assertions.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { readFixture } from '../../helpers/fixtures.ts';
import { need, openView, setControl, startRun, TEMPLATE_FILE } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';

interface ModelServer {
	url: string;
	/** Paths requested, in order ("GET /tiny/resolve/main/mlc-chat-config.json"). */
	requests: string[];
	/** From now on /broken/ serves a well-formed config (its library stays missing). */
	fixConfig(): void;
	close(): Promise<void>;
}

/**
 * A static server as a user might run one (npx serve, python -m http.server with CORS): the
 * tokenizer_config.json of two models, /missing/ with no mlc-chat-config.json (404) and /broken/
 * with a truncated one.
 */
async function serveModels(): Promise<ModelServer> {
	const requests: string[] = [];
	let fixed = false;
	const tokenizerConfig = JSON.stringify({
		chat_template: readFixture(`templates/${TEMPLATE_FILE}`),
		bos_token: null,
		eos_token: '<|im_end|>'
	});
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const path = new URL(req.url ?? '/', 'http://x').pathname;
		requests.push(`${req.method} ${path}`);
		const cors = { 'access-control-allow-origin': '*' };
		if (/^\/(missing|broken)\/resolve\/main\/tokenizer_config\.json$/.test(path)) {
			res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(tokenizerConfig);
		} else if (path === '/broken/resolve/main/mlc-chat-config.json') {
			res.writeHead(200, { ...cors, 'content-type': 'application/json' });
			res.end(
				fixed ? '{"model_type": "qwen2"}' : '{"model_type": "qwen2", "context_window_size": '
			);
		} else {
			res.writeHead(404, { ...cors, 'content-type': 'text/plain' }).end('not found');
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		fixConfig: () => void (fixed = true),
		close: () => {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}

async function addModel(
	page: Page,
	m: { id: string; modelUrl: string; libUrl: string; ctx: string }
): Promise<void> {
	const v = 'setup';
	await setControl(await need(page, v, 'mlc-id'), m.id);
	await setControl(await need(page, v, 'mlc-model-url'), m.modelUrl);
	await setControl(await need(page, v, 'mlc-lib-url'), m.libUrl);
	await setControl(await need(page, v, 'mlc-context-window'), m.ctx);
	await (await need(page, v, 'mlc-add')).click();
}

/** Start a one-item rules-only run with the chosen generator; returns the run's fatal error text. */
async function runUntilError(page: Page): Promise<string> {
	const v = 'setup';
	await setControl(await need(page, v, 'judge-mode'), 'rules');
	await setControl(await need(page, v, 'template-kind-repo'), true);
	await setControl(await need(page, v, 'template-repo'), '');
	await setControl(await need(page, v, 'dataset-select'), 'demo');
	await setControl(await need(page, v, 'n-items'), '1');
	await setControl(await need(page, v, 'temperatures'), '0');
	await setControl(await need(page, v, 'perturbation-truncate'), false);
	const append = page.getByTestId('perturbation-append');
	if ((await append.count()) > 0) await setControl(append.first(), false);
	await setControl(await need(page, v, 'samples'), '1');
	await startRun(page);
	const error = page.getByTestId('run-error').first();
	try {
		await error.waitFor({ state: 'visible', timeout: 60_000 });
	} catch {
		throw new E2EFailure(`run view: no run error shown within 60 s (url ${page.url()})`);
	}
	return error.innerText();
}

export const customMlc: Scenario<E2EContext> = {
	id: 'custom-mlc',
	title:
		'your own MLC model: added, its files asked of 127.0.0.1, a missing or bad config and a missing library named',
	timeoutMs: 180_000,
	async run(ctx) {
		const models = await serveModels();
		try {
			const { page, watch } = await ctx.profile();
			await openView(page, ctx.app.url, '#/setup');
			await setControl(await need(page, 'setup', 'engine-webgpu'), true);
			await page.getByTestId('custom-mlc').locator('summary').click();

			// A plain-http URL on another host is refused, with the reason.
			await addModel(page, {
				id: 'Remote-MLC',
				modelUrl: 'http://example.org/m',
				libUrl: `${models.url}/lib.wasm`,
				ctx: '4096'
			});
			const problems = await (await need(page, 'setup', 'mlc-problems')).innerText();
			check(
				/must use https:\/\//.test(problems),
				`no https problem for an http model URL: "${problems}"`
			);

			// The "cached" badge asks the real worker before any load: put a one-shard model into
			// web-llm's model cache the way a finished download leaves it, then add that model.
			const cachedBase = `${models.url}/cached/resolve/main/`;
			await page.evaluate(async (base) => {
				const cache = await caches.open('webllm/model');
				const manifest = { records: [{ dataPath: 'params_shard_0.bin' }] };
				await cache.put(`${base}tensor-cache.json`, new Response(JSON.stringify(manifest)));
				await cache.put(`${base}params_shard_0.bin`, new Response(new Uint8Array(8)));
			}, cachedBase);
			const cachedId = 'Cached-q4f16_1-MLC';
			await addModel(page, {
				id: cachedId,
				modelUrl: `${models.url}/cached`,
				libUrl: `${models.url}/libs/cached-webgpu.wasm`,
				ctx: '4096'
			});
			const row = page
				.getByTestId('generator-model')
				.locator('label', { has: page.getByTestId(`generator-model-custom:${cachedId}`) });
			try {
				await row.locator('.tag.cached').waitFor({ timeout: 15_000 });
			} catch {
				throw new E2EFailure(
					`setup view: no "cached" badge for a custom model whose files are cached: "${await row.innerText()}"`
				);
			}

			const missing = {
				id: 'Missing-q4f16_1-MLC',
				modelUrl: `${models.url}/missing`,
				libUrl: `${models.url}/libs/missing-webgpu.wasm`,
				ctx: '2048'
			};
			await addModel(page, missing);
			const radio = await need(page, 'setup', `generator-model-custom:${missing.id}`);
			check(await radio.isChecked(), 'the added model is not chosen as the generator');
			const t0 = Date.now();
			const first = await runUntilError(page);
			const configUrl = `${models.url}/missing/resolve/main/mlc-chat-config.json`;
			check(
				models.requests.includes('GET /missing/resolve/main/mlc-chat-config.json'),
				`web-llm never asked the local server for mlc-chat-config.json: ${JSON.stringify(models.requests)}`
			);
			check(
				first.includes(configUrl) && first.includes('HTTP 404'),
				`the run error does not name ${configUrl} and its 404: "${first}"`
			);
			check(!/Hugging Face/.test(first), `the error blames Hugging Face: "${first}"`);
			ctx.note(`404 load failed in ${Date.now() - t0} ms: ${first.slice(0, 160)}`);

			// A config that is there but not JSON: a second model, from a fresh set-up.
			await openView(page, ctx.app.url, '#/setup');
			await addModel(page, {
				id: 'Broken-q4f16_1-MLC',
				modelUrl: `${models.url}/broken`,
				libUrl: `${models.url}/libs/broken-webgpu.wasm`,
				ctx: '2048'
			});
			const second = await runUntilError(page);
			const brokenUrl = `${models.url}/broken/resolve/main/mlc-chat-config.json`;
			check(
				second.includes(brokenUrl) && /not valid JSON/.test(second),
				`the run error does not say ${brokenUrl} is not JSON: "${second}"`
			);
			// The template came from the model's folder too, never from Hugging Face.
			check(
				models.requests.includes('GET /broken/resolve/main/tokenizer_config.json'),
				`the chat template was not read beside the weights: ${JSON.stringify(models.requests)}`
			);
			ctx.note(`malformed config: ${second.slice(0, 160)}`);

			// The config fixed on the server: the broken copy web-llm had cached must not come back;
			// the load gets as far as the model library, which the error then names.
			models.fixConfig();
			const before = models.requests.length;
			await openView(page, ctx.app.url, '#/setup');
			const third = await runUntilError(page);
			const libUrl = `${models.url}/libs/broken-webgpu.wasm`;
			// Two asks for the library: web-llm's own (it got past the config, so the broken copy was
			// gone from its cache) and the worker's check that named it.
			const libAsks = models.requests
				.slice(before)
				.filter((r) => r === 'GET /libs/broken-webgpu.wasm').length;
			check(
				libAsks === 2,
				`the model library was asked for ${libAsks} time(s), not 2 (web-llm + check): ${JSON.stringify(models.requests.slice(before))}`
			);
			check(
				third.includes(libUrl) && third.includes('HTTP 404'),
				`after the config was fixed, the run error does not name the library ${libUrl}: "${third}"`
			);
			ctx.note(`missing library: ${third.slice(0, 160)}`);
			check(watch.blocked.length === 0, `requests left 127.0.0.1: ${watch.blocked.join(', ')}`);
			ctx.note(`model server saw: ${models.requests.join(', ')}`);
		} finally {
			await models.close();
		}
	}
};
