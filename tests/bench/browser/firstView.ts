/**
 * The JavaScript a first visit needs before its view shows: the page is opened fresh in Chromium,
 * an observer installed before the app's first script notes the frame after the view's heading
 * appears, and every script the page requested before that frame (Resource Timing) is counted,
 * each file gzipped from dist/. What loads later while the browser is idle (the next views' chunks)
 * does not count; what the view waited for does, however it was split.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { newContext } from '../../e2e/browser.ts';
import type { StaticServer } from '../../e2e/server.ts';
import { round } from '../stats.ts';
import { failed, measured, type BrowserMetric } from './metric.ts';

export const FIRST_VIEW_METHOD =
	'Fresh Chromium context per view; a MutationObserver installed before the app loads marks the ' +
	'animation frame after `main h1` first appears (the frame that paints the view). Every .js resource ' +
	'whose request started before that mark (performance.getEntriesByType("resource"), plus the ' +
	'entry) is gzipped from dist/ and summed. Median of 3 loads.';

const LOADS = 3;

/** Installed before any page script: the page clock time of the view's first paint. */
const PAINT_MARK = `(() => {
	const seen = () => document.querySelector('main h1');
	const mark = () =>
		requestAnimationFrame(() => (window.__benchViewPaint = performance.now()));
	const watch = () => {
		if (seen()) return mark();
		const obs = new MutationObserver(() => {
			if (!seen()) return;
			obs.disconnect();
			mark();
		});
		obs.observe(document.documentElement, { childList: true, subtree: true });
	};
	if (document.documentElement) watch();
	else document.addEventListener('DOMContentLoaded', watch);
})();`;

interface Fetched {
	files: string[];
	paintMs: number;
}

async function loadOnce(browser: Browser, url: string): Promise<Fetched> {
	// A first visit, measured before the service worker exists: its reload would cut the reading.
	const profile = await newContext(browser, { serviceWorkers: 'block' });
	try {
		await profile.context.addInitScript({ content: PAINT_MARK });
		const { page } = profile;
		await page.goto(url);
		await page.waitForFunction(
			() => (window as unknown as { __benchViewPaint?: number }).__benchViewPaint !== undefined,
			undefined,
			{ timeout: 60_000 }
		);
		return await page.evaluate(() => {
			const paint = (window as unknown as { __benchViewPaint: number }).__benchViewPaint;
			const files = performance
				.getEntriesByType('resource')
				.filter((e) => e.startTime < paint && new URL(e.name).pathname.endsWith('.js'))
				.map((e) => new URL(e.name).pathname);
			return { files, paintMs: paint };
		});
	} finally {
		await profile.close().catch(() => {});
	}
}

/** Gzipped KB of the scripts a view needed before it painted, the median of a few fresh loads. */
export async function measureFirstView(
	browser: Browser,
	app: StaticServer,
	dist: string,
	hash: string
): Promise<BrowserMetric> {
	const loads: { kb: number; files: number; paintMs: number }[] = [];
	for (let i = 0; i < LOADS; i++) {
		const { files, paintMs } = await loadOnce(browser, `${app.url}${hash}`);
		const unique = [...new Set(files)];
		if (unique.length === 0) return failed(`no script was requested before ${hash} painted`);
		const bytes = unique.reduce((sum, path) => {
			const file = join(dist, decodeURIComponent(path).replace(/^\/+/, ''));
			return sum + gzipSync(readFileSync(file)).length;
		}, 0);
		loads.push({ kb: round(bytes / 1024), files: unique.length, paintMs: Math.round(paintMs) });
	}
	loads.sort((a, b) => a.kb - b.kb);
	const mid = loads[Math.floor(loads.length / 2)];
	return measured(
		mid.kb,
		`${mid.files} scripts before ${hash} painted at ${mid.paintMs} ms (loads: ${loads.map((l) => `${l.kb} KB`).join(', ')})`
	);
}
