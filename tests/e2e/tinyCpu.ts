/**
 * The CPU engine's set-up, once for every Chromium e2e scenario that runs it (cpu-run, cpu-sweep,
 * classroom-preset): the tiny real model served from 127.0.0.1 under the file names a scenario
 * asks for, a fresh profile without WebGPU, and set-up open, having chosen "This device (CPU)" by
 * itself. configureCpuRun then fills in a run of one of those files as generator and judge.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { serveGguf, type GgufServer } from '../helpers/ggufServer.ts';
import { buildTinyModel } from '../helpers/tinyModel/index.ts';
import { fillControls, need, openView, UI_TIMEOUT_MS } from './app.ts';
import type { E2EContext } from './context.ts';
import { check, E2EFailure } from './harness.ts';
import { cpuModelControls, demoPlanControls, type DemoPlan } from './setupControls.ts';

/** The file name the tiny model is served under unless a scenario names others. */
export const TINY_GGUF = 'tiny-qwen2.gguf';
/** Checking the tiny model's chat template reads its GGUF header from the files' server. */
const TEMPLATE_CHECK_TIMEOUT_MS = 30_000;

export interface TinyCpu {
	page: Page;
	context: BrowserContext;
	/** The model files' server: their URLs, and every request it answered. */
	files: GgufServer;
}

export interface TinyCpuOptions {
	/** Names (ending in .gguf) the tiny model is served under. */
	names?: readonly string[];
	/** Before set-up first opens, e.g. routing the fresh context's requests. */
	beforeOpen?: (cpu: Omit<TinyCpu, 'page'>) => Promise<void>;
}

/** Run `body` on set-up in a fresh CPU-only profile; the model server closes afterwards. */
export async function withTinyCpu<T>(
	ctx: E2EContext,
	opts: TinyCpuOptions,
	body: (cpu: TinyCpu) => Promise<T>
): Promise<T> {
	const model = await buildTinyModel({ seed: 16 });
	const names = opts.names ?? [TINY_GGUF];
	const files = await serveGguf(Object.fromEntries(names.map((n) => [n, model.path])));
	try {
		const { page, context } = await ctx.freshProfile({ webgpu: false });
		await opts.beforeOpen?.({ context, files });
		await openView(page, ctx.app.url, '#/setup');
		await cpuByDefault(page);
		return await body({ page, context, files });
	} finally {
		await files.close();
	}
}

/** Set-up, in a fresh profile without WebGPU, has chosen the CPU engine by itself. */
export async function cpuByDefault(page: Page): Promise<void> {
	const cpu = await need(page, 'setup', 'engine-cpu');
	try {
		// The default without WebGPU: nothing was chosen or saved in this fresh profile.
		await page.waitForFunction(
			() =>
				(document.querySelector('[data-testid="engine-cpu"]') as HTMLInputElement | null)
					?.checked === true,
			undefined,
			{ timeout: UI_TIMEOUT_MS }
		);
	} catch {
		throw new E2EFailure('setup view: without WebGPU the engine did not default to the CPU');
	}
	check(await cpu.isChecked(), 'engine-cpu is not checked');
}

/** Set-up (CPU engine chosen) for a run of the tiny model at `modelUrl` as generator and judge. */
export async function configureCpuRun(page: Page, modelUrl: string, plan: DemoPlan): Promise<void> {
	await fillControls(page, cpuModelControls(modelUrl));
	await (await need(page, 'setup', 'check-template')).click();
	// The status shows once the check has read the GGUF's header from its host: the whole 30 s
	// for it, not the 10 s a view's element gets (at load average 13 on 2 cores it took longer).
	const status = page.getByTestId('template-status');
	try {
		await status.getByText('<|im_start|>user').waitFor({ timeout: TEMPLATE_CHECK_TIMEOUT_MS });
	} catch {
		const said = await status.innerText({ timeout: 1_000 }).catch(() => '(no status shown)');
		throw new E2EFailure(`setup view: the GGUF's chat template did not check: "${said}"`);
	}
	await fillControls(page, demoPlanControls(plan));
}
