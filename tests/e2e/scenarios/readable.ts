/**
 * Every number readable, as a workshop attendee on a 1280 × 800 laptop and a student on a 390 × 844
 * phone read a real run's results and a 3-model study: at 1280 the results and study tables show
 * every column inside their box, and any other table wider than its box says it scrolls; at 390 no
 * condition or label name is cut with an ellipsis (or clipped by its row), every bar chart draws a
 * tick label for each of its categories and names each of its series, and the phone results page
 * has its sentence and follow-up table within two screen heights; the home page shows its four
 * ways in within the first screen. axe-core finds nothing at either width, and after each
 * navigation (See the results, a Results link, the study, home) focus is on the new page's h1. The
 * results page's "What this measures" opens in place, without leaving the run.
 */
import type { Page } from 'playwright-core';
import { configureRun, need, openView, setControl, startRun, unfold, waitForDone } from '../app.ts';
import { MOCK_MODEL, type E2EContext } from '../context.ts';
import { plannedRecords, templateSource } from '../flows.ts';
import { check, type Scenario } from '../harness.ts';
import { axeViolations, horizontalOverflow } from '../tour.ts';

const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** Three temperatures × {none, truncate}: six conditions, the rows Chart.js used to skip. */
const PLAN = {
	items: 2,
	temperatures: [0, 0.7, 1],
	truncate: true,
	samples: 1,
	judgeMode: 'hybrid'
} as const;
/** Long served names, as a study of real models has. */
const MODELS = [MOCK_MODEL, 'Qwen/Qwen3.5-0.8B', 'meta-llama/Llama-3.2-1B-Instruct'];

/** Each visible table's scroll box: how wide the table is, the box, and whether a cue shows. */
async function scrollBoxes(page: Page) {
	return page.evaluate(() =>
		Array.from(document.querySelectorAll<HTMLElement>('main .table-scroll'))
			.filter((box) => box.clientWidth > 0)
			.map((box) => {
				const cue = box.parentElement?.querySelector<HTMLElement>(`[data-scroll-cue="${box.id}"]`);
				const shown = cue ? cue.getBoundingClientRect() : null;
				return {
					label: box.getAttribute('aria-label') ?? '',
					table: box.querySelector('table')?.getAttribute('data-testid') ?? '',
					scrollWidth: box.scrollWidth,
					clientWidth: box.clientWidth,
					cue: shown !== null && shown.width > 0 && shown.height > 0
				};
			})
	);
}

/** At a laptop's width: the results and study tables fit whole; any other wide table says so. */
async function tablesFitOrSay(page: Page, where: string, whole: string[]): Promise<string[]> {
	const seen: string[] = [];
	for (const b of await scrollBoxes(page)) {
		const wide = b.scrollWidth > b.clientWidth + 1;
		seen.push(`${b.table} ${b.scrollWidth}/${b.clientWidth}`);
		if (whole.includes(b.table))
			check(!wide, `${where}: ${b.table} is ${b.scrollWidth} px in a ${b.clientWidth} px box`);
		else
			check(
				!wide || b.cue,
				`${where}: "${b.label}" is ${b.scrollWidth} px in a ${b.clientWidth} px box with no scroll cue`
			);
	}
	for (const t of whole)
		check(
			seen.some((s) => s.startsWith(`${t} `)),
			`${where}: no ${t} measured (${seen.join(', ')})`
		);
	return seen;
}

/**
 * Text cut short: an element drawn with an ellipsis whose text does not fit (a turn's preview may
 * be), and a condition or label chip reaching past its sample row's box (clipped by the row).
 */
async function cutText(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const cut: string[] = [];
		for (const el of Array.from(document.querySelectorAll<HTMLElement>('main *'))) {
			if (el.closest('[data-preview]')) continue;
			if (getComputedStyle(el).textOverflow !== 'ellipsis') continue;
			if (el.scrollWidth > el.clientWidth + 1) cut.push(`ellipsis on "${el.textContent?.trim()}"`);
		}
		for (const row of Array.from(document.querySelectorAll('[data-testid="sample-row"]'))) {
			const box = row.getBoundingClientRect();
			for (const el of Array.from(
				row.querySelectorAll<HTMLElement>('[data-testid="label-badge"], .condition, .item')
			)) {
				const r = el.getBoundingClientRect();
				if (r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5 || r.width === 0)
					cut.push(`"${el.textContent?.trim()}" clipped by its sample row`);
			}
		}
		return cut;
	});
}

/**
 * Every bar chart: the tick labels Chart.js drew on its category axis (its instance's ticks after
 * layout, which autoSkip thins), against the categories of the data table beside it; and its
 * legend, against the series the data table names.
 */
async function barCharts(page: Page, where: string): Promise<string[]> {
	const charts = await page.evaluate(() =>
		Array.from(document.querySelectorAll<HTMLElement>('main figure.chart[data-kind="bar"]')).map(
			(fig) => {
				const rows = Array.from(fig.querySelectorAll('tbody tr')).map((tr) =>
					Array.from(tr.querySelectorAll('td, th')).map((c) => c.textContent?.trim() ?? '')
				);
				return {
					id: fig.getAttribute('data-testid') ?? '',
					drawn: Number(fig.querySelector('.area')?.getAttribute('data-drawn-ticks') ?? NaN),
					categories: new Set(rows.map((r) => r[1])).size,
					// A whisker series is named by the chart's title, not listed.
					series: [...new Set(rows.map((r) => r[0]))].filter((n) => !n.endsWith('(95% CI)')).sort(),
					legend: Array.from(fig.querySelectorAll('[data-legend] li'))
						.map((li) => li.textContent?.trim() ?? '')
						.sort(),
					chartLegend: fig.querySelector('.area')?.getAttribute('data-chart-legend') === 'on'
				};
			}
		)
	);
	check(charts.length >= 2, `${where}: ${charts.length} bar charts`);
	for (const c of charts) {
		check(
			c.drawn === c.categories,
			`${where}: ${c.id} draws ${c.drawn} tick labels for ${c.categories} categories`
		);
		if (c.series.length > 1)
			check(
				c.chartLegend || JSON.stringify(c.legend) === JSON.stringify(c.series),
				`${where}: ${c.id} names series ${JSON.stringify(c.legend)}, its data ${JSON.stringify(c.series)}`
			);
	}
	return charts.map((c) => `${c.id} ${c.drawn}/${c.categories}`);
}

/** The page's h1 has focus (a route change moves it there). */
async function focusOnHeading(page: Page, after: string): Promise<string> {
	const h1 = page.locator('main h1').first();
	await h1.waitFor();
	try {
		await page.waitForFunction(() => document.activeElement === document.querySelector('main h1'), {
			timeout: 5_000
		});
	} catch {
		const on = await page.evaluate(() => {
			const a = document.activeElement;
			return a ? `${a.tagName.toLowerCase()} "${a.textContent?.trim().slice(0, 40)}"` : 'nothing';
		});
		check(false, `after ${after} focus is on ${on}, not the page's heading`);
	}
	return (await h1.innerText()).trim();
}

async function axeClean(page: Page, where: string): Promise<void> {
	const found = await axeViolations(page);
	check(
		found.length === 0,
		`${where}: ${found.map((v) => `axe ${v.id} (${v.impact}): ${v.help} at ${v.targets.join(' | ')}`).join('\n')}`
	);
}

/** Open every chart's data table (its categories and series), then scroll back to the top. */
async function openChartData(page: Page): Promise<void> {
	for (const d of await page.locator('main figure.chart details[data-testid$="-data"]').all()) {
		if (!(await d.evaluate((el) => (el as HTMLDetailsElement).open)))
			await d.locator('summary').click();
	}
	await page.evaluate(() => window.scrollTo(0, 0));
}

export const readable: Scenario<E2EContext> = {
	id: 'readable',
	title: `every number readable at ${LAPTOP.width} and ${PHONE.width} px: tables fit or say so, charts keep every category, focus moves to the heading`,
	// Three runs first: on a loaded 2-core machine they take most of the time.
	timeoutMs: 360_000,
	async run(ctx) {
		const { page } = await ctx.profile();
		await page.setViewportSize(LAPTOP);
		const mock = await ctx.mock('probe', { models: MODELS });
		const runIds: string[] = [];
		for (const model of MODELS) {
			await openView(page, ctx.app.url, '#/setup');
			await configureRun(page, { ...PLAN, mock, template: templateSource(ctx) });
			await setControl(await need(page, 'setup', 'model-id'), model);
			const id = await startRun(page);
			await waitForDone(page, id, plannedRecords(PLAN));
			runIds.push(id);
		}
		const [runId] = runIds;
		const results = `#/results/${encodeURIComponent(runId)}`;
		const study = `#/study?runs=${runIds.map(encodeURIComponent).join(',')}`;
		const headings: string[] = [];

		// Laptop. "See the results" from the last run's page, then a Results link on Runs.
		await (await need(page, 'run', 'results-link')).click();
		await need(page, 'results', 'results-table');
		headings.push(await focusOnHeading(page, '"See the results"'));
		await openView(page, ctx.app.url, '#/runs');
		await page
			.getByTestId('run-row')
			.filter({ hasText: runId })
			.getByRole('link', { name: 'Results' })
			.click();
		await need(page, 'results', 'results-table');
		headings.push(await focusOnHeading(page, 'a Results link on Runs'));
		check(page.url().endsWith(results), `the Results link opened ${page.url()}`);

		// "What this measures" opens in place: the run stays, and Escape gives focus back.
		const why = await need(page, 'results', 'why-link');
		await why.click();
		const help = await need(page, 'results', 'why-help');
		check(page.url().endsWith(results), `"What this measures" left the run for ${page.url()}`);
		const said = (await help.innerText()).trim();
		check(/user turn/i.test(said), `the help in place reads "${said.slice(0, 80)}"`);
		await page.keyboard.press('Escape');
		await help.waitFor({ state: 'hidden' });
		check(
			await why.evaluate((el) => document.activeElement === el),
			'closing the help did not give focus back to its link'
		);

		await unfold(page);
		await openChartData(page);
		const laptopResults = await tablesFitOrSay(page, 'results at 1280', ['results-table']);
		await ctx.screenshot(page, 'readable-laptop-results');
		await axeClean(page, 'results at 1280');

		// The study, opened from Runs as a reader does (three runs picked, Study).
		await openView(page, ctx.app.url, '#/runs');
		for (const id of runIds)
			await page.getByRole('checkbox', { name: `Pick ${id} to compare or study` }).check();
		await (await need(page, 'runs', 'open-study')).click();
		await need(page, 'study', 'study-table');
		headings.push(await focusOnHeading(page, 'Study on Runs'));
		check(
			(await page.getByTestId('study-row').count()) === MODELS.length * 6,
			'the study does not have a row per model and condition'
		);
		await unfold(page);
		await openChartData(page);
		const laptopStudy = await tablesFitOrSay(page, 'study at 1280', ['study-table']);
		await ctx.screenshot(page, 'readable-laptop-study');
		await axeClean(page, 'study at 1280');

		// Phone.
		await page.setViewportSize(PHONE);
		await openView(page, ctx.app.url, results);
		await need(page, 'results', 'results-table');
		const headline = await page.evaluate(() =>
			['overall-sentence', 'results-table'].map((id) => {
				const el = document.querySelector(`[data-testid="${id}"]`);
				return { id, bottom: el ? el.getBoundingClientRect().bottom + window.scrollY : NaN };
			})
		);
		for (const h of headline)
			check(
				h.bottom <= 2 * PHONE.height,
				`phone results: ${h.id} ends at ${Math.round(h.bottom)} px, past two screens (${2 * PHONE.height} px)`
			);
		const folded = await page.evaluate(() => document.documentElement.scrollHeight);
		await ctx.screenshot(page, 'readable-phone-results');
		await axeClean(page, 'results at 390, folded');
		await unfold(page);
		await openChartData(page);
		const cut = await cutText(page);
		check(cut.length === 0, `results at 390: ${cut.slice(0, 6).join('; ')}`);
		const phoneCharts = await barCharts(page, 'results at 390');
		const o = await horizontalOverflow(page);
		check(o.docWidth <= o.viewport, `results at 390 are ${o.docWidth} px wide`);
		await ctx.screenshot(page, 'readable-phone-results-unfolded');
		await axeClean(page, 'results at 390, unfolded');

		await openView(page, ctx.app.url, study);
		await need(page, 'study', 'study-table');
		await unfold(page);
		await openChartData(page);
		const models = await page.getByTestId('study-row').evaluateAll((rows) =>
			rows.map((r) => {
				const first = r.querySelector('th, td');
				const head = r.querySelector('th[scope="row"]');
				return (
					head !== null &&
					first === head &&
					head.getBoundingClientRect().top <=
						Math.min(
							...Array.from(r.querySelectorAll('td')).map((td) => td.getBoundingClientRect().top)
						)
				);
			})
		);
		check(
			models.every(Boolean),
			`phone study: ${models.filter((m) => !m).length} cards do not start with their model`
		);
		const studyCharts = await barCharts(page, 'study at 390');
		const cutStudy = await cutText(page);
		check(cutStudy.length === 0, `study at 390: ${cutStudy.slice(0, 6).join('; ')}`);
		await ctx.screenshot(page, 'readable-phone-study');
		await axeClean(page, 'study at 390');

		// Home last, by its brand link, as a reader leaves.
		await page.locator('header a', { hasText: 'User-Turn Probe' }).click();
		await need(page, 'home', 'way-run');
		headings.push(await focusOnHeading(page, 'the brand link home'));
		const ways = await page.evaluate(() =>
			['way-open', 'way-see', 'way-try', 'way-run'].map((id) => {
				const h = document.querySelector(`[data-testid="${id}"] h3`);
				return { id, bottom: h ? h.getBoundingClientRect().bottom + window.scrollY : NaN };
			})
		);
		for (const w of ways)
			check(
				w.bottom <= PHONE.height,
				`home at ${PHONE.width} px: ${w.id}'s heading ends at ${Math.round(w.bottom)} px, below the first screen (${PHONE.height} px)`
			);
		await ctx.screenshot(page, 'readable-phone-home');
		await axeClean(page, 'home at 390');

		ctx.note(`headings focused: ${headings.join(' | ')}`);
		ctx.note(`1280 results: ${laptopResults.join(', ')}`);
		ctx.note(`1280 study: ${laptopStudy.join(', ')}`);
		ctx.note(
			`390 results: headline ends ${headline.map((h) => `${h.id} ${Math.round(h.bottom)}`).join(', ')} px; page ${folded} px folded; ticks ${phoneCharts.join(', ')}`
		);
		ctx.note(
			`390 study ticks: ${studyCharts.join(', ')}; four ways end ≤ ${Math.round(Math.max(...ways.map((w) => w.bottom)))} px`
		);
	}
};
