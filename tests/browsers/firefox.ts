/**
 * Debian's Firefox ESR driven over WebDriver BiDi by puppeteer-core (no geckodriver, nothing
 * downloaded). Its own throwaway profile; every request off 127.0.0.1 goes to the blocking proxy.
 */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { Driver, UI_TIMEOUT_MS } from './driver.ts';

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export interface FirefoxOptions {
	/** The blocking proxy's port. */
	proxyPort: number;
	/** More preferences for this profile, e.g. a WebAssembly feature turned off. */
	prefs?: Record<string, string | number | boolean>;
}

export class FirefoxDriver extends Driver {
	readonly name = 'firefox';
	/** Uncaught errors in the page, for the scenario to judge. */
	readonly pageErrors: string[] = [];

	private constructor(
		private readonly browser: Browser,
		private readonly page: Page,
		readonly version: string
	) {
		super();
		page.on('pageerror', (err) => this.pageErrors.push(String(err)));
	}

	static async launch(opts: FirefoxOptions): Promise<FirefoxDriver> {
		if (!existsSync(FIREFOX)) {
			throw new Error(
				`No Firefox at ${FIREFOX}: apt-get install -y firefox-esr, or set FIREFOX_PATH.`
			);
		}
		const browser = await puppeteer.launch({
			browser: 'firefox',
			executablePath: FIREFOX,
			headless: true,
			// The pages' and workers' console on stderr, to see what a hung step was doing.
			dumpio: process.env.BROWSERS_CONSOLE === '1',
			// Release builds honour services.settings.server (below) only with this set.
			env: { ...process.env, MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' },
			defaultViewport: { width: 1280, height: 900 },
			extraPrefsFirefox: {
				'network.proxy.type': 1,
				'network.proxy.http': '127.0.0.1',
				'network.proxy.http_port': opts.proxyPort,
				'network.proxy.ssl': '127.0.0.1',
				'network.proxy.ssl_port': opts.proxyPort,
				'network.proxy.no_proxies_on': 'localhost, 127.0.0.1',
				'network.proxy.allow_hijacking_localhost': false,
				// Firefox's own remote settings would knock on the proxy (puppeteer's dummy.test host
				// included); Mozilla's test harness points them nowhere the same way, so what the
				// proxy sees is the app's alone.
				'services.settings.server': 'data:,#remote-settings-dummy/v1',
				'devtools.console.stdout.content': process.env.BROWSERS_CONSOLE === '1',
				...opts.prefs
			}
		});
		try {
			const page = (await browser.pages())[0] ?? (await browser.newPage());
			page.setDefaultTimeout(UI_TIMEOUT_MS);
			return new FirefoxDriver(browser, page, await browser.version());
		} catch (err) {
			await browser.close();
			throw err;
		}
	}

	protected evaluateText<R>(expression: string): Promise<R> {
		return this.page.evaluate(expression) as Promise<R>;
	}

	async goto(url: string): Promise<void> {
		await this.page.goto(url, { waitUntil: 'load' });
	}

	async reload(): Promise<void> {
		await this.page.reload({ waitUntil: 'load' });
	}

	protected async clickSelector(selector: string): Promise<void> {
		await this.page.locator(selector).click();
	}

	protected async fillSelector(selector: string, value: string): Promise<void> {
		await this.page.locator(selector).fill(value);
	}

	protected async selectSelector(selector: string, value: string): Promise<void> {
		await this.page.select(selector, value);
	}

	async close(): Promise<void> {
		await this.browser.close();
	}
}
