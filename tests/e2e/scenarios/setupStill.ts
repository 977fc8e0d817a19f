/**
 * Set-up shows its form whole: nothing that loads after the first paint (the classroom preset, the
 * start notes, the device check that picks the engine) pushes a shown control down the page. When
 * the preset's card came in above the engine's radios ~150 ms after they showed, the whole form
 * moved 150–450 px (a layout-shift score of 0.17 here) and a click aimed at a radio could land on
 * the card instead: WebKit's set-up step once chose no engine that way under load. Measured with
 * Chromium's layout-shift entries on a cheap-laptop CPU (4× slower), on a desktop and a phone screen.
 */
import type { Page } from 'playwright-core';
import { need } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, type Scenario } from '../harness.ts';

const V = 'setup';
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

async function engineTop(page: Page): Promise<number> {
	return page.evaluate(
		() =>
			document.querySelector('[data-testid="engine-webgpu"]')?.getBoundingClientRect().top ?? NaN
	);
}

export const setupStill: Scenario<E2EContext> = {
	id: 'setup-still',
	title: 'set-up shows its form whole: nothing loaded later moves a shown control (desktop, phone)',
	timeoutMs: 90_000,
	async run(ctx) {
		for (const screen of SCREENS) {
			const { context, page } = await ctx.profile();
			await page.setViewportSize({ width: screen.width, height: screen.height });
			await context.addInitScript({ content: OBSERVE });
			const cdp = await context.newCDPSession(page);
			await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

			await page.goto(new URL('#/setup', ctx.app.url).href);
			await need(page, V, 'engine-webgpu');
			const shownAt = await engineTop(page);
			await page.waitForTimeout(WATCH_MS);
			// Not vacuous: the parts that load after the first paint are on the page.
			await need(page, V, 'classroom');
			await need(page, V, 'start-run');
			const settledAt = await engineTop(page);
			const shifts = await page.evaluate(
				() => (window as unknown as { __shifts: Shift[] }).__shifts
			);
			const score = shifts.reduce((sum, s) => sum + s.value, 0);
			const told = shifts.map((s) => `at ${s.at} ms ${s.value.toFixed(3)}: ${s.moved.join(', ')}`);
			check(
				settledAt === shownAt,
				`${screen.name}: the engine's radios moved from y=${shownAt} to y=${settledAt} after they showed (${told.join(' | ')})`
			);
			check(
				score < MAX_SHIFT,
				`${screen.name}: set-up's layout shifted by ${score.toFixed(3)} (${told.join(' | ')})`
			);
			ctx.note(`${screen.name}: layout shift ${score.toFixed(3)} over ${shifts.length} entries`);
			await cdp.detach();
		}
	}
};
