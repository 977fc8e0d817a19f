/**
 * A sweep of three served models from one set-up, each rendered with its own chat template (the
 * first the chosen one, the others their served names' shipped families, as set-up says before
 * the start; a served name that names no template is left out) and each model's context window as
 * the server reports it (vLLM's max_model_len; none for the chosen one: "not reported"), with a
 * warning for the one too short for the run: three runs, one after another; a
 * reload during the second stops it and the reloaded tab goes on from there by itself (the first
 * run untouched); a second tab never drives it; the end opens the study view with one line and
 * band per model in every chart, each with its data table; its one file, imported in a fresh
 * browser, opens it again.
 */
import { mkdirSync } from 'node:fs';
import {
	chartData,
	configureRun,
	need,
	openView,
	setControl,
	startRun,
	UI_TIMEOUT_MS
} from '../app.ts';
import { MOCK_MODEL, type E2EContext } from '../context.ts';
import { plannedRecords, SMALL_PLAN, templateSource } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { pollRun, recordStamps, storedRuns, storedTemplates } from '../idb.ts';
import { download, DOWNLOADS_DIR } from './transfer.ts';

/** Served names that are template repos whose templates ship with the app (no Hub here). */
const OTHERS = ['openai/gpt-oss-20b', 'zai-org/GLM-4.7-Flash'];
/** A served name that names no template: left out of the sweep, and named. */
const NAMELESS = 'sweep-local';
/** max_model_len the mock reports per model, as vLLM does: the second too short for the run. */
const WINDOWS: Record<string, number> = { [OTHERS[0]]: 40960, [OTHERS[1]]: 700 };
/** Slow enough that the reload lands inside the second run. */
const TOKEN_DELAY_MS = 25;

export const sweep: Scenario<E2EContext> = {
	id: 'sweep',
	title:
		'a sweep of three models: three runs, reload mid-sweep resumes by itself, a study with three series',
	timeoutMs: 240_000,
	async run(ctx) {
		const { page, context } = await ctx.profile();
		const models = [MOCK_MODEL, ...OTHERS];
		const mock = await ctx.mock('probe', {
			tokenDelayMs: TOKEN_DELAY_MS,
			models: [...models, NAMELESS]
		});
		for (const [id, len] of Object.entries(WINDOWS)) mock.modelFields[id] = { max_model_len: len };
		const planned = plannedRecords(SMALL_PLAN);
		await openView(page, ctx.app.url, '#/setup');
		await configureRun(page, { ...SMALL_PLAN, mock, template: templateSource(ctx) });
		await setControl(await need(page, 'setup', 'sweep-models'), [...OTHERS, NAMELESS].join(', '));
		const said = await page.getByTestId('sweep-template').allInnerTexts();
		check(
			said.length === 3 &&
				said[1].includes('gpt-oss, shipped') &&
				said[2].includes('GLM-4.7-Flash, shipped'),
			`set-up's sweep templates read ${JSON.stringify(said)}`
		);
		const left = await (await need(page, 'setup', 'sweep-unknown')).innerText();
		check(left.includes(NAMELESS), `set-up's left-out line reads "${left}"`);
		// Each model's context window, asked as the start asks it; the short one is warned of.
		const warned = await need(page, 'setup', 'sweep-context-fit');
		const windows = await page.getByTestId('sweep-context').allInnerTexts();
		check(
			windows.length === 3 &&
				windows[0].includes('not reported') &&
				windows[1].includes('40,960 tokens (max_model_len in /v1/models)') &&
				windows[2].includes('700 tokens'),
			`set-up's sweep context windows read ${JSON.stringify(windows)}`
		);
		const warnings = await page.getByTestId('sweep-context-fit').count();
		const warning = await warned.innerText();
		check(
			warnings === 1 && warning.includes('more than the 700-token context window'),
			`set-up warns ${warnings} times: "${warning}"`
		);
		const own = await (await need(page, 'setup', 'context-window')).innerText();
		check(/not reported/.test(own), `set-up's context line reads "${own}"`);
		ctx.note(`set-up context windows: ${windows.join(' | ')}`);
		const estimate = await (await need(page, 'setup', 'sweep-estimate')).innerText();
		check(/^3 runs/.test(estimate), `set-up's sweep estimate reads "${estimate}"`);
		ctx.note(`set-up says: ${said.join(' | ')}`);
		const first = await startRun(page);
		const sweepId = `sweep-${first}`;

		// The sweep moves on to the second run by itself once the first is done.
		try {
			await page.waitForURL((u) => /#\/run\//.test(u.hash) && !u.hash.includes(first), {
				timeout: 120_000
			});
		} catch {
			throw new E2EFailure(`the sweep did not move on from ${first} (url ${page.url()})`);
		}
		const second = decodeURIComponent(/#\/run\/([^/?]+)/.exec(page.url())?.[1] ?? '');
		const midway = await pollRun(page, second, (r) => r.records >= 2, 30_000, 50);
		check(midway && midway.records < planned, `second run at reload: ${JSON.stringify(midway)}`);
		const firstStamps = await recordStamps(page, first);
		await page.reload();

		// This tab was driving the sweep: it goes on by itself, with no click on Resume.
		const position = await (await need(page, 'run', 'sweep-position')).innerText();
		check(/Run 2 of 3 of a sweep/.test(position), `run view after reload reads "${position}"`);
		const before = mock.requests.length;
		const resumed = await pollRun(page, second, (r) => r.status === 'done', 120_000, 100);
		check(
			resumed?.status === 'done',
			`the second run did not go on after the reload: ${JSON.stringify(resumed)}`
		);
		check(mock.requests.length > before, 'the reloaded tab sent no requests');

		// Another tab of the same browser, even one carrying the driving mark (a duplicated tab
		// copies sessionStorage), follows the run the first tab holds and never drives it.
		const other = await context.newPage();
		await other.addInitScript((id) => sessionStorage.setItem('utp:sweep-driving', id), sweepId);
		await page.waitForURL((u) => /#\/(run|study)/.test(u.hash) && !u.hash.includes(second), {
			timeout: 60_000
		});
		if (/#\/run\//.test(page.url())) {
			await openView(other, ctx.app.url, new URL(page.url()).hash);
			const status = other.getByTestId('run-status');
			await status.waitFor();
			await other.waitForTimeout(1_500);
			const seen = await status.getAttribute('data-status');
			check(seen !== 'running' && seen !== 'starting', `the second tab drives the run (${seen})`);
			check((await other.getByTestId('pause-run').count()) === 0, 'the second tab can pause it');
		}
		ctx.note(
			`second tab checked on ${/#\/run\//.test(other.url()) ? 'the third run' : 'nothing (the sweep had ended)'}`
		);
		await other.close();
		try {
			await page.waitForURL(/#\/study\?runs=/, { timeout: 180_000 });
		} catch {
			throw new E2EFailure(`the resumed sweep never opened its study (url ${page.url()})`);
		}

		const runs = (await storedRuns(page)).filter((r) => r.status === 'done');
		check(runs.length === 3, `${runs.length} runs done, expected 3`);
		// Each run was rendered with its own model's template, stored with it.
		const templates = await storedTemplates(page);
		const repoOf = (m: string) => templates.find((t) => t.generator === m)?.template_repo;
		check(
			OTHERS.every((m) => repoOf(m) === m),
			`stored template repos: ${JSON.stringify(templates)}`
		);
		const hashes = new Set(templates.map((t) => t.template_sha256));
		check(hashes.size === 3, `three runs, ${hashes.size} distinct templates`);
		check(!repoOf(NAMELESS), `${NAMELESS}, which names no template, was run`);
		ctx.note(
			`templates: ${templates.map((t) => `${t.generator} ← ${t.template_repo}`).join('; ')}`
		);
		for (const r of runs)
			check(r.records === planned && r.distinctKeys === planned, `run ${r.run_id}: ${r.records}`);
		const again = await recordStamps(page, first);
		check(
			Object.keys(firstStamps).every((k) => again[k] === firstStamps[k]),
			'the first run’s records were made again after the reload'
		);

		// The study: one row per model × condition, three lines with bands, every chart its table.
		const rows = await page.getByTestId('study-row').count();
		check(rows === 3 * 4, `study table: ${rows} rows, expected 12`);
		const series = async (testid: string) =>
			(await chartData(page, testid)).locator('tbody tr td:first-child').allTextContents();
		const followup = await series('study-chart-followup');
		for (const m of models) {
			check(followup.includes(m), `follow-up chart: no line for ${m}`);
			check(followup.includes(`${m} (95% CI)`), `follow-up chart: no band for ${m}`);
		}
		for (const chart of ['study-chart-beside', 'study-chart-effects', 'study-chart-labels']) {
			const cells = await series(chart);
			check(cells.length > 0, `${chart}: no data table`);
		}
		const beside = (await (await chartData(page, 'study-chart-beside')).textContent()) ?? '';
		for (const m of models) check(beside.includes(m), `accuracy chart: no bars for ${m}`);
		const sentence = await (await need(page, 'study', 'study-sentence')).innerText();
		check(/^Across 3 models/.test(sentence), `study sentence reads "${sentence}"`);
		ctx.note(`3 runs × ${planned} records; study: ${rows} rows; ${sentence}`);
		ctx.note(`screenshot: ${await ctx.screenshot(page, 'study')}`);

		// The study as one file, imported on the Runs page of a fresh browser: the same study opens.
		mkdirSync(DOWNLOADS_DIR, { recursive: true });
		const file = await download(page, page.locator('body'), 'study-share');
		const fresh = (await ctx.freshProfile()).page;
		await openView(fresh, ctx.app.url, '#/runs');
		await (await need(fresh, 'runs', 'import-files')).setInputFiles(file);
		try {
			await fresh.waitForURL(/#\/study\?runs=/, { timeout: UI_TIMEOUT_MS });
			await fresh
				.getByTestId('study-row')
				.nth(rows - 1)
				.waitFor({ timeout: UI_TIMEOUT_MS });
		} catch {
			const error = await fresh.getByTestId('import-error').allInnerTexts();
			throw new E2EFailure(
				`importing ${file} opened no study: ${error.join(' | ') || fresh.url()}`
			);
		}
		const imported = await fresh.getByTestId('study-row').count();
		check(imported === rows, `the imported study has ${imported} rows, expected ${rows}`);
		check((await storedRuns(fresh)).length === 3, 'the import did not store three runs');
	}
};
