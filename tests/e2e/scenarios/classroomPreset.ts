/**
 * The classroom preset on a device without WebGPU (the CPU engine): before anything downloads it
 * names its one small model and a time on this device, and says its size is not known yet (the
 * CPU catalog lists none; nothing is fetched to find out). Applying it fills set-up (that model
 * answers and judges, 10 items, T=1, no perturbation, one sample, rules then the same model).
 * With Hugging Face blocked, Start shows the one blocked message; once it answers, the preset's
 * run completes on real llama.cpp in WebAssembly, and set-up then says nothing is left to
 * download. The Hub's file for the preset's model is served as the suite's tiny GGUF, so the
 * preset runs unchanged with nothing leaving this machine.
 */
import type { Route } from 'playwright-core';
import { DEFAULT_CPU_GENERATOR, findGguf, ggufUrl } from '../../../src/lib/engines/cpu/catalog.ts';
import { need, openView, startRun, UI_TIMEOUT_MS, waitForDone } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRecords, storedRuns } from '../idb.ts';
import { TINY_GGUF, withTinyCpu, type TinyCpuOptions } from '../tinyCpu.ts';

const V = 'setup';
const ITEMS = 10;

/** Answers a request for the Hub's file with the same request to the tiny model's server. */
async function serveFrom(route: Route, url: string): Promise<void> {
	const req = route.request();
	const range = req.headers()['range'];
	const res = await fetch(url, { method: req.method(), headers: range ? { range } : {} });
	await route.fulfill({
		status: res.status,
		headers: Object.fromEntries(res.headers),
		body: req.method() === 'HEAD' ? undefined : Buffer.from(await res.arrayBuffer())
	});
}

export const classroomPreset: Scenario<E2EContext> = {
	id: 'classroom-preset',
	title:
		'classroom preset on the CPU engine: model and time before any download, fills set-up, Hub blocked gives one message, then a 10-item run',
	timeoutMs: 300_000,
	async run(ctx) {
		const entry = findGguf(DEFAULT_CPU_GENERATOR);
		if (!entry) throw new E2EFailure(`no catalog entry ${DEFAULT_CPU_GENERATOR}`);
		let hubBlocked = false;
		// The Hub's file for the preset's model is the tiny model; every other Hub request fails.
		const routeHub: TinyCpuOptions['beforeOpen'] = async ({ context, files }) => {
			await context.route(/^https:\/\/([a-z0-9-]+\.)*huggingface\.co\//, async (route) => {
				const url = route.request().url();
				if (hubBlocked || !url.endsWith(`/${entry.repo}/resolve/main/${entry.file}`)) {
					await route.abort('internetdisconnected');
					return;
				}
				await serveFrom(route, files.url(TINY_GGUF));
			});
		};
		await withTinyCpu(ctx, { beforeOpen: routeHub }, async ({ page, files }) => {
			const weightGets = () => files.requests.filter((r) => r.startsWith('GET ')).length;

			const preset = await need(page, V, 'classroom');
			const named = await (await need(preset, V, 'classroom-model')).innerText();
			check(named.includes(entry.label), `the preset names "${named}", not ${entry.label}`);
			// The CPU catalog lists no size for it: said so, never a made-up figure, and nothing is
			// fetched to find out.
			const size = await (await need(preset, V, 'classroom-size')).innerText();
			check(/size not known yet/.test(size), `before any download the size reads "${size}"`);
			const time = await (await need(preset, V, 'classroom-time')).innerText();
			check(/On this device: about \d+ (s|min|h)/.test(time), `no time estimate: "${time}"`);
			check(weightGets() === 0, `the model was fetched before Start: ${files.requests.join(', ')}`);

			await (await need(preset, V, 'classroom-apply')).click();
			// The preset says "Set below" once its values are in the form.
			await preset.getByText('Set below').waitFor({ timeout: UI_TIMEOUT_MS });
			const value = async (id: string) => (await need(page, V, id)).inputValue();
			const form = {
				items: await value('n-items'),
				temperatures: await value('temperatures'),
				samples: await value('samples'),
				judge: await value('judge-mode'),
				generator: await value('cpu-generator-model'),
				judgeModel: await value('cpu-judge-model')
			};
			check(
				form.items === String(ITEMS) &&
					form.temperatures === '1' &&
					form.samples === '1' &&
					form.judge === 'hybrid' &&
					form.generator === DEFAULT_CPU_GENERATOR &&
					form.judgeModel === DEFAULT_CPU_GENERATOR,
				`the preset filled set-up with ${JSON.stringify(form)}`
			);
			const perturbed = await page
				.locator('[data-testid^="perturbation-"]:checked')
				.evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')));
			check(
				perturbed.every((id) => id === 'perturbation-none'),
				`perturbations left on: ${perturbed.join(', ')}`
			);
			ctx.note(`preset: ${named}; ${size}; ${time}`);

			// Hugging Face blocked: one message, the raw error only in its Details, no run kept.
			hubBlocked = true;
			await (await need(page, V, 'start-run')).click();
			const blocked = page.getByTestId('hub-blocked');
			await blocked.waitFor({ timeout: 60_000 }).catch(async () => {
				throw new E2EFailure(
					`no blocked-Hub message (url ${page.url()}; errors ${JSON.stringify(await page.getByTestId('run-error').allInnerTexts())})`
				);
			});
			const shown = await page.getByTestId('hub-blocked-message').count();
			const listed = await page.getByTestId('run-error').count();
			check(
				shown === 1 && listed === 0,
				`${shown} blocked messages and ${listed} raw errors listed`
			);
			await need(page, 'run', 'run-discarded');
			check((await storedRuns(page)).length === 0, 'the blocked start left a run');

			// Hugging Face answers: the preset's run, one model answering and judging.
			hubBlocked = false;
			await openView(page, ctx.app.url, '#/setup');
			const runId = await startRun(page);
			const done = await waitForDone(page, runId, ITEMS, 240_000);
			check(done.records === ITEMS, `${done.records} records, planned ${ITEMS}`);
			const turns = await storedRecords<{ temperature: number; perturbation: string }>(
				page,
				runId,
				['temperature', 'perturbation']
			);
			check(
				turns.every((t) => t.temperature === 1 && t.perturbation === 'none'),
				`records outside T=1 · none: ${JSON.stringify(turns)}`
			);
			const url = ggufUrl(entry);
			// The run's heading is drawn from its stored manifest, which the view may still be reading.
			const want = [`${url} ·`, `judge: ${url} (hybrid)`];
			await page
				.waitForFunction(
					(parts) => {
						const text = (document.querySelector('main') as HTMLElement | null)?.innerText ?? '';
						return parts.every((p) => text.includes(p));
					},
					want,
					{ timeout: UI_TIMEOUT_MS }
				)
				.catch(async () => {
					const head = (await page.locator('main').first().innerText()).slice(0, 300);
					throw new E2EFailure(
						`the run view does not show ${url} as generator and judge: "${head}"`
					);
				});
			// Downloaded by the run, the preset's model is in this browser: nothing left to download.
			await openView(page, ctx.app.url, '#/setup');
			const after = page.getByTestId('classroom-size');
			await after
				.getByText('none: already in this browser')
				.waitFor({ timeout: UI_TIMEOUT_MS })
				.catch(async () => {
					throw new E2EFailure(`after the run the size reads "${await after.innerText()}"`);
				});
			ctx.note(
				`${done.records} records at T=1; ${weightGets()} GETs of the model file; ${files.requests.length} requests in all`
			);
		});
	}
};
