/**
 * Driving the app's views through their data-testids. Every helper fails with a message naming
 * the view and the test id it needed, so a view that is not built yet fails honestly and clearly.
 */
import type { Locator, Page } from 'playwright-core';
import type { MockOpenAI } from '../helpers/mockOpenAI.ts';
import { MOCK_MODEL } from './context.ts';
import { check, E2EFailure } from './harness.ts';
import { pollRun, type StoredRun } from './idb.ts';
import { demoPlanControls, type Control } from './setupControls.ts';

export const UI_TIMEOUT_MS = 10_000;
/** The fixture template e2e runs use (Qwen2.5 ChatML), served by the static server. */
export const TEMPLATE_FILE = 'Qwen__Qwen2.5-0.5B-Instruct.jinja';
/** A bare .jinja carries no special tokens; Qwen2.5 ends a turn with this one. */
const TEMPLATE_EOS = '<|im_end|>';

/** The service worker installs (precaching the app shell) before the page can reload into it. */
const ISOLATION_TIMEOUT_MS = 30_000;

/**
 * Whether the page is (or within the timeout becomes) cross-origin isolated. Survives the page's
 * own reload: each poll asks whichever document is current.
 */
export async function waitForIsolation(
	page: Page,
	timeoutMs = ISOLATION_TIMEOUT_MS
): Promise<boolean> {
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		const isolated = await page.evaluate(() => crossOriginIsolated).catch(() => false);
		if (isolated) return true;
		await new Promise((r) => setTimeout(r, 100));
	}
	return false;
}

/**
 * Whether the service worker's caches hold a file matching each of `wanted` (pathname patterns),
 * waiting for them up to `timeoutMs`: how a scenario knows a first visit's hand-off is done.
 */
export async function cachedWithin(
	page: Page,
	wanted: readonly RegExp[],
	timeoutMs: number
): Promise<boolean> {
	return page.evaluate(
		async ({ patterns, timeoutMs }) => {
			const want = patterns.map((p) => new RegExp(p));
			const until = Date.now() + timeoutMs;
			while (Date.now() < until) {
				const paths: string[] = [];
				for (const name of await caches.keys()) {
					for (const req of await (await caches.open(name)).keys()) {
						paths.push(new URL(req.url).pathname);
					}
				}
				if (want.every((w) => paths.some((p) => w.test(p)))) return true;
				await new Promise((r) => setTimeout(r, 200));
			}
			return false;
		},
		{ patterns: wanted.map((w) => w.source), timeoutMs }
	);
}

/** The chunks a first visit warms once the service worker takes over (App.svelte, OFFLINE_VIEWS). */
export const WARMED_CHUNKS = [
	/\/RunsView-[\w-]+\.js$/,
	/\/ResultsView-[\w-]+\.js$/,
	/\/appParts-[\w-]+\.js$/
];

/** Open a route of the app (e.g. '#/runs') and wait for its view to replace "Loading…". */
export async function openView(page: Page, appUrl: string, hash: string): Promise<void> {
	const target = new URL(hash, appUrl).href;
	// A hash-only change does not navigate; a full goto is what a pasted link does.
	if (page.url().split('#')[0] === target.split('#')[0]) {
		await page.evaluate((h) => (location.hash = h), hash);
	} else {
		// A first visit never reloads itself while read (isolation.ts): steps may begin at once.
		await page.goto(target);
	}
	await page
		.locator('main [aria-busy="true"]')
		.waitFor({ state: 'detached', timeout: UI_TIMEOUT_MS });
}

/** Open every folded section of the view (a phone starts them folded), as a reader who reads on. */
export async function unfold(page: Page): Promise<void> {
	// One at a time: the selector matches fewer after each click.
	const folded = page.locator('main .fold-head button[aria-expanded="false"]');
	for (let n = await folded.count(); n > 0; n--) await folded.first().click();
}

/** The element with this data-testid, which must appear; the failure names view and id. */
/**
 * A chart's "Data as a table", opened: the table is built only when its details open (a closed one is
 * read by no one), so a test that reads it opens it first, as a reader does.
 */
export async function chartData(page: Page, testid: string): Promise<Locator> {
	const data = page.getByTestId(`${testid}-data`);
	if (!(await data.evaluate((el) => (el as HTMLDetailsElement).open))) {
		await data.locator('summary').click();
	}
	// The table is built once the details is open (ChartCanvas.svelte): a read right after the
	// click can come before that render and find only the summary.
	await data.getByTestId(`${testid}-rows`).waitFor({ state: 'attached', timeout: UI_TIMEOUT_MS });
	return data;
}

export async function need(page: Page | Locator, view: string, testId: string): Promise<Locator> {
	const el = page.getByTestId(testId).first();
	try {
		await el.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	} catch {
		throw new E2EFailure(`${view} view: no visible [data-testid="${testId}"] (not built yet?)`);
	}
	return el;
}

/** Set an input, select or checkbox/radio to `value` whatever kind of control it is. */
export async function setControl(el: Locator, value: string | boolean): Promise<void> {
	const tag = await el.evaluate((e) => e.tagName.toLowerCase());
	const type = await el.evaluate((e) => (e instanceof HTMLInputElement ? e.type : ''));
	if (typeof value === 'boolean') {
		if (tag === 'input' && (type === 'checkbox' || type === 'radio')) await el.setChecked(value);
		else if (value) await el.click();
		return;
	}
	if (tag === 'select') {
		// By value first, then by visible label.
		const byValue = await el.evaluate(
			(e, v) => Array.from((e as HTMLSelectElement).options).some((o) => o.value === v),
			value
		);
		await el.selectOption(byValue ? { value } : { label: value });
	} else {
		await el.fill(value);
	}
}

export interface RunSetup {
	mock: MockOpenAI;
	/** A URL the app fetches, or a local file uploaded through the file input. */
	template: { url: string } | { file: string };
	items: number;
	temperatures: readonly number[];
	truncate: boolean;
	samples: number;
	judgeMode: 'rules' | 'llm' | 'hybrid';
	seed?: number;
}

/** The run's shape, without where the server and template are. */
export type RunPlan = Omit<RunSetup, 'mock' | 'template'>;

/** Fill the set-up view for an OpenAI-engine run against the mock server (demo dataset). */
export async function configureRun(page: Page, s: RunSetup): Promise<void> {
	const v = 'setup';
	await setControl(await need(page, v, 'engine-server'), true);
	await setControl(await need(page, v, 'base-url'), s.mock.url);
	await setControl(await need(page, v, 'model-id'), MOCK_MODEL);
	await setControl(await need(page, v, 'judge-model-id'), MOCK_MODEL);
	await provideTemplate(page, s.template);
	await fillControls(page, demoPlanControls({ ...s, temperatures: s.temperatures.join(', ') }));
	await setControl(await need(page, v, 'judge-mode'), s.judgeMode);
}

/** Set set-up's controls in order; an optional one that this set-up does not show is skipped. */
export async function fillControls(page: Page, controls: readonly Control[]): Promise<void> {
	for (const c of controls) {
		const el = c.optional ? page.getByTestId(c.id).first() : await need(page, 'setup', c.id);
		if (c.optional && (await el.count()) === 0) continue;
		await setControl(el, c.value);
	}
}

/** Items from the user's own file instead of the demo set: all `items` of it must read. */
export async function uploadDataset(
	page: Page,
	file: string | { name: string; mimeType: string; buffer: Buffer },
	items: number
): Promise<void> {
	const v = 'setup';
	await setControl(await need(page, v, 'dataset-select'), 'upload');
	await (await need(page, v, 'dataset-file')).setInputFiles(file);
	const read = (await (await need(page, v, 'dataset-file-ok')).innerText()).trim();
	const name = typeof file === 'string' ? file : file.name;
	check(read.includes(`${items} items read`), `the uploaded file ${name} reads "${read}"`);
	await setControl(await need(page, v, 'n-items'), String(items));
}

/**
 * The template comes from our loopback server or a local file, never from Hugging Face; the
 * set-up view's check must read the ChatML user header off it.
 */
async function provideTemplate(page: Page, t: RunSetup['template']): Promise<void> {
	const v = 'setup';
	if ('url' in t) {
		await setControl(await need(page, v, 'template-kind-url'), true);
		await setControl(await need(page, v, 'template-url'), t.url);
	} else {
		await setControl(await need(page, v, 'template-kind-file'), true);
		await (await need(page, v, 'template-file')).setInputFiles(t.file);
	}
	await setControl(await need(page, v, 'template-eos'), TEMPLATE_EOS);
	await (await need(page, v, 'check-template')).click();
	const status = await need(page, v, 'template-status');
	try {
		await status.getByText('<|im_start|>user').waitFor({ timeout: UI_TIMEOUT_MS });
	} catch {
		throw new E2EFailure(
			`setup view: template check did not show the ChatML user header: "${await status.innerText()}"`
		);
	}
}

/** Click start and return the new run's id, read from the #/run/ID route the app goes to. */
export async function startRun(page: Page): Promise<string> {
	const start = await need(page, 'setup', 'start-run');
	if (await start.isDisabled()) {
		const problems = await page.getByTestId('setup-problems').allInnerTexts();
		throw new E2EFailure(
			`setup view: start-run is disabled: ${problems.join(' | ') || '(no problems listed)'}`
		);
	}
	await start.click();
	try {
		await page.waitForURL(/#\/run\/[^/?]+/, { timeout: UI_TIMEOUT_MS });
	} catch {
		const alert = await page.getByRole('alert').or(page.getByTestId('start-error')).allInnerTexts();
		throw new E2EFailure(
			`setup view: start-run did not open #/run/ID (url ${page.url()})${alert.length ? `; alert: ${alert.join(' | ')}` : ''}`
		);
	}
	const match = /#\/run\/([^/?]+)/.exec(page.url());
	check(match, `no run id in ${page.url()}`);
	return decodeURIComponent(match[1]);
}

/** Wait until the stored run is done with every planned record labelled. */
export async function waitForDone(
	page: Page,
	runId: string,
	planned: number,
	timeoutMs = 60_000
): Promise<StoredRun> {
	const run = await pollRun(
		page,
		runId,
		(r) => r.status === 'done' && r.labelled >= planned,
		timeoutMs,
		250
	);
	check(
		run && run.status === 'done',
		`run ${runId} did not finish in ${timeoutMs} ms (stored: ${JSON.stringify(run)})`
	);
	return run;
}

/** A percentage shown in the UI ("42%", "42.0 %", "0.42"), as a number in 0..100. */
export function readRate(text: string): number | null {
	const pct = /(-?\d+(?:\.\d+)?)\s*%/.exec(text);
	if (pct) return Number(pct[1]);
	const frac = /\b(0(?:\.\d+)?|1(?:\.0+)?)\b/.exec(text);
	return frac ? Number(frac[1]) * 100 : null;
}

/**
 * Saturated pixels on a chart canvas below its legend strip: data (lines, bars, bands) is drawn in
 * palette colours, while axes, grid and text are grey, so a chart with only axes and a legend
 * counts (nearly) zero. Runs in the page (self-contained), for Playwright and tests/browsers alike.
 */
export function canvasInk(c: Element | null, legendPx: number): number {
	if (!(c instanceof HTMLCanvasElement) || c.width === 0 || c.height === 0) return 0;
	const g = c.getContext('2d');
	if (!g) return 0;
	const top = Math.min(c.height, Math.round(legendPx * (window.devicePixelRatio || 1)));
	const { data } = g.getImageData(0, top, c.width, c.height - top);
	let n = 0;
	for (let i = 0; i < data.length; i += 4) {
		const hi = Math.max(data[i], data[i + 1], data[i + 2]);
		const lo = Math.min(data[i], data[i + 1], data[i + 2]);
		if (data[i + 3] > 40 && hi - lo > 50) n++;
	}
	return n;
}

/** canvasInk of a chart's canvas. */
export async function chartInk(canvas: Locator, legendPx = 40): Promise<number> {
	return canvas.evaluate(canvasInk, legendPx);
}

/**
 * In the playground (engine settings carry over from set-up in the same profile), generate `n`
 * user turns after the example conversation and wait until each has text and is labelled.
 */
export async function playgroundGenerate(
	page: Page,
	n: number,
	temperature = 1
): Promise<string[]> {
	const v = 'playground';
	await setControl(await need(page, v, 'pg-n'), String(n));
	await setControl(await need(page, v, 'pg-temperature'), String(temperature));
	const generate = await need(page, v, 'pg-generate');
	if (await generate.isDisabled()) {
		throw new E2EFailure(
			`playground view: Generate is disabled: ${await page.locator('main .problems').allInnerTexts()}`
		);
	}
	await generate.click();
	const output = await need(page, v, 'pg-output');
	try {
		await page.waitForFunction(
			([el, want]) => {
				const texts = Array.from(
					(el as HTMLElement).querySelectorAll('[data-testid="generated-text"]')
				);
				const busy = document.querySelector('[data-testid="pg-stop"]') !== null;
				return (
					!busy && texts.length === want && texts.every((t) => (t.textContent ?? '').trim() !== '')
				);
			},
			[await output.elementHandle(), n] as const,
			{ timeout: 30_000 }
		);
	} catch {
		const error = await page.getByTestId('pg-error').allInnerTexts();
		throw new E2EFailure(
			`playground view: ${n} user turns did not finish${error.length ? `: ${error.join(' | ')}` : ''}`
		);
	}
	return output.getByTestId('generated-text').allInnerTexts();
}
