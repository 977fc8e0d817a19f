/**
 * One small driving surface over two protocols, so every cross-browser scenario is written once:
 * Firefox over WebDriver BiDi (puppeteer-core) and WebKitGTK over classic WebDriver (WebdriverIO).
 * Each driver implements a few primitives; waiting, reading and the data-testid helpers are
 * shared here. Elements are named by data-testid, as in the Chromium e2e.
 */
import { E2EFailure } from '../e2e/harness.ts';
import type { PageEvaluator } from '../e2e/idb.ts';

export const UI_TIMEOUT_MS = 15_000;

export type BrowserName = 'firefox' | 'webkit';

/**
 * tsx compiles with esbuild's keepNames, which wraps named inner functions in `__name(…)`; a
 * function sent to the page as text needs that helper there.
 */
const NAME_SHIM = '(globalThis.__name ??= (f) => f)';

/** `fn(arg)` as one expression for the page, the argument inlined as JSON. */
export function callText(fn: (arg: never) => unknown, arg: unknown): string {
	return `(${NAME_SHIM}, (${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)}))`;
}

const byTestId = (id: string) => `[data-testid="${id}"]`;

export abstract class Driver implements PageEvaluator {
	abstract readonly name: BrowserName;
	/** Browser and version as the browser reports it. */
	abstract readonly version: string;

	/** Run `expression` (which may be a promise) in the page and return its JSON value. */
	protected abstract evaluateText<R>(expression: string): Promise<R>;
	abstract goto(url: string): Promise<void>;
	abstract reload(): Promise<void>;
	protected abstract clickSelector(selector: string): Promise<void>;
	protected abstract fillSelector(selector: string, value: string): Promise<void>;
	protected abstract selectSelector(selector: string, value: string): Promise<void>;
	abstract close(): Promise<void>;

	evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
		return this.evaluateText<R>(callText(fn as (arg: never) => unknown, arg));
	}

	/** `fn(the first element matching selector, or null, arg)` in the page. */
	evaluateOn<R, A>(selector: string, fn: (el: Element | null, arg: A) => R, arg: A): Promise<R> {
		const call = `(${fn.toString()})(document.querySelector(${JSON.stringify(selector)}), ${JSON.stringify(arg)})`;
		return this.evaluateText<R>(`(${NAME_SHIM}, ${call})`);
	}

	url(): Promise<string> {
		return this.evaluate(() => location.href, undefined);
	}

	/** Poll `read` until it returns something truthy; fail with `what`. */
	async waitFor<R>(read: () => Promise<R>, what: string, timeoutMs = UI_TIMEOUT_MS): Promise<R> {
		const end = Date.now() + timeoutMs;
		let last: unknown;
		for (;;) {
			try {
				const value = await read();
				if (value) return value;
			} catch (err) {
				// A page that is navigating has no document to ask; ask again.
				last = err;
			}
			if (Date.now() > end) {
				const why = last instanceof Error ? ` (last error: ${last.message})` : '';
				throw new E2EFailure(`${this.name}: ${what} within ${timeoutMs} ms${why}`);
			}
			await new Promise((r) => setTimeout(r, 150));
		}
	}

	/** Poll `fn(arg)` in the page until it returns something truthy; fail with `what`. */
	waitUntil<R, A>(
		fn: (arg: A) => R | Promise<R>,
		arg: A,
		what: string,
		timeoutMs = UI_TIMEOUT_MS
	): Promise<R> {
		return this.waitFor(() => this.evaluate(fn, arg), what, timeoutMs);
	}

	/** Wait until the element with this data-testid is visible; the failure names view and id. */
	async need(view: string, testId: string, timeoutMs = UI_TIMEOUT_MS): Promise<void> {
		await this.waitUntil(
			(sel) => {
				const el = document.querySelector(sel);
				return el !== null && el.getClientRects().length > 0;
			},
			byTestId(testId),
			`${view} view: no visible [data-testid="${testId}"]`,
			timeoutMs
		);
	}

	/** Open a route (e.g. '#/runs') and wait for its view to replace "Loading…". */
	async openView(appUrl: string, hash: string): Promise<void> {
		const target = new URL(hash, appUrl).href;
		if ((await this.url()).split('#')[0] === target.split('#')[0]) {
			await this.evaluate((h) => (location.hash = h), hash);
		} else {
			await this.goto(target);
		}
		await this.waitUntil(
			() =>
				document.querySelector('main') !== null &&
				!document.querySelector('main [aria-busy="true"]'),
			undefined,
			`${hash} did not finish loading`
		);
	}

	async text(view: string, testId: string): Promise<string> {
		await this.need(view, testId);
		return this.evaluate(
			(sel) => (document.querySelector(sel) as HTMLElement).innerText,
			byTestId(testId)
		);
	}

	async count(testId: string): Promise<number> {
		return this.evaluate((sel) => document.querySelectorAll(sel).length, byTestId(testId));
	}

	async click(view: string, testId: string): Promise<void> {
		await this.need(view, testId);
		await this.clickSelector(byTestId(testId));
	}

	/**
	 * Set an input, select, checkbox or radio the way a person does (typing, choosing, clicking);
	 * the control must be visible first.
	 */
	async set(view: string, testId: string, value: string | boolean): Promise<void> {
		await this.need(view, testId);
		const sel = byTestId(testId);
		const kind = await this.evaluate((s) => {
			const el = document.querySelector(s) as HTMLInputElement;
			return { tag: el.tagName.toLowerCase(), type: el.type ?? '', checked: el.checked === true };
		}, sel);
		if (typeof value === 'boolean') {
			if (kind.tag === 'input' && (kind.type === 'checkbox' || kind.type === 'radio')) {
				if (kind.checked === value) return;
				await this.clickSelector(sel);
				// A click that lands elsewhere (the page moved under it) must fail here, by name.
				await this.waitUntil(
					([s, want]) => (document.querySelector(s) as HTMLInputElement).checked === want,
					[sel, value] as const,
					`${view} view: clicking [data-testid="${testId}"] did not make it ${value ? 'checked' : 'unchecked'}`
				);
			} else if (value) {
				await this.clickSelector(sel);
			}
		} else if (kind.tag === 'select') {
			await this.selectSelector(sel, value);
		} else {
			await this.fillSelector(sel, value);
		}
		if (typeof value === 'string') {
			const now = await this.evaluate(
				(s) => (document.querySelector(s) as HTMLInputElement).value,
				sel
			);
			if (now !== value)
				throw new E2EFailure(
					`${this.name}: ${view} view: ${testId} reads "${now}", not "${value}"`
				);
		}
	}
}
