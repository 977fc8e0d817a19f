/**
 * Issue 5: label 10 records with the keyboard only and watch the κ table change; a second
 * annotator on overlapping items adds a human–human κ row.
 */
import type { Page } from 'playwright-core';
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';

const PER_ANNOTATOR = 10;
const V = 'annotate';

/** The label keys the help lists ("1 genuine_followup …"); falls back to 1–6. */
async function labelKeys(page: Page): Promise<string[]> {
	const help = await (await need(page, V, 'label-help')).innerText();
	const keys = [...new Set(help.match(/\b[1-9]\b/g) ?? [])];
	return keys.length >= 2 ? keys : ['1', '2', '3', '4', '5', '6'];
}

/** Start as `name` and label PER_ANNOTATOR items by key presses alone. */
async function annotate(
	page: Page,
	ctx: E2EContext,
	runId: string,
	name: string,
	pattern: number[]
): Promise<void> {
	await openView(page, ctx.app.url, `#/annotate/${encodeURIComponent(runId)}`);
	await (await need(page, V, 'annotator-name')).fill(name);
	await (await need(page, V, 'annotate-start')).click();
	await need(page, V, 'annotate-item');
	const keys = await labelKeys(page);
	const progress = await need(page, V, 'annotate-progress');
	for (let i = 0; i < PER_ANNOTATOR; i++) {
		const before = await progress.innerText();
		await page.keyboard.press(keys[pattern[i % pattern.length] % keys.length]);
		try {
			await page.waitForFunction(
				([el, text]) => (el as HTMLElement).innerText !== text,
				[await progress.elementHandle(), before] as const,
				{ timeout: UI_TIMEOUT_MS }
			);
		} catch {
			throw new E2EFailure(
				`annotate view: progress stayed "${before}" after key press ${i + 1} as ${name}`
			);
		}
	}
	ctx.note(`${name}: progress "${await progress.innerText()}" after ${PER_ANNOTATOR} key presses`);
}

export const annotation: Scenario<E2EContext> = {
	id: 'annotate',
	title: 'keyboard-only labelling updates κ; two annotators give a human–human κ row',
	timeoutMs: 120_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const { runId } = await completeRun(ctx, page);
		await openView(page, ctx.app.url, `#/annotate/${encodeURIComponent(runId)}`);
		const kappaBefore = await page.getByTestId('kappa-table').allInnerTexts();

		await annotate(page, ctx, runId, 'alice', [0, 0, 1, 2, 0, 3, 0, 1, 4, 0]);
		const table = await need(page, V, 'kappa-table');
		const kappaAlice = await table.innerText();
		check(
			kappaAlice !== kappaBefore.join(''),
			'annotate view: the κ table did not change after 10 labels'
		);
		check(
			(await page.getByTestId('kappa-row').count()) > 0,
			'annotate view: no κ rows after 10 labels'
		);
		await need(page, V, 'confusion-matrix');
		await ctx.screenshot(page, 'annotate-alice');

		await annotate(page, ctx, runId, 'bob', [0, 1, 1, 2, 0, 3, 0, 0, 4, 1]);
		const pairs = await page
			.getByTestId('kappa-row')
			.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-pair') ?? ''));
		ctx.note(`κ rows: ${pairs.join(', ')}`);
		check(
			pairs.some((p) => /alice/i.test(p) && /bob/i.test(p)),
			`annotate view: no human–human κ row for alice and bob (data-pair values: ${pairs.join(', ') || 'none'})`
		);
		await need(page, V, 'disagreements');
		await ctx.screenshot(page, 'annotate-two-annotators');
	}
};
