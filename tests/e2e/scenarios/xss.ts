/**
 * Model text is data, never markup: with the 'xss' script every answer, user turn and judge
 * rationale is `<script>…</script><img src=x onerror=…>`. No dialog may fire, no such element may
 * appear in the DOM, and the literal text must be visible.
 */
import type { Page } from 'playwright-core';
import { XSS_TEXT } from '../../helpers/mockScripts.ts';
import { need, openView, playgroundGenerate } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';

const SCRIPT_LITERAL = '<script>alert(1)</script>';
const IMG_LITERAL = '<img src=x onerror=alert(1)>';

interface Injected {
	imgs: number;
	handlers: number;
	scripts: number;
	literal: boolean;
}

async function inspect(page: Page): Promise<Injected> {
	// Injected markup would have had its chance to run by now.
	await page.waitForTimeout(300);
	return page.evaluate(
		([script, img]) => ({
			imgs: document.querySelectorAll('img[src="x"], img[onerror]').length,
			handlers: document.querySelectorAll('[onerror], [onload]').length,
			scripts: Array.from(document.scripts).filter((s) => s.text.includes('alert(1)')).length,
			literal: document.body.innerText.includes(script) || document.body.innerText.includes(img)
		}),
		[SCRIPT_LITERAL, IMG_LITERAL]
	);
}

export const xss: Scenario<E2EContext> = {
	id: 'xss',
	title: 'hostile model text (<script>, <img onerror>) stays inert and shows as text',
	timeoutMs: 60_000,
	async run(ctx) {
		const { page, watch } = await ctx.profile();
		check(
			XSS_TEXT.includes(SCRIPT_LITERAL) && XSS_TEXT.includes(IMG_LITERAL),
			'the xss script changed'
		);
		const plan = {
			items: 2,
			temperatures: [0, 1],
			truncate: false,
			samples: 1,
			judgeMode: 'llm'
		} as const;
		const { runId } = await completeRun(ctx, page, { script: 'xss', plan });
		const id = encodeURIComponent(runId);
		const expectInert = async (where: string, visible: boolean) => {
			const seen = await inspect(page);
			check(seen.imgs === 0, `${where}: ${seen.imgs} injected <img> element(s)`);
			check(
				seen.handlers === 0,
				`${where}: ${seen.handlers} element(s) with inline onerror/onload`
			);
			check(seen.scripts === 0, `${where}: ${seen.scripts} injected <script> element(s)`);
			if (visible)
				check(seen.literal, `${where}: the model's literal markup is not visible as text`);
		};
		for (const hash of [`#/run/${id}`, `#/results/${id}`, '#/runs']) {
			await openView(page, ctx.app.url, hash);
			await expectInert(hash, hash !== '#/runs');
		}
		// A sample opened in full: the most likely place for an {@html}.
		await openView(page, ctx.app.url, `#/results/${id}`);
		await (await need(page, 'results', 'sample-row')).click();
		await need(page, 'results', 'sample-detail');
		await expectInert('results sample detail', true);
		// The annotation item shows the same texts, blind.
		await openView(page, ctx.app.url, `#/annotate/${id}`);
		await need(page, 'annotate', 'annotator-name');
		await page.keyboard.type('xss-check');
		await page.keyboard.press('Enter');
		await need(page, 'annotate', 'annotate-item');
		await expectInert('annotate item', true);
		// The playground streams model text live, through the same server.
		await openView(page, ctx.app.url, '#/playground');
		await playgroundGenerate(page, 2);
		await expectInert('playground output', true);
		await openView(page, ctx.app.url, `#/results/${id}`);
		check(watch.dialogs.length === 0, `dialogs fired: ${watch.dialogs.join(' | ')}`);
		await ctx.screenshot(page, 'results-xss');
	}
};
