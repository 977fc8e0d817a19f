/**
 * A full-page screenshot of every view, with real data in it, kept under
 * test-results/screenshots/view-*.png for people to look at (and CI to keep as artifacts).
 */
import { statSync } from 'node:fs';
import { configureRun, need, openView, playgroundGenerate, startRun, waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { plannedRecords, SMALL_PLAN, templateSource } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';
import { pollRun } from '../idb.ts';

/** A PNG this small is a blank page. */
const MIN_PNG_BYTES = 8_000;

export const screenshots: Scenario<E2EContext> = {
	id: 'screenshots',
	title: 'a screenshot of every view (setup, run, results, runs, playground, annotate)',
	timeoutMs: 90_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const shots: string[] = [];
		const shoot = async (name: string) => shots.push(await ctx.screenshot(page, `view-${name}`));
		const mock = await ctx.mock('probe', { tokenDelayMs: 20 });

		await openView(page, ctx.app.url, '#/setup');
		await page.waitForTimeout(500); // the capability panel answers asynchronously
		await shoot('setup');
		await configureRun(page, {
			...SMALL_PLAN,
			mock,
			template: templateSource(ctx)
		});
		await shoot('setup-filled');
		const runId = await startRun(page);
		await pollRun(page, runId, (r) => r.records >= 3, 30_000, 50);
		await shoot('run-live');
		await waitForDone(page, runId, plannedRecords(SMALL_PLAN));
		await page.waitForTimeout(300);
		await shoot('run');

		const id = encodeURIComponent(runId);
		await openView(page, ctx.app.url, `#/results/${id}`);
		await page.waitForTimeout(1_500); // the full records and paired intervals follow the first paint
		await shoot('results');
		await (await need(page, 'results', 'sample-row')).click();
		await need(page, 'results', 'sample-detail');
		await shoot('results-sample');
		await openView(page, ctx.app.url, '#/runs');
		await need(page, 'runs', 'runs-table');
		await shoot('runs');
		await openView(page, ctx.app.url, '#/playground');
		await shoot('playground');
		await playgroundGenerate(page, 3);
		await shoot('playground-generated');
		await openView(page, ctx.app.url, `#/annotate/${id}`);
		await need(page, 'annotate', 'annotator-name');
		await shoot('annotate-start');
		await page.keyboard.type('screenshot');
		await page.keyboard.press('Enter');
		await need(page, 'annotate', 'annotate-item');
		for (const key of ['1', '3', '4']) await page.keyboard.press(key);
		await shoot('annotate');
		await openView(page, ctx.app.url, `#/annotate/${id}?tab=agreement`);
		await need(page, 'annotate', 'kappa-table');
		await shoot('annotate-agreement');
		for (const path of shots) {
			const bytes = statSync(path).size;
			check(bytes >= MIN_PNG_BYTES, `${path} is only ${bytes} bytes: a blank page?`);
		}
		ctx.note(`${shots.length} screenshots in test-results/screenshots/`);
	}
};
