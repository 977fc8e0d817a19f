/**
 * Issue 18, point 2: a finished run is shared as one file (Runs → "Run file (share)"), hosted on a
 * static server, and opened by link (#/open?url=…) in a browser with no WebGPU and no runs: the
 * results and charts show with no click. A malformed file and an unreachable host say what is wrong
 * and store nothing; the Runs page's "Open from URL" field takes the same path.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import { RESULTS_DIR, type E2EContext } from '../context.ts';
import { completeRun } from '../flows.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRuns } from '../idb.ts';
import { BUILD_DIR } from '../server.ts';

const SHARED = '__shared__';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
	const s = createServer();
	await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
	const port = (s.address() as AddressInfo).port;
	await new Promise<void>((resolve) => s.close(() => resolve()));
	return port;
}

const openHash = (url: string) => `#/open?url=${encodeURIComponent(url)}`;

async function openError(page: Page): Promise<string> {
	return (await need(page, 'open', 'open-error')).innerText();
}

export const shareLink: Scenario<E2EContext> = {
	id: 'share-link',
	title:
		'share a run as one file, open it by link without WebGPU (charts, no click); a malformed file and an unreachable host store nothing',
	timeoutMs: 120_000,
	async run(ctx) {
		// Share: a real run, exported with the Share action.
		const source = await ctx.profile();
		const { runId } = await completeRun(ctx, source.page);
		await openView(source.page, ctx.app.url, '#/runs');
		const row = source.page.locator(`[data-testid="run-row"][data-run-id="${runId}"]`);
		const pending = source.page.waitForEvent('download', { timeout: UI_TIMEOUT_MS });
		await row.getByTestId('export-run').click();
		const download = await pending;
		const dir = join(RESULTS_DIR, 'downloads');
		mkdirSync(dir, { recursive: true });
		const saved = join(dir, download.suggestedFilename());
		await download.saveAs(saved);
		check(saved.endsWith('.run.jsonl'), `the share file is named ${saved}`);
		const help = await (await need(source.page, 'runs', 'share-help')).innerText();
		check(help.includes(download.suggestedFilename()), `the share help does not name the file`);

		// Host it beside the app, plus a copy with one broken record.
		const hostDir = join(BUILD_DIR, SHARED);
		mkdirSync(hostDir, { recursive: true });
		copyFileSync(saved, join(hostDir, 'good.run.jsonl'));
		const lines = readFileSync(saved, 'utf8').split('\n');
		lines[2] = lines[2].replace(/"temperature":[^,]+/, '"temperature":"hot"');
		writeFileSync(join(hostDir, 'bad.run.jsonl'), lines.join('\n'));
		const good = `${ctx.app.url}${SHARED}/good.run.jsonl`;

		// A first visit with no WebGPU: the first screen says what the probe is and what this
		// browser can do, and its "Open from URL" reaches the shared run's charts in one click.
		const visitor = await ctx.freshProfile({ webgpu: false });
		await visitor.page.goto(ctx.app.url);
		const h1 = await (
			await need(visitor.page, 'home', 'way-open')
		).evaluate(() => document.querySelector('main h1')?.textContent ?? '');
		check(h1 === 'User-Turn Probe', `the first screen's h1 is "${h1}"`);
		const paper = visitor.page.locator('a[href="https://arxiv.org/abs/2604.02315"]');
		check((await paper.count()) === 1, 'the first screen does not link the paper');
		const device = await (await need(visitor.page, 'home', 'device-line')).innerText();
		check(/no GPU adapter/.test(device), `the device line without WebGPU reads "${device}"`);
		await ctx.screenshot(visitor.page, 'home-no-webgpu');
		await (await need(visitor.page, 'home', 'open-url')).fill(good);
		await (await need(visitor.page, 'home', 'open-url-go')).click(); // click 1
		await visitor.page.waitForURL(/#\/results\//, { timeout: UI_TIMEOUT_MS });
		await need(visitor.page, 'results', 'chart-followup-temp');
		const rows = await visitor.page.getByTestId('results-row').count();
		check(rows === 4, `the shared run's results show ${rows} condition rows, not 4`);
		const title = await visitor.page.locator('main h1').innerText();
		check(title.includes('mock-model'), `the results title is "${title}"`);
		await ctx.screenshot(visitor.page, 'share-opened');

		// The link itself, pasted into another browser: results with no click.
		const linked = await ctx.profile();
		await linked.page.goto(new URL(openHash(good), ctx.app.url).href);
		await linked.page.waitForURL(/#\/results\//, { timeout: UI_TIMEOUT_MS });
		await need(linked.page, 'results', 'chart-labels');

		// Malformed: the problem, located; nothing stored.
		const other = await ctx.profile();
		await openView(other.page, ctx.app.url, openHash(`${ctx.app.url}${SHARED}/bad.run.jsonl`));
		const bad = await openError(other.page);
		check(
			/Nothing was stored/.test(bad) && /bad\.run\.jsonl, line 3: .*temperature/.test(bad),
			`the malformed file's error is not clear: "${bad}"`
		);
		check((await storedRuns(other.page)).length === 0, 'a malformed shared run was stored');
		await ctx.screenshot(other.page, 'share-malformed');

		// Unreachable host: named.
		const port = await closedPort();
		await openView(other.page, ctx.app.url, openHash(`http://127.0.0.1:${port}/run.run.jsonl`));
		await other.page
			.getByText(`Could not reach 127.0.0.1:${port}`)
			.waitFor({ timeout: UI_TIMEOUT_MS });
		check((await storedRuns(other.page)).length === 0, 'something was stored from nowhere');

		// Missing file: the host's answer.
		await openView(other.page, ctx.app.url, openHash(`${ctx.app.url}${SHARED}/gone.run.jsonl`));
		await other.page.getByText(/answered 404/).waitFor({ timeout: UI_TIMEOUT_MS });

		// The Runs page: an empty state with ways in, and "Open from URL".
		await openView(other.page, ctx.app.url, '#/runs');
		await need(other.page, 'runs', 'runs-empty');
		await (await need(other.page, 'runs', 'open-url')).fill(good);
		await (await need(other.page, 'runs', 'open-url-go')).click();
		try {
			await other.page.waitForURL(/#\/results\//, { timeout: UI_TIMEOUT_MS });
		} catch {
			throw new E2EFailure(`Open from URL did not reach the results (at ${other.page.url()})`);
		}
		const stored = await storedRuns(other.page);
		check(
			stored.length === 1 && stored[0].run_id === runId,
			`after Open from URL the browser holds ${JSON.stringify(stored.map((r) => r.run_id))}`
		);
		ctx.note(`shared ${download.suggestedFilename()}; opened by link with no WebGPU`);
	}
};
