/**
 * The rest of the app's tables on a 390 px phone: the charts' data tables and the paper's numbers
 * beside a GSM8K run, the judge-mode advice, the confusion matrix and its precision and recall,
 * the device benchmark's figures and earlier results, and set-up's sweep list. Each body cell's
 * box lies inside the viewport with nothing scrolled, the page is no wider than the screen, and
 * axe-core finds nothing wrong with the pages that hold them.
 */
import type { Page } from 'playwright-core';
import { readFixture } from '../../helpers/fixtures.ts';
import {
	configureRun,
	need,
	openView,
	setControl,
	startRun,
	unfold,
	uploadDataset,
	waitForDone
} from '../app.ts';
import { MOCK_MODEL, type E2EContext } from '../context.ts';
import { plannedRecords, SMALL_PLAN, templateSource } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { annotate } from './annotate.ts';
import { axeViolations } from '../tour.ts';
import { cellsFit } from './phoneNumbers.ts';

const WIDTH = 390;
const PAPER_MODEL = 'Qwen/Qwen3.5-0.8B';
const CHARTS = ['chart-followup-temp', 'chart-labels', 'chart-acc-followup', 'chart-paired'];

/** Real GSM8K items in a file whose name says GSM8K, so the paper's GSM8K numbers apply. */
function gsm8kFile(items: number) {
	const lines = readFixture('gsm8k/test.jsonl').split('\n').filter(Boolean).slice(0, items);
	return {
		name: 'gsm8k-sample.jsonl',
		mimeType: 'application/x-ndjson',
		buffer: Buffer.from(lines.join('\n') + '\n')
	};
}

/** Two stored device benchmarks (the newest shown in full, the other under "Earlier results"). */
async function seedBenchmarks(page: Page): Promise<void> {
	await page.evaluate(async () => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const req = indexedDB.open('user-turn-probe');
			req.onsuccess = () => resolve(req.result);
			req.onerror = () => reject(req.error);
		});
		const row = (created_at: string, model_id: string) => ({
			created_at,
			model_id,
			engine: 'webllm',
			device: { vendor: 'acme', architecture: 'x1', description: 'Acme Integrated Graphics' },
			results: {
				decode_tps: 41.23,
				prefill_tps: 612.4,
				ttft_ms: 231,
				records_per_minute: 5.12,
				answer_ms: 4104,
				user_turn_ms: 2310,
				load_ms: 12_040
			}
		});
		try {
			await new Promise<void>((resolve, reject) => {
				const tx = db.transaction('benchmarks', 'readwrite');
				tx.objectStore('benchmarks').add(row('2026-01-02T10:00:00Z', 'Qwen3.5-2B-q4f16_1-MLC'));
				tx.objectStore('benchmarks').add(
					row('2026-01-03T10:00:00Z', 'Llama-3.2-3B-Instruct-q4f16_1-MLC')
				);
				tx.oncomplete = () => resolve();
				tx.onerror = () => reject(tx.error);
			});
		} finally {
			db.close();
		}
	});
}

export const phoneTables: Scenario<E2EContext> = {
	id: 'phone-tables',
	title: `at ${WIDTH} px: chart data, paper numbers, judge modes, confusion matrix, device benchmark and sweep list fit the screen`,
	timeoutMs: 150_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		await page.setViewportSize({ width: WIDTH, height: 844 });
		const width = await page.evaluate(() => document.documentElement.clientWidth);
		const edges: string[] = [];
		// Every table is measured, and all that do not fit are named at the end.
		const misfits: string[] = [];
		const fit = async (what: string, box = page.getByTestId(what)) => {
			try {
				edges.push(`${what} ${await cellsFit(page, what, box, width)}`);
			} catch (e) {
				if (!(e instanceof E2EFailure)) throw e;
				misfits.push(e.message);
			}
		};
		/** A picture of the page, and what axe-core finds on it (the tables' semantics). */
		const stop = async (name: string) => {
			await ctx.screenshot(page, name);
			for (const v of await axeViolations(page))
				misfits.push(`${name}: axe ${v.id} (${v.impact}): ${v.help} at ${v.targets.join(' | ')}`);
		};

		// Served under a paper model's name, so its GSM8K numbers stand beside this run's (the
		// five-column table), and the other models' as context.
		const mock = await ctx.mock('probe', { models: [MOCK_MODEL, PAPER_MODEL] });
		await openView(page, ctx.app.url, '#/setup');
		await configureRun(page, { ...SMALL_PLAN, mock, template: templateSource(ctx) });
		await setControl(await need(page, 'setup', 'model-id'), PAPER_MODEL);
		await uploadDataset(page, gsm8kFile(SMALL_PLAN.items), SMALL_PLAN.items);
		const runId = await startRun(page);
		await waitForDone(page, runId, plannedRecords(SMALL_PLAN));

		await openView(page, ctx.app.url, `#/results/${encodeURIComponent(runId)}`);
		await need(page, 'results', 'results-table');
		await unfold(page);
		await (await need(page, 'results', 'paper-overlay-toggle')).check();
		for (const table of ['paper-compare', 'paper-context']) {
			await need(page, 'results', table);
			await fit(table);
		}
		// With the overlay on, the paper's points are in the charts' data too: the longest names.
		let charts = 0;
		for (const chart of CHARTS) {
			const data = page.getByTestId(`${chart}-data`);
			if ((await data.count()) === 0) continue;
			await data.locator('summary').click();
			await fit(`${chart}-data`);
			charts++;
		}
		check(charts >= 3, `only ${charts} charts offer their data as a table`);
		await stop('phone-results-tables');

		await annotate(page, ctx, runId, 'phone', [0, 0, 1, 2, 0, 3, 0, 1, 4, 0]);
		await openView(page, ctx.app.url, `#/annotate/${encodeURIComponent(runId)}?tab=agreement`);
		await need(page, 'annotate', 'kappa-table');
		await need(page, 'annotate', 'mode-advice').then((s) =>
			s.locator('tbody tr').first().waitFor()
		);
		await fit('mode-advice');
		await need(page, 'annotate', 'confusion-matrix');
		await fit('confusion-matrix');
		await stop('phone-agreement');

		await seedBenchmarks(page);
		await openView(page, ctx.app.url, '#/setup');
		const bench = page.locator('section.device-bench');
		await bench.getByText('Earlier results').click();
		await fit('device-bench', bench);

		await (await need(page, 'setup', 'engine-cpu')).check();
		await (await need(page, 'setup', 'sweep-option')).check();
		await need(page, 'setup', 'sweep-costs');
		await fit('sweep-costs');
		await stop('phone-setup-tables');
		check(misfits.length === 0, misfits.join('\n'));
		ctx.note(`right edges (px of ${width}): ${edges.join(', ')}`);
	}
};
