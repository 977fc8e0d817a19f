/**
 * Cross-origin isolation from the app's own service worker, on a static server that sends no
 * isolation headers (as GitHub Pages): the first visit of set-up is not isolated and does not
 * reload itself while it is read, even once the worker controls it; starting a CPU run reloads it
 * once into the stored run, which starts there isolated: the CPU engine runs the tiny real model
 * (from another origin) with more than one thread. Isolated, a CPU run, a share link from another host and a
 * server-engine run against a mock on another port all work. With the switch off the page is not
 * isolated, the engine runs on one thread, and the choice survives a new visit; on again restores.
 * On a machine with fewer than 4 cores the page is told it has 4, so half of them is 2 threads.
 */
import type { Page } from 'playwright-core';
import { serveGguf, type GgufServer } from '../../helpers/ggufServer.ts';
import { buildTinyModel } from '../../helpers/tinyModel/index.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { need, openView, startRun, UI_TIMEOUT_MS, waitForDone, waitForIsolation } from '../app.ts';
import { RESULTS_DIR, type E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { configureCpuRun, TINY_GGUF } from '../tinyCpu.ts';

/** 2 items × T 0 × 1 sample, judged by the same tiny model. */
const CPU_PLAN = { items: 2, temperatures: '0' };
const CPU_PLANNED = 2;
const BENCH_TIMEOUT_MS = 180_000;

const isolated = (page: Page) => page.evaluate(() => crossOriginIsolated);

/**
 * The engine takes half the cores, so a 2-core CI machine would plan 1 thread whether isolated or
 * not: the page is told it has 4 (the worker takes its count from the page), which makes 2 threads
 * on this machine's 2 cores.
 */
const EMULATED_CORES = 4;

/** "Benchmark this device" on the CPU engine; the threads llama.cpp reported, and decode tok/s. */
async function benchThreads(page: Page): Promise<{ threads: number; line: string }> {
	await openView(page, page.url(), '#/setup');
	const section = page.locator('section.device-bench');
	await section.waitFor({ timeout: UI_TIMEOUT_MS });
	const runButton = section.getByRole('button', { name: 'Run benchmark' });
	await runButton.click();
	// While it runs the button is Cancel; an earlier result stays on screen until the new one.
	await section.getByRole('button', { name: 'Cancel' }).waitFor({ timeout: UI_TIMEOUT_MS });
	try {
		await runButton.waitFor({ timeout: BENCH_TIMEOUT_MS });
	} catch {
		throw new E2EFailure('the CPU benchmark did not finish');
	}
	const alert = await section.getByRole('alert').allInnerTexts();
	if (alert.length > 0) throw new E2EFailure(`the CPU benchmark failed: ${alert.join(' | ')}`);
	const line = await (await need(page, 'setup', 'bench-cpu-threads')).innerText();
	const m = /with (\d+) CPU thread/.exec(line);
	if (!m) throw new E2EFailure(`the benchmark does not say its threads: "${line}"`);
	return { threads: Number(m[1]), line };
}

async function threadsLine(page: Page): Promise<{ threads: number; text: string }> {
	const el = await need(page, 'setup', 'cpu-threads');
	return { threads: Number(await el.getAttribute('data-threads')), text: await el.innerText() };
}

export const isolation: Scenario<E2EContext> = {
	id: 'isolation',
	title:
		'no isolation headers (as GitHub Pages): no reload while read; starting a CPU run reloads once into isolation, the CPU engine runs multi-threaded, runs and share links work; the switch turns it off',
	timeoutMs: 600_000,
	async run(ctx) {
		const served = await fetch(ctx.app.url);
		check(
			!served.headers.has('cross-origin-embedder-policy') &&
				!served.headers.has('cross-origin-opener-policy'),
			'the static server sends isolation headers itself: this scenario would prove nothing'
		);
		const model = await buildTinyModel({ seed: 16 });
		let files: GgufServer | undefined;
		try {
			const { page, context } = await ctx.freshProfile({ webgpu: false });
			const cores = await page.evaluate(() => navigator.hardwareConcurrency);
			check(cores >= 2, `this machine reports ${cores} core(s): no second thread to prove`);
			if (cores < EMULATED_CORES) {
				await context.addInitScript(
					`Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => ${EMULATED_CORES} });`
				);
				ctx.note(`the page is told it has ${EMULATED_CORES} cores (this machine has ${cores})`);
			}

			// First visit: served without headers, so not isolated; it stays put while read, even once
			// the service worker controls it.
			let loads = 0;
			page.on('load', () => loads++);
			const loadsSoFar = () => loads;
			await page.goto(new URL('#/setup', ctx.app.url).href);
			check(!(await isolated(page)), 'the first visit is isolated before any service worker ran');
			const controlled = await page.evaluate(async () => {
				await navigator.serviceWorker.ready;
				for (let i = 0; i < 100 && !navigator.serviceWorker.controller; i++) {
					await new Promise((r) => setTimeout(r, 100));
				}
				return navigator.serviceWorker.controller !== null;
			});
			check(controlled, 'the service worker did not take over the first visit');
			await page.waitForTimeout(2_000);
			check(loadsSoFar() === 1, `the first visit reloaded itself while read (${loads} loads)`);
			check(!(await isolated(page)), 'the first visit became isolated without a reload');
			await (await need(page, 'setup', 'engine-cpu')).check();
			const before = await threadsLine(page);
			check(before.threads === 1, `not yet isolated, set-up plans ${before.threads} threads`);
			check(
				/Starting a CPU run reloads it first/.test(before.text),
				`the threads line does not say a CPU run reloads first: "${before.text}"`
			);

			// A CPU run of the tiny model from another origin (CORS): its start reloads the page once
			// into the stored run, which starts there isolated and multi-threaded.
			files = await serveGguf({ 'tiny-qwen2.gguf': model.path });
			await configureCpuRun(page, files.url(TINY_GGUF), CPU_PLAN);
			const runId = await startRun(page);
			check(await waitForIsolation(page), 'the CPU run did not reload the page into isolation');
			// Isolated as soon as the new document runs; its load event comes after.
			await page.waitForLoadState('load');
			const reloaded = await page.evaluate(() => sessionStorage.getItem('isolation-reloaded'));
			check(reloaded === '1', 'the page became isolated without its one reload');
			check(loadsSoFar() === 2, `the CPU start made ${loads - 1} reloads, not one`);
			check(
				(await page.evaluate(() => typeof SharedArrayBuffer)) === 'function',
				'isolated, but no SharedArrayBuffer'
			);
			const done = await waitForDone(page, runId, CPU_PLANNED, 240_000);
			check(done.records === CPU_PLANNED, `isolated CPU run: ${done.records} records`);
			check(await isolated(page), 'the page lost isolation during the CPU run');
			check(page.url().includes(`#/run/${runId}`), `the reload left the run view: ${page.url()}`);
			const multi = await benchThreads(page);
			check(multi.threads > 1, `isolated, llama.cpp ran with ${multi.threads} thread(s)`);
			await (await need(page, 'setup', 'engine-cpu')).check();
			const on = await threadsLine(page);
			check(on.threads > 1, `isolated, set-up plans ${on.threads} thread(s): "${on.text}"`);
			check(/cross-origin isolated/.test(on.text), `the threads line reads "${on.text}"`);
			ctx.note(
				`no reload while read; the CPU start reloaded once; isolated run done (${CPU_PLANNED} records); set-up: "${on.text}"; benchmark: "${multi.line}"`
			);

			// Share the run, host the file on another origin, open its link in the isolated page.
			await openView(page, ctx.app.url, '#/runs');
			const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
			const pending = page.waitForEvent('download', { timeout: UI_TIMEOUT_MS });
			await row.getByTestId('export-run').click();
			const download = await pending;
			const dir = join(RESULTS_DIR, 'downloads');
			mkdirSync(dir, { recursive: true });
			const saved = join(dir, `isolation-${download.suggestedFilename()}`);
			await download.saveAs(saved);
			await files.close();
			files = await serveGguf({ 'shared.run.jsonl': saved });
			const link = `#/open?url=${encodeURIComponent(files.url('shared.run.jsonl'))}`;
			await page.goto(new URL(link, ctx.app.url).href);
			// The same run is stored already (it was made here): the linked file is read, then kept too.
			await page
				.getByRole('button', { name: 'Keep both (store a copy)' })
				.click({ timeout: UI_TIMEOUT_MS });
			await page.waitForURL(/#\/results\//, { timeout: UI_TIMEOUT_MS });
			await need(page, 'results', 'chart-labels');
			check(await isolated(page), 'the page opened by a share link is not isolated');

			// The server engine, cross-origin against a mock on another port.
			const server = await completeRun(ctx, page, {
				plan: { items: 2, temperatures: [0], truncate: false, samples: 1, judgeMode: 'hybrid' }
			});
			check(await isolated(page), 'the page lost isolation during the server run');
			ctx.note(`isolated: share link opened, server run done (${server.planned} records)`);

			// Off: the page reloads unisolated, one thread, and a new visit remembers it.
			await openView(page, ctx.app.url, '#/setup');
			await (await need(page, 'setup', 'engine-cpu')).check();
			await Promise.all([
				page.waitForEvent('load', { timeout: UI_TIMEOUT_MS }),
				(await need(page, 'setup', 'isolation-switch')).uncheck()
			]);
			check(!(await isolated(page)), 'with the switch off the page is still isolated');
			await (await need(page, 'setup', 'engine-cpu')).check();
			const off = await threadsLine(page);
			check(off.threads === 1, `switched off, set-up plans ${off.threads} threads`);
			check(/turned off/.test(off.text), `switched off, the threads line reads "${off.text}"`);
			const single = await benchThreads(page);
			check(single.threads === 1, `switched off, llama.cpp ran with ${single.threads} threads`);
			await page.goto('about:blank');
			await page.goto(new URL('#/setup', ctx.app.url).href);
			await page.waitForTimeout(1_000);
			check(!(await isolated(page)), 'the switch was not remembered by a new visit');
			const kept = await (await need(page, 'setup', 'engine-cpu')).isChecked();
			if (!kept) await (await need(page, 'setup', 'engine-cpu')).check();
			check(
				!(await (await need(page, 'setup', 'isolation-switch')).isChecked()),
				'the switch shows on after a new visit'
			);
			ctx.note(`switched off: "${off.text}"; benchmark: "${single.line}"`);

			// On again: isolated after the reload the switch makes.
			await Promise.all([
				page.waitForEvent('load', { timeout: UI_TIMEOUT_MS }),
				(await need(page, 'setup', 'isolation-switch')).check()
			]);
			check(await waitForIsolation(page), 'switched back on, the page is not isolated');
		} finally {
			await files?.close();
		}
	}
};
