/**
 * Debian's headless Chromium, driven by playwright-core. WebGPU is real here (SwiftShader, no
 * shader-f16). Every context gets the same guards: only loopback requests leave the page (nothing
 * may reach Hugging Face), uncaught page errors and dialogs are recorded for the scenario to judge.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const BASE_ARGS = [
	'--headless=new',
	'--no-sandbox',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run'
];

/** With WebGPU (the default) or without the unsafe-WebGPU switch, as a plain headless Linux is. */
export function chromiumArgs(webgpu = true): string[] {
	return webgpu ? [...BASE_ARGS, '--enable-unsafe-webgpu'] : BASE_ARGS;
}

export function assertChromium(): void {
	if (!existsSync(CHROMIUM)) {
		throw new Error(
			`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`
		);
	}
}

export function launchBrowser(webgpu = true): Promise<Browser> {
	return chromium.launch({ executablePath: CHROMIUM, args: chromiumArgs(webgpu) });
}

/** Every host but 127.0.0.1 unreachable, with no request routed through playwright. */
export const LOOPBACK_ONLY_ARG = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

/**
 * Chromium whose contexts' requests are kept on loopback by a resolver rule rather than by
 * guard()'s routing, which pauses every request until the test process answers it (and turns the
 * HTTP cache off): a measurement must not count that. Its contexts come from browser.newContext.
 */
export function launchLoopbackBrowser(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM,
		args: [...chromiumArgs(), LOOPBACK_ONLY_ARG]
	});
}

/** What happened in a context that a scenario may want to fail on. */
export interface Watch {
	/** Uncaught exceptions and unhandled rejections in any page. */
	pageErrors: string[];
	/** alert/confirm/prompt texts (each is dismissed so the page never blocks). */
	dialogs: string[];
	/** Requests that tried to leave 127.0.0.1 (aborted). */
	blocked: string[];
	/** console.error lines, for the summary (not failures: apps log handled errors too). */
	consoleErrors: string[];
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * tsx compiles with esbuild's keepNames, which wraps named inner functions of a page.evaluate
 * callback in `__name(…)`; the page has no such helper unless we give it one.
 */
export const NAME_SHIM = 'globalThis.__name ??= (f) => f;';

export async function guard(context: BrowserContext): Promise<Watch> {
	const watch: Watch = { pageErrors: [], dialogs: [], blocked: [], consoleErrors: [] };
	await context.addInitScript({ content: NAME_SHIM });
	await context.route('**/*', (route) => {
		const url = new URL(route.request().url());
		const local = LOOPBACK.has(url.hostname) || !/^https?:$/.test(url.protocol);
		if (local) return route.continue();
		watch.blocked.push(url.href);
		return route.abort('internetdisconnected');
	});
	const onPage = (page: Page) => {
		page.on('pageerror', (err) => watch.pageErrors.push(`${err.name}: ${err.message}`));
		page.on('console', (msg) => {
			if (msg.type() === 'error') watch.consoleErrors.push(msg.text());
		});
		page.on('dialog', (dialog) => {
			watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
			void dialog.dismiss().catch(() => {});
		});
	};
	context.pages().forEach(onPage);
	context.on('page', onPage);
	return watch;
}

export interface Profile {
	context: BrowserContext;
	page: Page;
	watch: Watch;
	close(): Promise<void>;
}

/**
 * A context in the shared browser: its own storage, like an incognito window. `serviceWorkers:
 * 'block'` keeps the app's service worker (and the reload a first visit makes for it) out.
 */
export async function newContext(
	browser: Browser,
	opts: { serviceWorkers?: 'allow' | 'block' } = {}
): Promise<Profile> {
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...opts });
	const watch = await guard(context);
	const page = await context.newPage();
	return { context, page, watch, close: () => context.close() };
}

/** A fresh browser profile on disk (its own user-data-dir), thrown away on close. */
export async function freshProfile(webgpu = true): Promise<Profile> {
	const dir = mkdtempSync(join(tmpdir(), 'utp-e2e-profile-'));
	const context = await chromium.launchPersistentContext(dir, {
		executablePath: CHROMIUM,
		args: chromiumArgs(webgpu),
		viewport: { width: 1280, height: 900 },
		acceptDownloads: true
	});
	const watch = await guard(context);
	const page = context.pages()[0] ?? (await context.newPage());
	return {
		context,
		page,
		watch,
		close: async () => {
			await context.close();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}
