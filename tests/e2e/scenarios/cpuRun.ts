/**
 * The CPU engine end to end in Chromium with WebGPU off: set-up defaults to "This device (CPU)",
 * the generator and judge are a GGUF URL on 127.0.0.1 (the tiny real model, with its chat template
 * read from the file's metadata), a small run answers, speaks as the user and is judged by real
 * llama.cpp in WebAssembly; a reload mid-run and Resume finish it with exactly the planned records;
 * the results view opens.
 */
import type { Page } from 'playwright-core';
import { serveGguf, type GgufServer } from '../../helpers/ggufServer.ts';
import { buildTinyModel } from '../../helpers/tinyModel/index.ts';
import { need, openView, setControl, startRun, UI_TIMEOUT_MS, waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { pollRun, recordStamps, storedRecords, storedRun } from '../idb.ts';

/** 3 items × T {0, 1} × {none} × 1 sample, every turn judged by the LLM. */
const ITEMS = 3;
const PLANNED = ITEMS * 2;

/** Set-up, in a fresh profile without WebGPU, has chosen the CPU engine by itself. */
export async function cpuByDefault(page: Page): Promise<void> {
	const cpu = await need(page, 'setup', 'engine-cpu');
	try {
		// The default without WebGPU: nothing was chosen or saved in this fresh profile.
		await page.waitForFunction(
			() =>
				(document.querySelector('[data-testid="engine-cpu"]') as HTMLInputElement | null)
					?.checked === true,
			undefined,
			{ timeout: UI_TIMEOUT_MS }
		);
	} catch {
		throw new E2EFailure('setup view: without WebGPU the engine did not default to the CPU');
	}
	check(await cpu.isChecked(), 'engine-cpu is not checked');
}

/** Set-up for a CPU run of the tiny model at `modelUrl` as generator and judge (LLM judging). */
export async function configureCpuRun(
	page: Page,
	modelUrl: string,
	plan: { items: number; temperatures: string } = { items: ITEMS, temperatures: '0, 1' }
): Promise<void> {
	const v = 'setup';
	await cpuByDefault(page);
	await setControl(await need(page, v, 'judge-mode'), 'llm');
	for (const role of ['generator', 'judge']) {
		await setControl(await need(page, v, `cpu-${role}-model`), 'custom');
		await setControl(await need(page, v, `cpu-${role}-url`), modelUrl);
	}
	// The template comes from the GGUF itself: the repo field stays empty.
	await setControl(await need(page, v, 'template-kind-repo'), true);
	await setControl(await need(page, v, 'template-repo'), '');
	await (await need(page, v, 'check-template')).click();
	const status = await need(page, v, 'template-status');
	try {
		await status.getByText('<|im_start|>user').waitFor({ timeout: 30_000 });
	} catch {
		throw new E2EFailure(
			`setup view: the GGUF's chat template did not check: "${await status.innerText()}"`
		);
	}
	await setControl(await need(page, v, 'dataset-select'), 'demo');
	await setControl(await need(page, v, 'n-items'), String(plan.items));
	await setControl(await need(page, v, 'seed'), '1');
	await setControl(await need(page, v, 'temperatures'), plan.temperatures);
	await setControl(await need(page, v, 'perturbation-truncate'), false);
	const append = page.getByTestId('perturbation-append');
	if ((await append.count()) > 0) await setControl(append.first(), false);
	await setControl(await need(page, v, 'samples'), '1');
}

interface StoredTurn {
	user_turn: string;
	judge_raw: string | null;
	label: string | null;
	label_source: string | null;
}

const TURN_FIELDS = ['user_turn', 'judge_raw', 'label', 'label_source'] as const;

export const cpuRun: Scenario<E2EContext> = {
	id: 'cpu-run',
	title:
		'without WebGPU: the CPU engine runs the tiny real model through the UI, resumes after a reload',
	timeoutMs: 300_000,
	async run(ctx) {
		const model = await buildTinyModel({ seed: 16 });
		let files: GgufServer | undefined;
		try {
			files = await serveGguf({ 'tiny-qwen2.gguf': model.path });
			const url = files.url('tiny-qwen2.gguf');
			const { page } = await ctx.freshProfile({ webgpu: false });
			await openView(page, ctx.app.url, '#/setup');
			await configureCpuRun(page, url);
			const runId = await startRun(page);

			const midway = await pollRun(page, runId, (r) => r.records >= 1, 120_000, 100);
			check(
				midway && midway.records >= 1,
				`no record stored within 120 s (${JSON.stringify(midway)})`
			);
			check(
				midway.records < PLANNED,
				`the run finished before the reload (${midway.records} records)`
			);
			await page.reload();
			const kept = await recordStamps(page, runId);
			const after = await storedRun(page, runId);
			check(after && after.records >= midway.records, 'records stored before the reload were lost');
			ctx.note(`reloaded with ${after.records}/${PLANNED} stored (status ${after.status})`);

			const resume = page.getByTestId('resume-run');
			try {
				await resume.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
			} catch {
				throw new E2EFailure(`run view: no Resume button for ${runId} after a reload`);
			}
			check(await resume.isEnabled(), 'run view: Resume is disabled for a CPU run without WebGPU');
			const downloadsBefore = files.requests.filter((r) => /^GET \/models\/[^ ]+$/.test(r)).length;
			await resume.click();
			const done = await waitForDone(page, runId, PLANNED, 240_000);
			check(done.records === PLANNED, `after resume: ${done.records} records, planned ${PLANNED}`);
			check(done.distinctKeys === PLANNED, `after resume: ${done.distinctKeys} distinct keys`);
			const final = await recordStamps(page, runId);
			const remade = Object.keys(kept).filter((k) => final[k] !== kept[k]);
			check(
				remade.length === 0,
				`records stored before the reload were made again: ${remade.join(', ')}`
			);
			const downloads = files.requests.filter((r) => /^GET \/models\/[^ ]+$/.test(r)).length;
			check(
				downloads === downloadsBefore,
				`Resume downloaded the model again (${downloads - downloadsBefore} full GETs): the cache was not used`
			);

			const turns = await storedRecords<StoredTurn>(page, runId, TURN_FIELDS);
			check(
				turns.every((t) => !t.user_turn.includes('<|im_end|>')),
				'a stored user turn contains <|im_end|>: the stop sequence was not honoured'
			);
			check(
				turns.every((t) => t.label_source === 'judge' && t.label !== null),
				`not every record was labelled by the judge: ${JSON.stringify(turns.map((t) => t.label_source))}`
			);
			const unparsable = turns.filter((t) => {
				try {
					return typeof JSON.parse(t.judge_raw ?? '') !== 'object';
				} catch {
					return true;
				}
			});
			check(
				unparsable.length === 0,
				`judge replies that are not JSON: ${JSON.stringify(unparsable.map((t) => t.judge_raw))}`
			);
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
		} finally {
			await files?.close();
		}
	}
};
