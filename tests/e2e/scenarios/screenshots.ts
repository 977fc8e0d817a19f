/**
 * A full-page screenshot of every view, with real data in it, kept under
 * test-results/screenshots/view-*.png for people to look at (and CI to keep as artifacts).
 */
import { statSync } from 'node:fs';
import { configureRun, openView, startRun, waitForDone } from '../app.ts';
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
		for (const [name, hash] of [
			['results', `#/results/${id}`],
			['runs', '#/runs'],
			['playground', '#/playground'],
			['annotate', `#/annotate/${id}`]
		]) {
			await openView(page, ctx.app.url, hash);
			await page.waitForTimeout(700); // charts animate in
			await shoot(name);
		}
		for (const path of shots) {
			const bytes = statSync(path).size;
			check(bytes >= MIN_PNG_BYTES, `${path} is only ${bytes} bytes: a blank page?`);
		}
		ctx.note(`${shots.length} screenshots in test-results/screenshots/`);
	}
};
