/**
 * Issue 5: label 10 records with the keyboard only and watch the κ table change; a second
 * annotator (another tab: the annotator name lives in sessionStorage) on the same draw adds a
 * human–human κ row.
 */
import type { Page } from 'playwright-core';
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';

export const PER_ANNOTATOR = 10;
const V = 'annotate';

interface KappaRow {
	pair: string;
	n: string;
	kappa: string;
}

/** The agreement tab's κ rows (opened by its link, the way a person gets there). */
export async function kappaRows(page: Page, ctx: E2EContext, runId: string): Promise<KappaRow[]> {
	await openView(page, ctx.app.url, `#/annotate/${encodeURIComponent(runId)}?tab=agreement`);
	await need(page, V, 'kappa-table');
	return page.getByTestId('kappa-row').evaluateAll((rows) =>
		rows.map((r) => ({
			pair: r.getAttribute('data-pair') ?? '',
			n: r.querySelector('[data-col="n"]')?.textContent?.trim() ?? '',
			kappa: r.querySelector('[data-col="kappa"]')?.textContent?.trim() ?? ''
		}))
	);
}

/**
 * Type a name, press Enter, open the guide with "?" to learn the label keys, then label
 * PER_ANNOTATOR items by key presses alone.
 */
export async function annotate(
	page: Page,
	ctx: E2EContext,
	runId: string,
	name: string,
	pattern: number[]
): Promise<void> {
	await openView(page, ctx.app.url, `#/annotate/${encodeURIComponent(runId)}`);
	await need(page, V, 'annotator-name');
	await page.keyboard.type(name);
	await page.keyboard.press('Enter');
	const progress = await need(page, V, 'annotate-progress');
	await need(page, V, 'annotate-item');
	await page.keyboard.press('?');
	const help = await need(page, V, 'label-help');
	const keys = (await help.locator('dt kbd').allInnerTexts()).map((k) => k.trim());
	check(keys.length >= 6, `the label guide lists ${keys.length} label keys: ${keys.join(' ')}`);
	await page.keyboard.press('?');
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
	const done = await progress.innerText();
	check(
		done.startsWith(`${PER_ANNOTATOR} of`),
		`${name}: progress reads "${done}" after ${PER_ANNOTATOR} labels`
	);
}

export const annotation: Scenario<E2EContext> = {
	id: 'annotate',
	title: 'keyboard-only labelling updates κ; two annotators give a human–human κ row',
	timeoutMs: 120_000,
	async run(ctx) {
		const { page, context } = await ctx.profile();
		const { runId } = await completeRun(ctx, page);
		const before = await kappaRows(page, ctx, runId);

		await annotate(page, ctx, runId, 'alice', [0, 0, 1, 2, 0, 3, 0, 1, 4, 0]);
		const afterAlice = await kappaRows(page, ctx, runId);
		const alice = afterAlice.filter((r) => /alice/.test(r.pair));
		check(
			alice.length > 0,
			`no κ row with alice after 10 labels (before: ${JSON.stringify(before)})`
		);
		// The LLM judge only saw the turns the rules left open (hybrid), so its pair may count fewer.
		const counts = alice.map((r) => Number(r.n));
		check(
			Math.max(...counts) === PER_ANNOTATOR && counts.every((n) => n > 0 && n <= PER_ANNOTATOR),
			`alice's κ rows should count up to ${PER_ANNOTATOR} items: ${JSON.stringify(alice)}`
		);
		check(JSON.stringify(afterAlice) !== JSON.stringify(before), 'the κ table did not change');
		await need(page, V, 'confusion-matrix');
		await ctx.screenshot(page, 'annotate-agreement-alice');

		// Another tab is another sitting: it asks for a name and draws the same items.
		const second = await context.newPage();
		await annotate(second, ctx, runId, 'bob', [0, 1, 1, 2, 0, 3, 0, 0, 4, 1]);
		const rows = await kappaRows(second, ctx, runId);
		ctx.note(`κ rows: ${rows.map((r) => `${r.pair} n=${r.n} κ=${r.kappa}`).join('; ')}`);
		const humans = rows.find((r) => /alice/.test(r.pair) && /bob/.test(r.pair));
		check(
			humans,
			`no human–human κ row for alice and bob (pairs: ${rows.map((r) => r.pair).join(', ')})`
		);
		check(
			humans.n === String(PER_ANNOTATOR),
			`alice–bob κ over ${humans.n} items, expected ${PER_ANNOTATOR}`
		);
		check(/\d/.test(humans.kappa), `alice–bob κ shows no number: "${humans.kappa}"`);
		await need(second, V, 'disagreements');
		await ctx.screenshot(second, 'annotate-agreement-two');
	}
};
