/**
 * The browser half of the bench: serve dist/ on 127.0.0.1, launch Debian's Chromium, measure.
 * Anything that stops a measurement becomes a reason beside a null, never a silent gap.
 */
import { existsSync } from 'node:fs';
import type { RunBundle } from '../../../src/lib/probe/exchange.ts';
import { CHROMIUM, launchBrowser } from '../../e2e/browser.ts';
import { serveBuild } from '../../e2e/server.ts';
import { measureFirstView } from './firstView.ts';
import { measureFirstVisit } from './firstVisit.ts';
import { measureLongTasks } from './longTasks.ts';
import { failed, unavailable, type BrowserMetric } from './metric.ts';
import { measureResults10k } from './results10k.ts';
import { measureServerRatio } from './serverRatio.ts';

export interface BrowserMetrics {
	longestTaskCpuMs: BrowserMetric;
	results10kRenderCpuMs: BrowserMetric;
	serverRatio: BrowserMetric;
	/** Gzipped JS requested before the first view painted: the home screen, and set-up. */
	firstViewJsGzipKB: BrowserMetric;
	setupViewJsGzipKB: BrowserMetric;
	/** A first visit on the throttled profile: precache time, and visits that reloaded unasked. */
	firstVisitPrecacheMs: BrowserMetric;
	firstVisitReloadBeforeClick: BrowserMetric;
	chromium?: string;
}

async function attempt(what: () => Promise<BrowserMetric>): Promise<BrowserMetric> {
	try {
		return await what();
	} catch (err) {
		return failed(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
	}
}

export async function measureBrowser(dist: string, bundle: RunBundle): Promise<BrowserMetrics> {
	if (!existsSync(CHROMIUM)) {
		const reason = `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
		return {
			longestTaskCpuMs: unavailable(reason),
			results10kRenderCpuMs: unavailable(reason),
			serverRatio: unavailable(reason),
			firstViewJsGzipKB: unavailable(reason),
			setupViewJsGzipKB: unavailable(reason),
			firstVisitPrecacheMs: unavailable(reason),
			firstVisitReloadBeforeClick: unavailable(reason)
		};
	}
	const app = await serveBuild(dist);
	const browser = await launchBrowser();
	try {
		const visit = await firstVisit(dist);
		return {
			...visit,
			// First, on a cold profile and an idle page: nothing else loads while they are measured.
			firstViewJsGzipKB: await attempt(() => measureFirstView(browser, app, dist, '#/')),
			setupViewJsGzipKB: await attempt(() => measureFirstView(browser, app, dist, '#/setup')),
			longestTaskCpuMs: await attempt(() => measureLongTasks(browser, app)),
			results10kRenderCpuMs: await attempt(() => measureResults10k(browser, app, bundle)),
			serverRatio: await attempt(() => measureServerRatio(app)),
			chromium: browser.version()
		};
	} finally {
		await browser.close();
		await app.close();
	}
}

/** The first-visit rows, or why they could not be measured (both). */
async function firstVisit(
	dist: string
): Promise<Pick<BrowserMetrics, 'firstVisitPrecacheMs' | 'firstVisitReloadBeforeClick'>> {
	try {
		const { precacheMs, reloads } = await measureFirstVisit(dist);
		return { firstVisitPrecacheMs: precacheMs, firstVisitReloadBeforeClick: reloads };
	} catch (err) {
		const why = failed(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
		return { firstVisitPrecacheMs: why, firstVisitReloadBeforeClick: why };
	}
}

/** Only the first visit on the throttled profile, for trimming the precache (about 2 minutes). */
export async function measureFirstVisitOnly(
	dist: string
): Promise<Pick<BrowserMetrics, 'firstVisitPrecacheMs' | 'firstVisitReloadBeforeClick'>> {
	if (!existsSync(CHROMIUM)) {
		const reason = unavailable(`no Chromium at ${CHROMIUM}`);
		return { firstVisitPrecacheMs: reason, firstVisitReloadBeforeClick: reason };
	}
	return firstVisit(dist);
}

/** Only the 10,000-record results view's open. */
export async function measureResults10kOnly(
	dist: string,
	bundle: RunBundle
): Promise<BrowserMetric> {
	if (!existsSync(CHROMIUM)) return unavailable(`no Chromium at ${CHROMIUM}`);
	const app = await serveBuild(dist);
	const browser = await launchBrowser();
	try {
		return await attempt(() => measureResults10k(browser, app, bundle));
	} finally {
		await browser.close();
		await app.close();
	}
}

/** Only the long-task run, for tuning the live run view without the rest of the bench. */
export async function measureLongTasksOnly(dist: string): Promise<BrowserMetric> {
	if (!existsSync(CHROMIUM)) return unavailable(`no Chromium at ${CHROMIUM}`);
	const app = await serveBuild(dist);
	const browser = await launchBrowser();
	try {
		return await attempt(() => measureLongTasks(browser, app));
	} finally {
		await browser.close();
		await app.close();
	}
}

/** Only the two first-view measurements, for trimming what a view waits for before it paints. */
export async function measureFirstViewsOnly(
	dist: string
): Promise<Pick<BrowserMetrics, 'firstViewJsGzipKB' | 'setupViewJsGzipKB'>> {
	if (!existsSync(CHROMIUM)) {
		const reason = `no Chromium at ${CHROMIUM}`;
		return { firstViewJsGzipKB: unavailable(reason), setupViewJsGzipKB: unavailable(reason) };
	}
	const app = await serveBuild(dist);
	const browser = await launchBrowser();
	try {
		return {
			firstViewJsGzipKB: await attempt(() => measureFirstView(browser, app, dist, '#/')),
			setupViewJsGzipKB: await attempt(() => measureFirstView(browser, app, dist, '#/setup'))
		};
	} finally {
		await browser.close();
		await app.close();
	}
}
