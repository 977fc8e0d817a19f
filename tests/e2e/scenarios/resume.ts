/**
 * Reload mid-run, then Resume: the run ends with exactly the planned records, none twice, none
 * lost, as counted by the UI and by IndexedDB itself; records stored before the reload are kept
 * as they were, not made again.
 */
import { need, openView, UI_TIMEOUT_MS, waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { startFreshRun } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { checkResumed, reloadMidRun } from '../runChecks.ts';

/** Slow enough that a 16-record run takes seconds, so a reload lands in the middle. */
const TOKEN_DELAY_MS = 60;

export const resume: Scenario<E2EContext> = {
	id: 'resume',
	title: 'reload mid-run, Resume: exactly the planned records, no duplicates, nothing lost',
	timeoutMs: 120_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const { runId, planned, mock } = await startFreshRun(ctx, page, {
			tokenDelayMs: TOKEN_DELAY_MS
		});

		const { after, kept } = await reloadMidRun(page, runId, {
			planned,
			atLeast: 2,
			timeoutMs: 30_000,
			intervalMs: 50,
			reload: () => page.reload().then(() => undefined)
		});
		ctx.note(`reloaded with ${after.records}/${planned} stored (status ${after.status})`);

		// The reloaded run view says what is stored and that Resume makes only the rest.
		const counts = await (await need(page, 'run', 'stored-counts')).innerText();
		check(
			new RegExp(`of ${planned} user turns`).test(counts),
			`run view after reload: stored counts read "${counts}"`
		);
		const requestsAtReload = mock.requests.length;

		// Come back to it from the runs list, the way a person would.
		await openView(page, ctx.app.url, '#/runs');
		const row = page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
		await (await need(row, 'runs', 'resume-link')).click();
		await page.waitForURL(new RegExp(`#/run/${runId}`), { timeout: UI_TIMEOUT_MS });
		const resumeButton = page.getByTestId('resume-run');
		try {
			await resumeButton.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		} catch {
			throw new E2EFailure(`run view: no Resume button for ${runId} after a reload`);
		}
		await resumeButton.click();
		const done = await waitForDone(page, runId, planned, 90_000);
		await checkResumed(page, done, planned, kept);
		check(done.labelled === planned, `after resume: ${done.labelled} of ${planned} labelled`);
		check(mock.requests.length > requestsAtReload, 'Resume sent no requests to the server');

		// The UI's counts: the run view and the runs list both say exactly `planned`.
		await need(page, 'run', 'results-link');
		const runCounts = (await page.getByTestId('run-counts').textContent())?.trim();
		check(runCounts === `${planned}/${planned}`, `run view counts read "${runCounts}"`);
		await openView(page, ctx.app.url, '#/runs');
		// The list shows "…" until its count query answers; wait for the number, not a race.
		const cell = row.locator('td.num').first();
		let records = '…';
		for (let waited = 0; waited < 10_000 && records === '…'; waited += 100) {
			records = (await cell.innerText()).trim();
			if (records === '…') await page.waitForTimeout(100);
		}
		check(
			records === String(planned),
			`runs view: the row shows ${records} records, planned ${planned}`
		);
		const status = await row.locator('[data-status]').first().getAttribute('data-status');
		check(status === 'done', `runs view: the row's status is ${status}`);
	}
};
