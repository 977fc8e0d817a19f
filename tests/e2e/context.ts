/**
 * What every scenario gets: the app's URL, the worker's browser, and factories for profiles and mock
 * servers that are cleaned up after the scenario, pass or fail. On failure each open page is
 * screenshotted to test-results/failures/ so CI keeps a picture of what went wrong (the Playwright
 * trace of every context is kept too).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startMockOpenAI, type MockOpenAI } from '../helpers/mockOpenAI.ts';
import { namedScript, type ScriptName } from '../helpers/mockScripts.ts';
import { freshProfile, newContext, type Profile } from './browser.ts';
import { REPO_ROOT, type StaticServer } from './server.ts';

export const RESULTS_DIR = join(REPO_ROOT, 'test-results');
export const SHOTS_DIR = join(RESULTS_DIR, 'screenshots');
const FAILURES_DIR = join(RESULTS_DIR, 'failures');

/** The model name the mock serves; generator and judge are the same served model in e2e. */
export const MOCK_MODEL = 'mock-model';

export interface E2EContext {
	app: StaticServer;
	browser: Browser;
	/** A new context in the shared browser (own storage); closed after the scenario. */
	profile(): Promise<Profile>;
	/** A new browser with its own user-data-dir; closed and deleted after the scenario. */
	freshProfile(opts?: { webgpu?: boolean }): Promise<Profile>;
	/** A scripted OpenAI-compatible server on 127.0.0.1; closed after the scenario. */
	mock(
		script?: ScriptName,
		opts?: { tokenDelayMs?: number; models?: string[] }
	): Promise<MockOpenAI>;
	/** Full-page screenshot to test-results/screenshots/NAME.png; returns the path. */
	screenshot(page: Page, name: string): Promise<string>;
	/** A line for the summary (what was measured, what was seen). */
	note(text: string): void;
}

/** What a scenario left behind: lines for the report, failure screenshots, and a failure of its own. */
export interface Aftermath {
	notes: string[];
	screenshots: string[];
	/** What a scenario cannot see from inside: an uncaught page error. */
	failure?: string;
}

/**
 * The context one scenario runs with, and `finish`, which closes every profile and mock server it
 * opened (pass or fail) and reports what happened in its pages.
 */
export function scenarioContext(
	app: StaticServer,
	browser: Browser
): { ctx: E2EContext; finish(id: string, failed: boolean): Promise<Aftermath> } {
	const profiles: Profile[] = [];
	const mocks: MockOpenAI[] = [];
	const notes: string[] = [];
	const ctx: E2EContext = {
		app,
		browser,
		async profile() {
			const p = await newContext(browser);
			profiles.push(p);
			return p;
		},
		async freshProfile(opts = {}) {
			const p = await freshProfile(opts.webgpu ?? true);
			profiles.push(p);
			return p;
		},
		async mock(script = 'default', opts = {}) {
			const models = opts.models ?? [MOCK_MODEL];
			const m = await startMockOpenAI({ script: namedScript(script), models });
			m.tokenDelayMs = opts.tokenDelayMs ?? 0;
			mocks.push(m);
			return m;
		},
		async screenshot(page, name) {
			mkdirSync(SHOTS_DIR, { recursive: true });
			const path = join(SHOTS_DIR, `${name}.png`);
			const scroll = await page.evaluate(() => [scrollX, scrollY] as const);
			await page.screenshot({ path, fullPage: true });
			// Headless Chromium leaves a full-page capture with the page scrolled but its input
			// hit-testing not: the next click can land on another element. Scrolling back resyncs.
			await page.evaluate(([x, y]) => scrollTo(x, y), scroll);
			return path;
		},
		note: (text) => notes.push(text)
	};

	async function finish(id: string, failed: boolean): Promise<Aftermath> {
		const out: Aftermath = { notes: [...notes], screenshots: [] };
		const problems: string[] = [];
		for (const [i, p] of profiles.entries()) {
			if (failed) {
				mkdirSync(FAILURES_DIR, { recursive: true });
				for (const [j, page] of p.context.pages().entries()) {
					const path = join(FAILURES_DIR, `${id}-${i}-${j}.png`);
					const shot = await page.screenshot({ path, fullPage: true }).catch(() => null);
					if (shot) out.screenshots.push(path);
					out.notes.push(`failure screenshot: ${path} (${page.url()})`);
				}
			}
			problems.push(...p.watch.pageErrors.map((e) => `uncaught page error: ${e}`));
			const logged = [...new Set(p.watch.consoleErrors)];
			if (logged.length > 0) {
				out.notes.push(
					`console errors (${logged.length}): ${logged.slice(0, 3).join(' | ').slice(0, 400)}`
				);
			}
			if (p.watch.blocked.length > 0) {
				const hosts = [...new Set(p.watch.blocked.map((u) => new URL(u).host))];
				out.notes.push(
					`blocked ${p.watch.blocked.length} non-loopback request(s) to ${hosts.join(', ')}`
				);
			}
			await p.close().catch(() => {});
		}
		for (const m of mocks) await m.close().catch(() => {});
		if (problems.length > 0) out.failure = problems.join('\n    ');
		return out;
	}

	return { ctx, finish };
}
