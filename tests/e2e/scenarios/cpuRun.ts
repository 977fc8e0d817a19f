/**
 * The CPU engine end to end in Chromium with WebGPU off: set-up defaults to "This device (CPU)",
 * the generator and judge are a GGUF URL on 127.0.0.1 (the tiny real model, with its chat template
 * read from the file's metadata), a small run answers, speaks as the user and is judged by real
 * llama.cpp in WebAssembly; a reload mid-run and Resume finish it with exactly the planned records;
 * the results view opens.
 */
import { need, openView, startRun, UI_TIMEOUT_MS, waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRecords } from '../idb.ts';
import { checkJudgedTurns, checkResumed, JUDGED_TURN_FIELDS, reloadMidRun } from '../runChecks.ts';
import { configureCpuRun, TINY_GGUF, withTinyCpu } from '../tinyCpu.ts';

/** 3 items × T {0, 1} × {none} × 1 sample, every turn judged by the LLM. */
const PLAN = { items: 3, temperatures: '0, 1' };
const PLANNED = PLAN.items * 2;

export const cpuRun: Scenario<E2EContext> = {
	id: 'cpu-run',
	title:
		'without WebGPU: the CPU engine runs the tiny real model through the UI, resumes after a reload',
	timeoutMs: 300_000,
	async run(ctx) {
		await withTinyCpu(ctx, {}, async ({ page, files }) => {
			await configureCpuRun(page, files.url(TINY_GGUF), PLAN);
			const runId = await startRun(page);
			const { after, kept } = await reloadMidRun(page, runId, {
				planned: PLANNED,
				atLeast: 1,
				timeoutMs: 120_000,
				intervalMs: 100,
				reload: () => page.reload().then(() => undefined)
			});
			ctx.note(`reloaded with ${after.records}/${PLANNED} stored (status ${after.status})`);

			const resume = page.getByTestId('resume-run');
			try {
				await resume.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
			} catch {
				throw new E2EFailure(`run view: no Resume button for ${runId} after a reload`);
			}
			check(await resume.isEnabled(), 'run view: Resume is disabled for a CPU run without WebGPU');
			// Whole-file GETs (no Range): a download, not a read of the cache.
			const downloads = () => files.requests.filter((r) => /^GET \/models\/[^ ]+$/.test(r)).length;
			const downloadsBefore = downloads();
			await resume.click();
			const done = await waitForDone(page, runId, PLANNED, 240_000);
			await checkResumed(page, done, PLANNED, kept);
			check(
				downloads() === downloadsBefore,
				`Resume downloaded the model again (${downloads() - downloadsBefore} full GETs): the cache was not used`
			);

			const turns = await storedRecords(page, runId, JUDGED_TURN_FIELDS);
			checkJudgedTurns(turns);
			ctx.note(
				`${PLANNED} records by the CPU engine; labels ${JSON.stringify(turns.map((t) => t.label))}; ` +
					`${files.requests.length} requests to the model server`
			);

			await (await need(page, 'run', 'results-link')).click();
			await page.waitForURL(new RegExp(`#/results/${runId}`), { timeout: UI_TIMEOUT_MS });
			await need(page, 'results', 'read-ms');

			// "Benchmark this device" on the CPU engine, and the set-up's estimate then uses its speed.
			await openView(page, ctx.app.url, '#/setup');
			const section = page.locator('section.device-bench');
			await section.waitFor({ timeout: UI_TIMEOUT_MS });
			const button = section.getByRole('button', { name: 'Run benchmark' });
			check(await button.isEnabled(), 'the benchmark button is disabled on the CPU engine');
			await button.click();
			try {
				await section.getByRole('button', { name: 'Copy as JSON' }).waitFor({ timeout: 180_000 });
			} catch {
				const alert = await section.getByRole('alert').allInnerTexts();
				throw new E2EFailure(`the CPU benchmark did not finish: ${alert.join(' | ')}`);
			}
			const bench = await page.evaluate(async () => {
				const db = await new Promise<IDBDatabase>((resolve, reject) => {
					const req = indexedDB.open('user-turn-probe');
					req.onsuccess = () => resolve(req.result);
					req.onerror = () => reject(req.error);
				});
				try {
					return await new Promise<
						{ engine: string; results: Record<string, number>; device?: Record<string, string> }[]
					>((resolve, reject) => {
						const req = db.transaction('benchmarks', 'readonly').objectStore('benchmarks').getAll();
						req.onsuccess = () => resolve(req.result);
						req.onerror = () => reject(req.error);
					});
				} finally {
					db.close();
				}
			});
			const row = bench.at(-1);
			check(
				row?.engine === 'wllama',
				`the stored benchmark is not the CPU engine's: ${JSON.stringify(row)}`
			);
			check(
				(row.results.decode_tps ?? 0) > 0 && (row.results.records_per_minute ?? 0) > 0,
				`the CPU benchmark lacks tokens/s or records/min: ${JSON.stringify(row.results)}`
			);
			const speed = await (await need(page, 'setup', 'estimate-speed')).innerText();
			check(
				/this device's benchmark/.test(speed),
				`the estimate does not use the benchmark: "${speed}"`
			);
			ctx.note(
				`CPU benchmark on this machine (tiny model, ${row.device?.cpu_threads ?? '?'} thread(s)): ${row.results.decode_tps.toFixed(1)} tok/s decode, ` +
					`${row.results.prefill_tps?.toFixed(1)} tok/s prefill, ${row.results.records_per_minute.toFixed(1)} records/min, ` +
					`load ${Math.round(row.results.load_ms ?? NaN)} ms`
			);
		});
	}
};
