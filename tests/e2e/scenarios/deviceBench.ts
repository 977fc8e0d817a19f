/**
 * Issue 7: "benchmark this device" is reachable from the set-up view and really drives the device
 * engine. Weights cannot be downloaded here, so the run must end in the engine's own network
 * failure, shown with what to do, after the page tried to fetch the chosen model from Hugging Face,
 * and with nothing stored as a result.
 */
import { need, openView, setControl, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { templateSource } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';

const V = 'setup';
/** web-llm loads weights from Hugging Face: the requests the guard blocks. */
const MODEL_HOST = /huggingface\.co|hf\.co/;
const BENCH_TIMEOUT_MS = 60_000;

export const deviceBench: Scenario<E2EContext> = {
	id: 'device-bench',
	title:
		'benchmark this device: the chosen model is requested and the network failure is explained',
	timeoutMs: 120_000,
	async run(ctx) {
		const { page, watch } = await ctx.profile();
		await openView(page, ctx.app.url, '#/setup');
		await setControl(await need(page, V, 'engine-webgpu'), true);
		const template = templateSource(ctx, 'config-url');
		check('url' in template, 'expected a template URL');
		if (!('url' in template)) return;
		await setControl(await need(page, V, 'template-kind-url'), true);
		await setControl(await need(page, V, 'template-url'), template.url);

		const section = page.locator('section.device-bench');
		await section.waitFor({ timeout: UI_TIMEOUT_MS });
		const button = section.getByRole('button', { name: 'Run benchmark' });
		check(await button.isEnabled(), 'the benchmark button is disabled with WebGPU and a model');
		await button.click();

		const alert = section.getByRole('alert');
		await alert.waitFor({ timeout: BENCH_TIMEOUT_MS });
		const text = (await alert.innerText()).trim();
		check(text.length > 0, 'the benchmark failed without saying why');
		check(
			/huggingface\.co/.test(text) && /shared or example run/.test(text),
			`the failure does not name Hugging Face or say what works without it: "${text}"`
		);
		const tried = watch.blocked.filter((u) => MODEL_HOST.test(u));
		check(tried.length > 0, `no request for the model's files left the page: ${watch.blocked}`);
		check(
			(await section.getByRole('button', { name: 'Run benchmark' }).count()) === 1,
			'the benchmark did not return to its idle state after failing'
		);
		check(
			(await section.getByRole('button', { name: /^Copy/ }).count()) === 0,
			'a failed benchmark left a result to share'
		);
		ctx.note(`failure shown: "${text.replace(/\s+/g, ' ').slice(0, 160)}"`);
		await ctx.screenshot(page, 'setup-device-bench-failed');
	}
};
