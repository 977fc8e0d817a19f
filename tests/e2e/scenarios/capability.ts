/**
 * Issue 3: the set-up view's capability panel. With SwiftShader's WebGPU it names the adapter,
 * reports shader-f16 missing and picks q4f32 variants; without WebGPU it says what to try and that
 * shared runs can still be opened.
 */
import type { Page } from 'playwright-core';
import { openView } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, type Scenario } from '../harness.ts';

const PANEL_WAIT_MS = 10_000;

/** The set-up view's text once the GPU probe has answered (it is async). */
async function setupText(page: Page, ctx: E2EContext, ready: RegExp): Promise<string> {
	await openView(page, ctx.app.url, '#/setup');
	await page
		.locator('main')
		.getByText(ready)
		.first()
		.waitFor({ timeout: PANEL_WAIT_MS })
		.catch(() => {});
	return page.locator('main').innerText();
}

const SHARED_RUNS = /shared runs can still be opened/i;
const WHAT_TO_TRY = /\b(try|turn on|enable|update)\b/i;

export const capability: Scenario<E2EContext> = {
	id: 'capability',
	title: 'capability panel: SwiftShader adapter, no shader-f16, q4f32; fallback without WebGPU',
	timeoutMs: 60_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const text = await setupText(page, ctx, /swiftshader/i);
		check(/swiftshader/i.test(text), 'setup view does not name the adapter (swiftshader)');
		check(
			/shader-f16[^\n]*(missing|no\b|not |lack|unsupported|✗|×)|(missing|no|lacks?|without)[^\n]*shader-f16/i.test(
				text
			),
			'setup view does not report shader-f16 as missing'
		);
		check(/q4f32/i.test(text), 'setup view does not show a q4f32 variant being chosen');
		check(
			!/q4f16_1-MLC/.test(text),
			'setup view offers a q4f16 model id on a GPU without shader-f16'
		);
		await ctx.screenshot(page, 'setup-capability');

		// No navigator.gpu at all (Firefox, older Safari).
		const bare = await ctx.profile();
		await bare.context.addInitScript({
			content: "Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined });"
		});
		const noGpu = await setupText(bare.page, ctx, SHARED_RUNS);
		check(SHARED_RUNS.test(noGpu), 'without navigator.gpu: no "shared runs can still be opened"');
		check(WHAT_TO_TRY.test(noGpu), 'without navigator.gpu: the message does not say what to try');
		await ctx.screenshot(bare.page, 'setup-no-webgpu');

		// navigator.gpu present but no adapter: headless Linux without --enable-unsafe-webgpu.
		const plain = await ctx.freshProfile({ webgpu: false });
		const noAdapter = await setupText(plain.page, ctx, SHARED_RUNS);
		check(SHARED_RUNS.test(noAdapter), 'without an adapter: no "shared runs can still be opened"');
		check(WHAT_TO_TRY.test(noAdapter), 'without an adapter: the message does not say what to try');
	}
};
