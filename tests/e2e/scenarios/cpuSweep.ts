/**
 * A sweep on the CPU engine in Chromium without WebGPU: two own GGUF models (copies of the tiny
 * real model on 127.0.0.1, each read for its own chat template) and a third whose file is not
 * there. Set-up lists each run's download and time before it starts; the missing model is left out
 * and named; the two runs run one after another by real llama.cpp in WebAssembly and end in their
 * study.
 */
import { chartData, need, setControl, startRun, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRuns } from '../idb.ts';
import { configureCpuRun, withTinyCpu } from '../tinyCpu.ts';

/** 2 items × T {0} × {none} × 1 sample, judged by the first model. */
const PLANNED = 2;

export const cpuSweep: Scenario<E2EContext> = {
	id: 'cpu-sweep',
	title:
		'a CPU sweep of two own GGUF models: sizes and time first, a missing one left out, a study',
	timeoutMs: 420_000,
	async run(ctx) {
		const names = ['tiny-a.gguf', 'tiny-b.gguf'];
		await withTinyCpu(ctx, { names }, async ({ page, files }) => {
			const [a, b, gone] = [...names, 'gone.gguf'].map((f) => files.url(f));
			await configureCpuRun(page, a, { items: PLANNED, temperatures: '0' });
			await setControl(await need(page, 'setup', 'sweep-models'), `${b}, ${gone}`);

			const rows = page.getByTestId('sweep-cost-row');
			try {
				await rows.nth(2).waitFor({ timeout: UI_TIMEOUT_MS });
			} catch {
				throw new E2EFailure(`set-up lists ${await rows.count()} sweep runs, expected 3`);
			}
			const costs = await rows.allInnerTexts();
			check(
				costs.every((r) => /(MB|cached|size unknown)/.test(r) && /(minute|min|h)/.test(r)),
				`each run lists its download and time: ${JSON.stringify(costs)}`
			);
			const estimate = await (await need(page, 'setup', 'sweep-estimate')).innerText();
			check(/^3 runs/.test(estimate) && /downloads/.test(estimate), `estimate: "${estimate}"`);
			check(/takes turns/.test(estimate), `the CPU judge must take turns: "${estimate}"`);
			ctx.note(`set-up: ${estimate}`);
			ctx.note(`screenshot: ${await ctx.screenshot(page, 'cpu-sweep-setup')}`);
			const first = await startRun(page);

			const skipped = await (await need(page, 'run', 'sweep-skipped')).innerText();
			check(skipped.includes(gone), `the missing model is not named as left out: "${skipped}"`);
			const position = await (await need(page, 'run', 'sweep-position')).innerText();
			check(/Run 1 of 2 of a sweep/.test(position), `run view reads "${position}"`);
			try {
				await page.waitForURL(/#\/study\?runs=/, { timeout: 360_000 });
			} catch {
				throw new E2EFailure(`the CPU sweep never opened its study (url ${page.url()})`);
			}
			const runs = await storedRuns(page);
			check(runs.length === 2, `${runs.length} runs stored, expected 2`);
			for (const r of runs)
				check(
					r.status === 'done' && r.records === PLANNED,
					`run ${r.run_id}: ${JSON.stringify(r)}`
				);
			check(
				runs.some((r) => r.run_id === first),
				'the first run shown is not one of the sweep’s'
			);
			const beside = (await (await chartData(page, 'study-chart-beside')).textContent()) ?? '';
			for (const url of [a, b]) check(beside.includes(url), `accuracy chart: no bars for ${url}`);
			const gets = files.requests.filter((r) => r.startsWith('GET /models/tiny-b.gguf')).length;
			check(gets > 0, 'the second model was never downloaded');
			ctx.note(`2 CPU runs × ${PLANNED} records; left out: ${skipped}`);
		});
	}
};
