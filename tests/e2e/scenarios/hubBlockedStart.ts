/**
 * Hugging Face blocked (every request to huggingface.co fails, as on many school networks) and the
 * CPU engine chosen: the chat template ships with the app, so the start gets as far as loading the
 * model, which cannot download. The run view says so in one message with the ways that work (the
 * raw error only inside its Details, not again in the run's error list), and the run, having made
 * nothing, is not kept: Runs lists no empty paused run.
 */
import { need, openView, setControl, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRuns } from '../idb.ts';

const V = 'setup';

export const hubBlockedStart: Scenario<E2EContext> = {
	id: 'hub-blocked-start',
	title: 'Hugging Face blocked: the model cannot download, one message, and no run is left',
	timeoutMs: 90_000,
	async run(ctx) {
		const { page, context } = await ctx.profile();
		const hub: string[] = [];
		await context.route(/^https:\/\/([a-z0-9-]+\.)*huggingface\.co\//, async (route) => {
			hub.push(route.request().url());
			await route.abort('internetdisconnected');
		});
		await openView(page, ctx.app.url, '#/setup');
		await setControl(await need(page, V, 'engine-cpu'), true);
		await setControl(await need(page, V, 'judge-mode'), 'rules');
		await (await need(page, V, 'start-run')).click();

		const blocked = page.getByTestId('hub-blocked');
		await blocked.waitFor({ timeout: 60_000 }).catch(async () => {
			const errors = await page.getByTestId('run-errors').allInnerTexts();
			const start = await page.getByTestId('start-error').allInnerTexts();
			throw new E2EFailure(
				`no "Hugging Face is blocked" message (url ${page.url()}; run errors ${JSON.stringify(errors)}; start error ${JSON.stringify(start)})`
			);
		});
		const text = await blocked.innerText();
		check(
			/huggingface\.co\) cannot be reached/.test(text),
			`the message is not the one: "${text}"`
		);
		check(
			!/Check the URL/i.test(text),
			`"check the URL" is said though no URL was typed: "${text}"`
		);
		// The raw error reads once: inside the message's Details, not again as a run error below it.
		const raw = (await blocked.locator('details').textContent())?.replace(/^\s*Details/, '').trim();
		if (!raw) throw new E2EFailure('the message has no Details with the raw error');
		const head = raw.slice(0, 40);
		const times = await page.evaluate((h) => document.body.textContent?.split(h).length ?? 1, head);
		check(times - 1 === 1, `the raw error "${head}…" is on the page ${times - 1} times`);
		for (const id of ['hub-use-server', 'hub-open-shared', 'hub-see']) {
			check((await page.getByTestId(id).count()) === 1, `no way out "${id}"`);
		}
		await page
			.getByTestId('run-discarded')
			.waitFor({ timeout: UI_TIMEOUT_MS })
			.catch(() => {
				throw new E2EFailure('the run view does not say the failed run was not kept');
			});
		const runs = await storedRuns(page);
		check(runs.length === 0, `a failed start left ${runs.length} run(s): ${JSON.stringify(runs)}`);
		await openView(page, ctx.app.url, '#/runs');
		await need(page, 'runs', 'runs-empty');
		const listed = await page.getByTestId('run-row').count();
		check(listed === 0, `Runs lists ${listed} run(s) after a failed start`);

		// "See what the model sees" works with the Hub blocked.
		await openView(page, ctx.app.url, '#/see');
		await need(page, 'see', 'see-prompt');
		ctx.note(`Hub requests refused: ${hub.length} (${hub[0] ?? 'none'})`);
	}
};
