/**
 * Offline after the first visit: load the production app once from a server of its own, finish a
 * small run, wait until the service worker (vite-plugin-pwa's precache) controls the page, then
 * stop that server for good and take the browser offline. A reload must still draw the app shell
 * (set-up view with the built-in demo dataset) and list the run stored before going offline.
 *
 * The scenario serves the build itself, on its own port (so its own origin, service worker and
 * IndexedDB), because the shared server must outlive it for the scenarios after it.
 */
import type { Page } from 'playwright-core';
import { cachedWithin, need, openView, UI_TIMEOUT_MS, type RunPlan } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { serveBuild } from '../server.ts';

/** 2 items × T 0 × no perturbation × 1 sample: a run exists, quickly. */
const TINY_PLAN = {
	items: 2,
	temperatures: [0],
	truncate: false,
	samples: 1,
	judgeMode: 'hybrid'
} as const satisfies RunPlan;

const SW_TIMEOUT_MS = 15_000;

interface WorkerState {
	/** navigator.serviceWorker exists: only in a secure context (http://127.0.0.1 is one). */
	supported: boolean;
	active: boolean;
	controlled: boolean;
	/** Entries in workbox's precache (0 when none was found). */
	precached: number;
}

/** Wait for an active service worker, and report whether it controls this page. */
async function workerState(page: Page): Promise<WorkerState> {
	return page.evaluate(async (timeoutMs) => {
		if (!('serviceWorker' in navigator)) {
			return { supported: false, active: false, controlled: false, precached: 0 };
		}
		const ready = await Promise.race([
			navigator.serviceWorker.ready,
			new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs))
		]);
		let precached = 0;
		for (const name of await caches.keys()) {
			if (name.includes('precache')) precached += (await (await caches.open(name)).keys()).length;
		}
		return {
			supported: true,
			active: ready?.active?.state === 'activated',
			controlled: navigator.serviceWorker.controller !== null,
			precached
		};
	}, SW_TIMEOUT_MS);
}

export const offline: Scenario<E2EContext> = {
	id: 'offline',
	title: 'offline after the first visit: server stopped, reload draws the app and lists a run',
	timeoutMs: 120_000,
	async run(ctx) {
		const own = await serveBuild();
		let serving = true;
		try {
			const { page, context } = await ctx.profile();
			const { runId } = await completeRun({ ...ctx, app: own }, page, { plan: TINY_PLAN });

			let sw = await workerState(page);
			check(sw.supported, `no service worker API on ${own.url} (not a secure context?)`);
			if (sw.active && !sw.controlled) {
				// Activated after this page loaded and did not claim it: the next load is controlled.
				await page.reload();
				sw = await workerState(page);
			}
			check(sw.active, `no active service worker within ${SW_TIMEOUT_MS} ms on ${own.url}`);
			check(sw.controlled, 'the service worker is active but does not control the page');
			check(sw.precached > 0, 'the service worker precached nothing');
			// The precache holds the first screen only; the runs view and the app parts it reads come
			// into the runtime cache once the worker controls the page (App.svelte, while idle).
			check(
				await cachedWithin(
					page,
					[/\/RunsView-[\w-]+\.js$/, /\/appParts-[\w-]+\.js$/],
					SW_TIMEOUT_MS
				),
				`the runs view was not cached within ${SW_TIMEOUT_MS} ms of the worker taking over`
			);

			await own.close();
			serving = false;
			await context.setOffline(true);
			const reachable = await fetch(own.url).then(
				() => true,
				() => false
			);
			check(!reachable, `the app's server still answers at ${own.url}`);

			try {
				await page.reload();
			} catch (err) {
				const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
				throw new E2EFailure(`offline: the reload was not served from the cache: ${why}`);
			}
			await openView(page, own.url, '#/setup');
			try {
				await page
					.getByRole('heading', { name: 'New run' })
					.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
			} catch {
				throw new E2EFailure('offline: the set-up view did not render after the reload');
			}
			const demo = (await need(page, 'setup', 'dataset-select')).locator('option[value="demo"]');
			check((await demo.count()) === 1, 'offline: the built-in demo dataset is not offered');

			await openView(page, own.url, '#/runs');
			await need(page, 'runs', 'runs-table');
			const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
			try {
				await row.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
			} catch {
				throw new E2EFailure(`offline: run ${runId}, stored before going offline, is not listed`);
			}
			ctx.note(`${sw.precached} precached entries; run ${runId} listed with the server stopped`);
			await ctx.screenshot(page, 'runs-offline');
		} finally {
			if (serving) await own.close();
		}
	}
};
