/**
 * Issue 3: the set-up view's capability panel. With SwiftShader's WebGPU it names the adapter,
 * reports shader-f16 missing and picks q4f32 variants; without WebGPU it (and the first screen) says
 * the CPU engine runs the models, what to try for a GPU, and that shared runs can still be opened.
 */
import type { Page } from 'playwright-core';
import { need, openView, setControl } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, type Scenario } from '../harness.ts';

const V = 'setup';
const SHARED_RUNS = /shared runs can still be opened/i;
const WHAT_TO_TRY = /\b(try|turn on|enable|update|use a recent)\b/i;

/** The fallback message of a browser that cannot run models. */
async function fallbackText(page: Page, ctx: E2EContext): Promise<string> {
	await openView(page, ctx.app.url, '#/setup');
	const text = await (await need(page, V, 'env-no-webgpu')).innerText();
	check(SHARED_RUNS.test(text), `fallback does not say shared runs can still be opened: "${text}"`);
	check(WHAT_TO_TRY.test(text), `fallback does not say what to try: "${text}"`);
	check(
		/models run on the CPU engine/.test(text) && !/cannot run in this browser/i.test(text),
		`set-up does not offer the CPU engine: "${text}"`
	);
	check(
		(await page.getByTestId('env-webgpu').innerText()).trim() === 'no',
		'WebGPU not shown as "no"'
	);
	// The first screen says it too, in the "Run the probe" card and the device line.
	await openView(page, ctx.app.url, '#/');
	const card = await (await need(page, 'home', 'way-run-cpu')).innerText();
	check(
		/runs use the CPU engine .*slower than a GPU/.test(card),
		`the first screen's run card does not offer the CPU engine: "${card}"`
	);
	const line = await (await need(page, 'home', 'device-line')).innerText();
	check(/CPU engine/.test(line), `the device line does not name the CPU engine: "${line}"`);
	return text;
}

export const capability: Scenario<E2EContext> = {
	id: 'capability',
	title: 'capability panel: SwiftShader adapter, no shader-f16, q4f32; fallback without WebGPU',
	timeoutMs: 60_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		await openView(page, ctx.app.url, '#/setup');
		const adapter = await (await need(page, V, 'env-adapter')).innerText();
		check(/swiftshader/i.test(adapter), `the adapter is not named swiftshader: "${adapter}"`);
		const f16 = (await (await need(page, V, 'env-f16')).innerText()).trim();
		check(f16 === 'no', `shader-f16 shown as "${f16}", expected "no"`);
		const note = await (await need(page, V, 'env-f16-note')).innerText();
		check(/q4f32/.test(note), `the shader-f16 note does not mention q4f32: "${note}"`);
		check(
			(await page.getByTestId('env-no-webgpu').count()) === 0,
			'the no-WebGPU fallback shows although WebGPU works'
		);
		await openView(page, ctx.app.url, '#/');
		await need(page, 'home', 'way-run');
		check(
			(await page.getByTestId('way-run-cpu').count()) === 0,
			'the first screen offers the CPU engine although WebGPU works'
		);
		await openView(page, ctx.app.url, '#/setup');

		// The in-browser model pickers offer only q4f32 variants here.
		await setControl(await need(page, V, 'engine-webgpu'), true);
		const picker = await need(page, V, 'generator-model');
		const models = await picker.innerText();
		check(/q4f32/.test(models), `the generator picker shows no q4f32 variant:\n${models}`);
		check(
			!/q4f16/.test(models),
			`the generator picker offers q4f16 without shader-f16:\n${models}`
		);
		ctx.note(`adapter "${adapter.trim()}", shader-f16 ${f16}`);
		await ctx.screenshot(page, 'setup-capability');

		// No navigator.gpu at all (Firefox, older Safari).
		const bare = await ctx.profile();
		await bare.context.addInitScript({
			content: "Object.defineProperty(Navigator.prototype, 'gpu', { get: () => undefined });"
		});
		const noGpu = await fallbackText(bare.page, ctx);
		check(
			/does not offer WebGPU/i.test(noGpu),
			`without navigator.gpu the reason is not given: "${noGpu}"`
		);
		await ctx.screenshot(bare.page, 'setup-no-webgpu');

		// navigator.gpu present but no adapter: headless Linux without --enable-unsafe-webgpu.
		const plain = await ctx.freshProfile({ webgpu: false });
		const noAdapter = await fallbackText(plain.page, ctx);
		check(
			/no GPU adapter/i.test(noAdapter),
			`without an adapter the reason is not given: "${noAdapter}"`
		);
	}
};
