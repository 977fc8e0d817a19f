/**
 * A class pools its labels: the teacher shares the run file (human labels left out, so students
 * label blind), two students each import it in their own browser, label the same draw and export
 * their labels alone; the teacher merges both files into the one run, and κ is computed between
 * the two students.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { need, openView } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';
import { annotate, kappaRows, PER_ANNOTATOR } from './annotate.ts';
import { download, DOWNLOADS_DIR } from './transfer.ts';

const rowOf = (page: Page, runId: string) =>
	page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);

async function importFile(page: Page, appUrl: string, path: string): Promise<void> {
	await openView(page, appUrl, '#/runs');
	await need(page, 'runs', 'import-files');
	await page.getByTestId('import-files').setInputFiles(path);
}

export const pooledLabels: Scenario<E2EContext> = {
	id: 'pooled-labels',
	title: "two students' labels merge into the teacher's run and κ is computed between them",
	timeoutMs: 180_000,
	async run(ctx) {
		mkdirSync(DOWNLOADS_DIR, { recursive: true });
		const teacher = await ctx.freshProfile();
		const { runId } = await completeRun(ctx, teacher.page);
		// The teacher labels too: the share file must still go out without these labels.
		await annotate(teacher.page, ctx, runId, 'teacher', [0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
		await openView(teacher.page, ctx.app.url, '#/runs');
		await need(teacher.page, 'runs', 'runs-table');
		const share = await download(teacher.page, rowOf(teacher.page, runId), 'export-run');
		check(
			!readFileSync(share, 'utf8').includes('"annotator"'),
			'the share file carries human labels though nobody asked for them'
		);

		const files: string[] = [];
		for (const [name, pattern] of [
			['ana', [0, 0, 1, 2, 0, 3, 0, 1, 4, 0]],
			['ben', [0, 1, 1, 2, 0, 3, 0, 0, 4, 1]]
		] as const) {
			const student = await ctx.freshProfile();
			await importFile(student.page, ctx.app.url, share);
			await need(student.page, 'runs', 'runs-table');
			await rowOf(student.page, runId).waitFor();
			await annotate(student.page, ctx, runId, name, [...pattern]);
			await openView(student.page, ctx.app.url, '#/runs');
			await need(student.page, 'runs', 'runs-table');
			const path = await download(student.page, rowOf(student.page, runId), 'export-labels');
			const lines = readFileSync(path, 'utf8').trim().split('\n');
			check(
				lines.length === PER_ANNOTATOR + 1,
				`${name}'s labels file has ${lines.length} lines, expected a header and ${PER_ANNOTATOR} labels`
			);
			// Both students' files carry the run's name: keep each under its own.
			const own = join(DOWNLOADS_DIR, `${name}.labels.jsonl`);
			copyFileSync(path, own);
			files.push(own);
		}

		for (const path of files) {
			await importFile(teacher.page, ctx.app.url, path);
			const merged = await need(teacher.page, 'runs', 'labels-merged');
			const text = await merged.innerText();
			check(
				new RegExp(`Merged ${PER_ANNOTATOR} labels by (ana|ben)`).test(text),
				`after importing ${path}: "${text}"`
			);
		}
		const rows = await kappaRows(teacher.page, ctx, runId);
		ctx.note(`κ rows: ${rows.map((r) => `${r.pair} n=${r.n} κ=${r.kappa}`).join('; ')}`);
		const students = rows.find((r) => /ana/.test(r.pair) && /ben/.test(r.pair));
		check(students, `no κ row for ana and ben (pairs: ${rows.map((r) => r.pair).join(', ')})`);
		check(
			students.n === String(PER_ANNOTATOR),
			`ana–ben κ over ${students.n} items, expected ${PER_ANNOTATOR}`
		);
		check(/\d/.test(students.kappa), `ana–ben κ shows no number: "${students.kappa}"`);
		check(
			rows.some((r) => /teacher/.test(r.pair) && /ana/.test(r.pair)),
			'the teacher–student κ row is missing'
		);
	}
};
