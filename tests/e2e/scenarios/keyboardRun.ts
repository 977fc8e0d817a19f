/**
 * Issue 18's "keyboard-only set-up → start → results": every control is reached with Tab (never
 * clicked or focused by script), radios move with the arrow keys, buttons and links fire with
 * Enter, and the run ends on its results page. A browser without WebGPU, so the engine is the
 * OpenAI-compatible server (the mock) by default.
 */
import type { Page } from 'playwright-core';
import { TEMPLATE_FILE, UI_TIMEOUT_MS, waitForDone } from '../app.ts';
import { MOCK_MODEL, type E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';

/** Press Tab until the element with this test id has focus; fails after `max` presses. */
async function tabTo(page: Page, testId: string, max = 250): Promise<void> {
	for (let i = 0; i < max; i++) {
		const at = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
		if (at === testId) return;
		await page.keyboard.press('Tab');
	}
	throw new E2EFailure(`keyboard: ${max} Tab presses never reached [data-testid="${testId}"]`);
}

/** Tab to a text field, clear it and type. */
async function typeInto(page: Page, testId: string, text: string): Promise<void> {
	await tabTo(page, testId);
	await page.keyboard.press('ControlOrMeta+A');
	await page.keyboard.press('Backspace');
	await page.keyboard.type(text);
}

async function checked(page: Page, testId: string): Promise<boolean> {
	return page.getByTestId(testId).first().isChecked();
}

export const keyboardRun: Scenario<E2EContext> = {
	id: 'keyboard-run',
	title: 'keyboard only: set-up (Tab, arrows, typing) → Start → results, no click',
	timeoutMs: 90_000,
	async run(ctx) {
		const mock = await ctx.mock('probe');
		const { page } = await ctx.freshProfile({ webgpu: false });
		await page.goto(new URL('#/setup', ctx.app.url).href);
		await page.getByTestId('engine-server').waitFor({ timeout: UI_TIMEOUT_MS });
		// Without WebGPU the CPU engine is the default; the server is chosen with the arrow keys.
		// The default follows the GPU probe, which answers a moment after the view is drawn.
		await page
			.locator('[data-testid="engine-cpu"]:checked')
			.waitFor({ timeout: UI_TIMEOUT_MS })
			.catch(() => undefined);
		check(await checked(page, 'engine-cpu'), 'without WebGPU the engine is not the CPU');
		await tabTo(page, 'engine-cpu');
		for (let i = 0; i < 3 && !(await checked(page, 'engine-server')); i++) {
			await page.keyboard.press('ArrowDown');
		}
		check(await checked(page, 'engine-server'), 'the arrow keys did not pick the server');

		await typeInto(page, 'base-url', mock.url);
		await typeInto(page, 'model-id', MOCK_MODEL);
		await typeInto(page, 'judge-model-id', MOCK_MODEL);
		// The template source: a radio group, moved with the arrow keys.
		const kinds = ['template-kind-repo', 'template-kind-url', 'template-kind-file'];
		const current = [];
		for (const k of kinds) if (await checked(page, k)) current.push(k);
		await tabTo(page, current[0] ?? kinds[0]);
		for (let i = 0; i < 3 && !(await checked(page, 'template-kind-url')); i++) {
			await page.keyboard.press('ArrowRight');
		}
		check(await checked(page, 'template-kind-url'), 'the arrow keys did not pick the URL source');
		await typeInto(page, 'template-url', ctx.app.tokenizerConfigUrl(TEMPLATE_FILE));
		await tabTo(page, 'check-template');
		await page.keyboard.press('Enter');
		await page
			.getByTestId('template-status')
			.getByText('<|im_start|>user')
			.waitFor({ timeout: UI_TIMEOUT_MS });

		await typeInto(page, 'n-items', '2');
		await typeInto(page, 'temperatures', '0');
		await typeInto(page, 'samples', '1');
		await tabTo(page, 'start-run');
		await page.keyboard.press('Enter');
		await page.waitForURL(/#\/run\/[^/?]+/, { timeout: UI_TIMEOUT_MS });
		const runId = decodeURIComponent(/#\/run\/([^/?]+)/.exec(page.url())?.[1] ?? '');
		const stored = await waitForDone(page, runId, 1);
		await tabTo(page, 'results-link');
		await page.keyboard.press('Enter');
		await page.waitForURL(/#\/results\//, { timeout: UI_TIMEOUT_MS });
		await page.getByTestId('results-table').waitFor({ timeout: UI_TIMEOUT_MS });
		ctx.note(`run ${runId}: ${stored.records} records, set up and opened by keyboard only`);
	}
};
