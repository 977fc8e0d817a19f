/**
 * Reload mid-run, then Resume: the run ends with exactly the planned records, none twice, none
 * lost, as counted by the UI and by IndexedDB itself.
 */
import { configureRun, need, openView, startRun, UI_TIMEOUT_MS, waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { plannedRecords, SMALL_PLAN, templateSource } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { pollRun, storedRun } from '../idb.ts';

/** Slow enough that a 16-record run takes seconds, so a reload lands in the middle. */
const TOKEN_DELAY_MS = 60;

export const resume: Scenario<E2EContext> = {
	id: 'resume',
	title: 'reload mid-run, Resume: exactly the planned records, no duplicates, nothing lost',
	timeoutMs: 120_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		const mock = await ctx.mock('probe', { tokenDelayMs: TOKEN_DELAY_MS });
		const planned = plannedRecords(SMALL_PLAN);
		await openView(page, ctx.app.url, '#/setup');
		await configureRun(page, {
			...SMALL_PLAN,
			mock,
			template: templateSource(ctx)
		});
		const runId = await startRun(page);

		const midway = await pollRun(page, runId, (r) => r.records >= 2, 30_000, 50);
		check(
			midway && midway.records >= 2,
			`no records stored within 30 s (${JSON.stringify(midway)})`
		);
		check(
			midway.records < planned,
			`the run finished before the reload (${midway.records} records); slow the mock more`
		);
		await page.reload();
		const after = await storedRun(page, runId);
		ctx.note(
			`reloaded with ${midway.records}/${planned} stored; after reload ${after?.records} stored, status ${after?.status}`
		);
		check(after && after.records >= midway.records, 'records stored before the reload were lost');
		const requestsAtReload = mock.requests.length;

		// Open the run from the runs list, the way a person comes back to it.
		await openView(page, ctx.app.url, '#/runs');
		const row = page.getByTestId('run-row').filter({ hasText: runId });
		if ((await row.count()) > 0) await row.first().click();
		else await openView(page, ctx.app.url, `#/run/${encodeURIComponent(runId)}`);
		const resumeButton = page
			.getByTestId('resume-run')
			.or(page.getByRole('button', { name: /resume/i }))
			.first();
		try {
			await resumeButton.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		} catch {
			throw new E2EFailure(
				`run view: no Resume button for ${runId} after a reload (url ${page.url()})`
			);
		}
		await resumeButton.click();
		const done = await waitForDone(page, runId, planned, 90_000);
		check(
			done.records === planned,
			`after resume: ${done.records} records stored, planned ${planned}`
		);
		check(
			done.distinctKeys === planned,
			`after resume: ${done.distinctKeys} distinct keys of ${planned}`
		);
		check(done.labelled === planned, `after resume: ${done.labelled} of ${planned} labelled`);
		check(mock.requests.length > requestsAtReload, 'Resume sent no requests to the server');

		// The UI's count: the runs list row for this run shows the planned total.
		await openView(page, ctx.app.url, '#/runs');
		await need(page, 'runs', 'runs-table');
		const rowText = await page
			.getByTestId('run-row')
			.filter({ hasText: runId })
			.first()
			.innerText();
		check(
			new RegExp(`\\b${planned}\\b`).test(rowText),
			`runs view: the row for ${runId} does not show ${planned} records: "${rowText}"`
		);
	}
};
