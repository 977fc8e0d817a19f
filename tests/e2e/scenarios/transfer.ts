/**
 * Export a finished run (JSONL + manifest), import both files into a fresh browser profile: the
 * imported run has the same records and the results view shows the same table and rates.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import { RESULTS_DIR, type E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRun } from '../idb.ts';

export const DOWNLOADS_DIR = join(RESULTS_DIR, 'downloads');

interface ResultsSnapshot {
	table: string;
	rows: number;
	followup: string;
	accuracy: string;
	samples: string;
}

async function snapshot(page: Page, appUrl: string, runId: string): Promise<ResultsSnapshot> {
	await openView(page, appUrl, `#/results/${encodeURIComponent(runId)}`);
	const text = async (id: string) => (await need(page, 'results', id)).innerText();
	return {
		table: await text('results-table'),
		rows: await page.getByTestId('results-row').count(),
		followup: await text('followup-rate'),
		accuracy: await text('accuracy-rate'),
		samples: await text('sample-count')
	};
}

/** Click an export control (inside the run's row when it has one) and save what it downloads. */
export async function download(page: Page, row: Locator, testId: string): Promise<string> {
	const inRow = row.getByTestId(testId);
	const button = (await inRow.count()) > 0 ? inRow.first() : await need(page, 'runs', testId);
	const pending = page.waitForEvent('download', { timeout: UI_TIMEOUT_MS });
	await button.click();
	let file;
	try {
		file = await pending;
	} catch {
		throw new E2EFailure(`runs view: ${testId} started no download`);
	}
	const path = join(DOWNLOADS_DIR, file.suggestedFilename());
	await file.saveAs(path);
	return path;
}

export const transfer: Scenario<E2EContext> = {
	id: 'export-import',
	title: 'export JSONL + manifest, import into a fresh profile: same records, table and rates',
	timeoutMs: 120_000,
	async run(ctx) {
		mkdirSync(DOWNLOADS_DIR, { recursive: true });
		const source = await ctx.freshProfile();
		const { runId, planned } = await completeRun(ctx, source.page);
		const before = await snapshot(source.page, ctx.app.url, runId);
		check(before.rows === 4, `results table has ${before.rows} condition rows before export`);

		await openView(source.page, ctx.app.url, '#/runs');
		await need(source.page, 'runs', 'runs-table');
		const row = source.page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
		const jsonl = await download(source.page, row, 'export-jsonl');
		const manifest = await download(source.page, row, 'export-manifest');
		const csv = await download(source.page, row, 'export-csv');
		const lines = readFileSync(jsonl, 'utf8')
			.split('\n')
			.filter((l) => l.trim() !== '');
		check(
			lines.length >= planned,
			`the JSONL export has ${lines.length} lines for ${planned} records`
		);
		const header = readFileSync(csv, 'utf8').split('\n')[0];
		check(
			/\bkey\b/.test(header) && /user_turn/.test(header),
			`the CSV header lacks key/user_turn: ${header}`
		);
		ctx.note(`exported ${[jsonl, manifest, csv].map((p) => basename(p)).join(', ')}`);

		const target = await ctx.freshProfile();
		await openView(target.page, ctx.app.url, '#/runs');
		const input = target.page.getByTestId('import-files').first();
		check((await input.count()) > 0, 'runs view: no [data-testid="import-files"]');
		await input.setInputFiles([jsonl, manifest]);
		const imported = target.page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
		try {
			await imported.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		} catch {
			const error = await target.page.getByTestId('import-error').allInnerTexts();
			throw new E2EFailure(
				`runs view: imported run ${runId} not listed; import-error: ${error.join(' | ') || '(none)'}`
			);
		}
		const stored = await storedRun(target.page, runId);
		check(stored?.records === planned, `imported ${stored?.records} records, expected ${planned}`);
		check(stored.status === 'done', `imported run has status ${stored.status}`);

		const after = await snapshot(target.page, ctx.app.url, runId);
		check(
			after.table === before.table,
			`per-condition table differs after import:\n--- before\n${before.table}\n--- after\n${after.table}`
		);
		check(
			after.followup === before.followup,
			`follow-up rate differs: "${before.followup}" vs "${after.followup}"`
		);
		check(
			after.accuracy === before.accuracy,
			`accuracy differs: "${before.accuracy}" vs "${after.accuracy}"`
		);
	}
};
