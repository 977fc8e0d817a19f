/**
 * A view shows its controls where they stay: nothing that loads after the first paint pushes a
 * shown control down the page. On set-up, the classroom preset's card came in above the engine's
 * radios ~150 ms after they showed and the device check then grew the panel above it: the form
 * moved 150–450 px (a layout-shift score of 0.17–0.20) and a click aimed at a radio could land on
 * the card instead (WebKit's set-up step once chose no engine that way under load). On the runs
 * list, the list read from IndexedDB pushed "Open a run" and the import below it down 228–320 px
 * (0.12 on a desktop, 0.25 on a phone). On "See what the model sees", the rendered prompt pushed
 * the user-turn box and its examples down (0.07 on a desktop). Measured with Chromium's
 * layout-shift entries on a cheap-laptop CPU (4× slower), on a desktop and a phone screen.
 */
import type { Page } from 'playwright-core';
import { need } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, type Scenario } from '../harness.ts';

/** Each view: a control shown at once (it must not move) and parts that come later (they must come). */
const VIEWS = [
	{ view: 'setup', hash: '#/setup', anchor: 'engine-webgpu', later: ['classroom', 'start-run'] },
	{ view: 'runs', hash: '#/runs', anchor: 'import-files', later: ['runs-empty'] },
	{ view: 'see', hash: '#/see', anchor: 'see-turn', later: ['see-prompt'] }
] as const;
/** After the form shows, how long to watch for late movers (sizes, context window, estimate). */
const WATCH_MS = 2500;
/** Web Vitals call under 0.1 good; any one late card above the engine scored 0.07 here. */
const MAX_SHIFT = 0.01;

const SCREENS = [
	{ name: 'desktop', width: 1280, height: 900 },
	{ name: 'phone', width: 390, height: 844 }
] as const;

/** Installed before the app: every layout shift not caused by input, with what moved and how far. */
const OBSERVE = `(() => {
	window.__shifts = [];
	new PerformanceObserver((list) => {
		for (const e of list.getEntries()) {
			if (e.hadRecentInput) continue;
			window.__shifts.push({
				at: Math.round(e.startTime),
				value: e.value,
				moved: (e.sources || []).map((s) =>
					(s.node && s.node.nodeType === 1 ? s.node.tagName.toLowerCase() + (s.node.dataset.testid ? '[' + s.node.dataset.testid + ']' : '.' + String(s.node.className).split(' ')[0]) : '#text') +
					' ' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y))
			});
		}
	}).observe({ type: 'layout-shift', buffered: true });
})();`;

interface Shift {
	at: number;
	value: number;
	moved: string[];
}

async function topOf(page: Page, testId: string): Promise<number> {
	return page.evaluate(
		(sel) => document.querySelector(sel)?.getBoundingClientRect().top ?? NaN,
		`[data-testid="${testId}"]`
	);
}

export const viewsStill: Scenario<E2EContext> = {
	id: 'views-still',
	title:
		'set-up, the runs list and #/see: nothing loaded after the first paint moves a shown control (desktop, phone)',
	timeoutMs: 120_000,
	async run(ctx) {
		for (const { view, hash, anchor, later } of VIEWS) {
			for (const screen of SCREENS) {
				const { context, page } = await ctx.profile();
				await page.setViewportSize({ width: screen.width, height: screen.height });
				await context.addInitScript({ content: OBSERVE });
				const cdp = await context.newCDPSession(page);
				await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

				await page.goto(new URL(hash, ctx.app.url).href);
				await need(page, view, anchor);
				const shownAt = await topOf(page, anchor);
				await page.waitForTimeout(WATCH_MS);
				// Not vacuous: the parts that come after the first paint are on the page.
				for (const id of later) await need(page, view, id);
				const settledAt = await topOf(page, anchor);
				const shifts = await page.evaluate(
					() => (window as unknown as { __shifts: Shift[] }).__shifts
				);
				const score = shifts.reduce((sum, s) => sum + s.value, 0);
				const told = shifts
					.map((s) => `at ${s.at} ms ${s.value.toFixed(3)}: ${s.moved.join(', ')}`)
					.join(' | ');
				const where = `${view}, ${screen.name}`;
				check(
					settledAt === shownAt,
					`${where}: [data-testid="${anchor}"] moved from y=${shownAt} to y=${settledAt} after it showed (${told})`
				);
				check(score < MAX_SHIFT, `${where}: the layout shifted by ${score.toFixed(3)} (${told})`);
				ctx.note(`${where}: layout shift ${score.toFixed(3)} over ${shifts.length} entries`);
				await cdp.detach();
			}
		}
	}
};
