/**
 * A student on a 390 px phone: every per-condition follow-up rate and its interval is on screen
 * without sideways scrolling (measured: each cell's box lies inside the viewport while nothing is
 * scrolled), the Runs actions (Results, Export) are reachable the same way, the CPU model pickers
 * keep set-up within the width, and sample ids are shown whole. The text-change rates, two runs
 * compared and the κ table show as cards too: their numbers inside the viewport, the page no wider.
 */
import type { Locator, Page } from 'playwright-core';
import type { E2EContext } from '../context.ts';
import { need, openView, unfold } from '../app.ts';
import { completeRun } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';
import { horizontalOverflow } from '../tour.ts';

const WIDTH = 390;

/** Each box's left and right edges, and the page's width, with nothing scrolled. */
export async function boxes(
	page: Page,
	cells: Locator
): Promise<{ left: number; right: number }[]> {
	await page.evaluate(() => {
		window.scrollTo(0, 0);
		for (const el of Array.from(document.querySelectorAll('.table-scroll'))) el.scrollLeft = 0;
	});
	return cells.evaluateAll((els) =>
		els.map((el) => {
			const r = el.getBoundingClientRect();
			return { left: r.left, right: r.right };
		})
	);
}

export function inside(what: string, list: { left: number; right: number }[], width: number): void {
	check(list.length > 0, `${what}: none shown`);
	for (const [i, b] of list.entries()) {
		check(
			b.left >= 0 && b.right <= width + 0.5,
			`${what} #${i + 1} spans ${Math.round(b.left)}–${Math.round(b.right)} px of a ${width} px viewport`
		);
	}
}

/** Every cell of a card table inside the viewport, and the page no wider than the viewport. */
export async function cardsFit(page: Page, table: string, width: number): Promise<number> {
	return cellsFit(page, table, page.getByTestId(table), width);
}

/** Every body cell inside `box` within the viewport, and the page no wider than the viewport. */
export async function cellsFit(
	page: Page,
	what: string,
	box: Locator,
	width: number
): Promise<number> {
	const list = await boxes(page, box.locator('tbody td, tbody th'));
	inside(`${what} cell`, list, width);
	const o = await horizontalOverflow(page);
	check(
		o.docWidth <= o.viewport,
		`the page with ${what} is ${o.docWidth} px wide in ${o.viewport} px (${o.culprits.join(', ')})`
	);
	return Math.round(Math.max(...list.map((b) => b.right)));
}

export const phoneNumbers: Scenario<E2EContext> = {
	id: 'phone-numbers',
	title: `at ${WIDTH} px: follow-up rates, text change, compare, κ, Runs actions and sample ids on screen without sideways scrolling`,
	timeoutMs: 150_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		await page.setViewportSize({ width: WIDTH, height: 844 });
		const { runId } = await completeRun(ctx, page);
		const { runId: secondId } = await completeRun(ctx, page);
		const width = await page.evaluate(() => document.documentElement.clientWidth);

		await openView(page, ctx.app.url, `#/results/${encodeURIComponent(runId)}`);
		await need(page, 'results', 'results-table');
		await unfold(page);
		const rates = await boxes(page, page.getByTestId('results-followup'));
		inside('follow-up rate', rates, width);
		const cis = await boxes(page, page.locator('[data-testid="results-row"] td.rate'));
		inside('follow-up rate, CI or count', cis, width);

		const ids = await page
			.getByTestId('sample-row')
			.locator('.item')
			.evaluateAll((els) => els.slice(0, 5).map((el) => el.scrollWidth - el.clientWidth));
		check(ids.length > 0 && ids.every((cut) => cut <= 0), `sample ids cut by ${ids.join(', ')} px`);
		await need(page, 'results', 'text-change');
		const edges = [await cardsFit(page, 'text-change', width)];

		await openView(page, ctx.app.url, '#/runs');
		await need(page, 'runs', 'runs-table');
		const row = page.getByTestId('run-row').first();
		inside('Results link', await boxes(page, row.getByRole('link', { name: 'Results' })), width);
		inside(
			'Export buttons',
			await boxes(page, row.locator('button[data-testid^="export-"]')),
			width
		);
		for (const id of [runId, secondId]) {
			await page.getByRole('checkbox', { name: `Pick ${id} to compare or study` }).check();
		}
		await (await need(page, 'runs', 'compare')).click();
		await need(page, 'runs', 'compare-rows');
		edges.push(await cardsFit(page, 'compare-rows', width));

		await openView(page, ctx.app.url, `#/annotate/${encodeURIComponent(runId)}?tab=agreement`);
		await need(page, 'annotate', 'kappa-row');
		edges.push(await cardsFit(page, 'kappa-table', width));

		await openView(page, ctx.app.url, '#/setup');
		await (await need(page, 'setup', 'engine-cpu')).check();
		await need(page, 'setup', 'cpu-generator-model');
		const o = await horizontalOverflow(page);
		check(
			o.docWidth <= o.viewport,
			`set-up with the CPU engine is ${o.docWidth} px wide in ${o.viewport} px (${o.culprits.join(', ')})`
		);
		ctx.note(
			`${rates.length} follow-up rates, right edges ≤ ${Math.round(Math.max(...cis.map((b) => b.right)))} px of ${width}; text change, compare, κ ≤ ${edges.join(', ')} px; set-up (CPU) ${o.docWidth} px`
		);
	}
};
