/**
 * A walk through every view and state a visitor meets (set-up empty and filled, a live and a
 * finished run, results with a sample open, runs, playground before and after generating, annotate
 * and its agreement tab), calling `visit(name)` at each stop. The phone and accessibility checks
 * share it, so both look at the same pages.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import {
	configureRun,
	need,
	openView,
	playgroundGenerate,
	startRun,
	unfold,
	waitForDone
} from './app.ts';
import type { E2EContext } from './context.ts';
import { check } from './harness.ts';
import { plannedRecords, SMALL_PLAN, templateSource } from './flows.ts';
import { pollRun } from './idb.ts';

export type Visit = (name: string) => Promise<void>;

export async function tourEveryView(ctx: E2EContext, page: Page, visit: Visit): Promise<void> {
	const mock = await ctx.mock('probe', { tokenDelayMs: 20 });
	await openView(page, ctx.app.url, '#/');
	await need(page, 'home', 'way-open');
	await page.waitForTimeout(300); // the device line answers asynchronously
	await visit('home');
	await openView(page, ctx.app.url, '#/runs');
	await page.waitForTimeout(300);
	await visit('runs-empty');
	await openView(page, ctx.app.url, '#/setup');
	await page.waitForTimeout(500); // the capability panel answers asynchronously
	await visit('setup');
	await configureRun(page, { ...SMALL_PLAN, mock, template: templateSource(ctx) });
	await (await need(page, 'setup', 'term-hybrid')).click();
	await need(page, 'setup', 'term-hybrid').then((b) =>
		b.locator('xpath=following-sibling::*[@role="note"]').waitFor()
	);
	await visit('setup-filled');
	const runId = await startRun(page);
	await pollRun(page, runId, (r) => r.records >= 3, 30_000, 50);
	await visit('run-live');
	await waitForDone(page, runId, plannedRecords(SMALL_PLAN));
	await page.waitForTimeout(300);
	await visit('run');

	const id = encodeURIComponent(runId);
	await openView(page, ctx.app.url, `#/results/${id}`);
	await page.waitForTimeout(1_500); // the full records and paired intervals follow the first paint
	await visit('results');
	// A phone starts the charts and samples folded: the stop above is the folded page.
	await unfold(page);
	await (await need(page, 'results', 'label-definitions')).locator('summary').click();
	await (await need(page, 'results', 'chart-followup-temp-data')).locator('summary').click();
	await (await need(page, 'results', 'term-Wilson')).click();
	await visit('results-help');
	await (await need(page, 'results', 'sample-row')).click();
	await need(page, 'results', 'sample-detail');
	await visit('results-sample');
	await openView(page, ctx.app.url, '#/runs');
	await need(page, 'runs', 'runs-table');
	await visit('runs');
	await openView(
		page,
		ctx.app.url,
		`#/open?url=${encodeURIComponent(`${ctx.app.url}missing.run.jsonl`)}`
	);
	await need(page, 'open', 'open-error');
	await visit('open-error');
	await openView(page, ctx.app.url, '#/playground');
	await visit('playground');
	// Set-up chose hybrid labelling, so the playground asks the judge too.
	check(
		await (await need(page, 'playground', 'pg-use-judge')).isChecked(),
		'the playground does not use the labelling chosen in set-up (hybrid)'
	);
	await playgroundGenerate(page, 3);
	// The result is where the eye is: the output card was scrolled up as far as the page allows
	// (without the scroll its top sits at the viewport's bottom edge: 832 of 844 px on a phone).
	const top = await (
		await need(page, 'playground', 'pg-output')
	).evaluate((el) => el.getBoundingClientRect().top);
	const height = page.viewportSize()?.height ?? 0;
	check(
		top >= -1 && top <= height * 0.6,
		`the playground output starts at ${Math.round(top)} px, below the upper 60% of the ${height} px viewport`
	);
	await visit('playground-generated');
	await openView(page, ctx.app.url, `#/annotate/${id}`);
	await need(page, 'annotate', 'annotator-name');
	await visit('annotate-start');
	await page.keyboard.type('tour');
	await page.keyboard.press('Enter');
	await need(page, 'annotate', 'annotate-item');
	for (const key of ['1', '3', '4']) await page.keyboard.press(key);
	await visit('annotate');
	await openView(page, ctx.app.url, `#/annotate/${id}?tab=agreement`);
	await need(page, 'annotate', 'kappa-table');
	await visit('annotate-agreement');
}

/** How far the page reaches past the viewport's right edge, and the widest offenders. */
export async function horizontalOverflow(
	page: Page
): Promise<{ docWidth: number; viewport: number; culprits: string[] }> {
	return page.evaluate(() => {
		const viewport = document.documentElement.clientWidth;
		const docWidth = document.documentElement.scrollWidth;
		const culprits: string[] = [];
		if (docWidth > viewport) {
			// Elements whose right edge passes the viewport and that are not inside a scroll region.
			const scrolls = (el: Element | null): boolean => {
				for (let e = el?.parentElement; e; e = e.parentElement) {
					const o = getComputedStyle(e).overflowX;
					if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
				}
				return false;
			};
			for (const el of Array.from(document.body.querySelectorAll('*'))) {
				const r = el.getBoundingClientRect();
				if (r.right > viewport + 1 && !scrolls(el)) {
					const cls = typeof el.className === 'string' && el.className ? `.${el.className}` : '';
					const tid = el.getAttribute('data-testid');
					culprits.push(
						`${el.tagName.toLowerCase()}${cls.split(' ')[0]}${tid ? `[${tid}]` : ''} ${Math.round(r.width)}px`
					);
					if (culprits.length >= 6) break;
				}
			}
		}
		return { docWidth, viewport, culprits };
	});
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), {
	encoding: 'utf8'
});

export interface AxeViolation {
	id: string;
	impact: string | null;
	help: string;
	targets: string[];
}

/**
 * axe-core's WCAG 2.x A/AA and best-practice rules on the page as it is now. The app's CSP forbids
 * inline scripts, so axe is evaluated through the debugging protocol, which CSP does not govern.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
	const loaded = await page.evaluate(() => 'axe' in window);
	if (!loaded) await page.evaluate(AXE_SOURCE);
	return page.evaluate(async () => {
		const axe = (
			window as unknown as {
				axe: {
					run(
						ctx: Document,
						opts: object
					): Promise<{
						violations: {
							id: string;
							impact: string | null;
							help: string;
							nodes: { target: unknown[] }[];
						}[];
					}>;
				};
			}
		).axe;
		const result = await axe.run(document, {
			runOnly: {
				type: 'tag',
				values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']
			},
			resultTypes: ['violations']
		});
		return result.violations.map((v) => ({
			id: v.id,
			impact: v.impact,
			help: v.help,
			targets: v.nodes.slice(0, 3).map((n) => n.target.map(String).join(' '))
		}));
	});
}
