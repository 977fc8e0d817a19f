/**
 * A whole run from the set-up view to the charts: OpenAI engine against the mock server, demo
 * dataset, 16 records, hybrid judge; the results view shows rates, drawn charts and sample rows.
 */
import { canvasHasInk, need, openView, readRate } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';

const CHARTS = ['chart-followup-temp', 'chart-labels', 'chart-acc-followup', 'chart-paired'];

export const fullRun: Scenario<E2EContext> = {
	id: 'full-run',
	title: 'set-up → run → results: 16 records, rates, charts drawn, sample rows',
	timeoutMs: 90_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const started = Date.now();
		const { runId, planned, stored, mock } = await completeRun(ctx, page);
		ctx.note(`run ${runId}: ${stored.records} records in ${Date.now() - started} ms`);
		check(stored.records === planned, `stored ${stored.records} records, planned ${planned}`);
		check(stored.distinctKeys === planned, `stored ${stored.distinctKeys} distinct keys`);
		check(
			mock.requests.some((r) => r.path === '/v1/completions'),
			'the mock server never got a completion request'
		);

		await openView(page, ctx.app.url, `#/results/${encodeURIComponent(runId)}`);
		const v = 'results';
		await need(page, v, 'results-table');
		const followup = readRate(await (await need(page, v, 'followup-rate')).innerText());
		const accuracy = readRate(await (await need(page, v, 'accuracy-rate')).innerText());
		check(followup !== null && followup >= 0 && followup <= 100, `follow-up rate unreadable`);
		check(accuracy !== null && accuracy >= 0 && accuracy <= 100, `accuracy rate unreadable`);
		for (const id of CHARTS) {
			const chart = await need(page, v, id);
			const canvas =
				(await chart.evaluate((e) => e.tagName)) === 'CANVAS'
					? chart
					: chart.locator('canvas').first();
			check((await canvas.count()) > 0, `results view: ${id} has no <canvas>`);
			// Chart.js animates in; give it a moment to put ink down.
			let inked = false;
			for (let i = 0; i < 20 && !inked; i++) {
				inked = await canvasHasInk(canvas);
				if (!inked) await page.waitForTimeout(100);
			}
			check(inked, `results view: ${id} canvas is blank`);
		}
		const rows = await page.getByTestId('sample-row').count();
		check(rows > 0, 'results view: no sample rows');
		ctx.note(`follow-up ${followup}%, accuracy ${accuracy}%, ${rows} sample rows`);
		await ctx.screenshot(page, 'results-full-run');
	}
};
