/**
 * A researcher's sweep from the command line opens in the app as one study, from files alone: the
 * CLI runs three models against the mock server (a shipped template, the offline demo dataset),
 * then its OUT.study.jsonl is imported on the Runs page of one browser, and its nine run files
 * (records, manifest and answers per model) are picked together in another. Both open one study of
 * three runs whose table has, row for row, the counts `summarize` prints for the same files
 * (tests/unit/cli/sweep.test.ts checks that summarize reads the two forms alike).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import type { Study } from '../../../src/lib/results/study.ts';
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import { RESULTS_DIR, type E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRuns } from '../idb.ts';

const BIN = fileURLToPath(new URL('../../../bin/user-turn-probe.js', import.meta.url));
const MODELS = ['sweep-a', 'sweep-b', 'sweep-c'];
const run = promisify(execFile);

/** `user-turn-probe ARGS` in `cwd`, as a user types it; its output, or a failure naming it. */
async function cli(cwd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
	try {
		return await run('node', [BIN, ...args], { cwd, timeout: 120_000 });
	} catch (e) {
		const err = e as { stderr?: string; message: string };
		throw new E2EFailure(`user-turn-probe ${args[0]} failed: ${err.stderr || err.message}`);
	}
}

/** A study row's counts as the study table shows them and as `summarize --json` gives them. */
type RowCounts = string[];

const countsOf = (s: Study): RowCounts[] =>
	s.rows.map((r) => [
		r.model,
		String(r.temperature),
		r.perturbation,
		String(r.n),
		`${r.accuracy.k}/${r.accuracy.n}`,
		r.followup ? `${r.followup.k}/${r.followup.n}` : 'no rate'
	]);

/**
 * The study table's rows, the same cells: the model and condition by their column heads, the
 * counts from each row's "More" fold (dt/dd by name), where the table keeps them.
 */
async function tableCounts(page: Page): Promise<RowCounts[]> {
	const table = page.getByTestId('study-table');
	const heads = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
	const col = (head: string) => {
		const i = heads.indexOf(head);
		if (i < 0)
			throw new E2EFailure(`the study table has no column "${head}" (${heads.join(' | ')})`);
		return i;
	};
	const wanted = ['Model', 'Temperature', 'Perturbation'].map(col);
	const folded = ['Turns', 'Items', 'Genuine / with verdict'];
	const rows = await page.getByTestId('study-row').all();
	const out: RowCounts[] = [];
	for (const row of rows) {
		const cells = (await row.locator('th, td').allInnerTexts()).map((c) => c.trim());
		const more = row.getByRole('button', { name: /^More/ });
		if ((await more.getAttribute('aria-expanded')) !== 'true') await more.click();
		const foldId = await more.getAttribute('aria-controls');
		const named = await page
			.locator(`[id="${foldId}"] dl > div`)
			.evaluateAll((divs) =>
				Object.fromEntries(
					divs.map((d) => [
						d.querySelector('dt')?.textContent?.trim() ?? '',
						d.querySelector('dd')?.textContent?.trim() ?? ''
					])
				)
			);
		for (const name of folded)
			if (!(name in named))
				throw new E2EFailure(
					`a study row's More has no "${name}" (${Object.keys(named).join(' | ')})`
				);
		out.push([...wanted.map((i) => cells[i]), ...folded.map((name) => named[name])]);
	}
	return out;
}

/** Picks `files` on the Runs page of a new browser profile and waits for the study to open. */
async function importAsStudy(ctx: E2EContext, files: string[], what: string): Promise<Page> {
	const { page } = await ctx.profile();
	await openView(page, ctx.app.url, '#/runs');
	await (await need(page, 'runs', 'import-files')).setInputFiles(files);
	try {
		// A study imported opens by itself, as a study file's import does.
		await page.waitForURL(/#\/study\?runs=/, { timeout: UI_TIMEOUT_MS });
		await page.getByTestId('study-row').first().waitFor({ timeout: UI_TIMEOUT_MS });
	} catch {
		const error = await page.getByTestId('import-error').allInnerTexts();
		throw new E2EFailure(`importing ${what} opened no study: ${error.join(' | ') || page.url()}`);
	}
	return page;
}

export const cliStudy: Scenario<E2EContext> = {
	id: 'cli-study',
	title:
		'a 3-model CLI sweep opens as one study from its .study.jsonl and from its run files, with summarize’s numbers',
	timeoutMs: 180_000,
	async run(ctx) {
		const mock = await ctx.mock('probe', { models: [...MODELS, 'judge'] });
		mkdirSync(RESULTS_DIR, { recursive: true });
		const dir = mkdtempSync(join(RESULTS_DIR, 'cli-study-'));
		const t0 = Date.now();
		const swept = await cli(dir, [
			'run',
			...['--base-url', mock.url, '--model', MODELS.join(','), '--judge-model', 'judge'],
			...['--template', 'Qwen/Qwen2.5-0.5B-Instruct', '--dataset', 'demo', '--limit', '4'],
			...['--temperatures', '0,1', '--perturbations', 'none,truncate', '--out', 'runs/sweep.jsonl']
		]);
		check(
			/sweep\.study\.jsonl \(all of them in one file/.test(swept.stderr),
			`the sweep does not name its one-file study:\n${swept.stderr.slice(-400)}`
		);
		const runs = join(dir, 'runs');
		const studyFile = join(runs, 'sweep.study.jsonl');
		const runFiles = readdirSync(runs)
			.filter((f) => !f.includes('.study.'))
			.map((f) => join(runs, f));
		check(runFiles.length === 9, `the sweep wrote ${runFiles.length} run files, expected 9`);
		const summary = JSON.parse(
			(await cli(dir, ['summarize', '--json', studyFile])).stdout
		) as Study;
		const expected = countsOf(summary);
		ctx.note(`the CLI's sweep and summarize took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
		check(expected.length === 3 * 4, `summarize has ${expected.length} rows, expected 12`);
		check(
			summary.rows.some((r) => (r.followup?.n ?? 0) > 0 && r.accuracy.n > 0),
			'the sweep labelled and scored nothing'
		);

		for (const [what, files] of [
			['sweep.study.jsonl', [studyFile]],
			['the nine run files', runFiles]
		] as const) {
			const page = await importAsStudy(ctx, [...files], what);
			const stored = await storedRuns(page);
			check(stored.length === 3, `${what}: ${stored.length} runs stored, expected 3`);
			const shown = await tableCounts(page);
			const differ = expected.filter((row, i) => JSON.stringify(row) !== JSON.stringify(shown[i]));
			check(
				shown.length === expected.length && differ.length === 0,
				`${what}: the study table differs from summarize:\n app ${JSON.stringify(shown)}\n cli ${JSON.stringify(expected)}`
			);
			ctx.note(`${what}: one study of 3 runs, ${shown.length} rows equal to summarize's`);
		}
	}
};
