/**
 * Issue 37, high 1: a study opened by link never shows another run in its place. This browser holds
 * a run `run-a` (another config); a study by link whose first run is also `run-a` stores that run
 * as a copy (`run-a-2`) beside it, shows the copy, and says which runs were here and which were
 * added. A study listing one id twice is refused, naming it, and stores nothing. Before: the study
 * showed the local run-a silently, and the inline study with two runs under one id dropped one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { storedRuns } from '../idb.ts';
import { BUILD_DIR } from '../server.ts';
import { bundleToRunFile } from '../../../src/lib/probe/runFile.ts';
import { studyToFile } from '../../../src/lib/probe/studyFile.ts';
import type { RunBundle } from '../../../src/lib/probe/exchange.ts';
import { makeBundle } from '../../helpers/factories.ts';

const SHARED = '__study_link__';
const openHash = (url: string) => `#/open?url=${encodeURIComponent(url)}`;

function withHash(b: RunBundle, config_hash: string): RunBundle {
	return { ...b, manifest: { ...b.manifest, config_hash } };
}

export const studyLink: Scenario<E2EContext> = {
	id: 'study-link',
	title:
		'a study by link whose run id names another run here stores a copy and says so; one id twice is refused',
	timeoutMs: 90_000,
	async run(ctx) {
		const dir = join(BUILD_DIR, SHARED);
		mkdirSync(dir, { recursive: true });
		const local = withHash(makeBundle(6, 'run-a'), 'local-config');
		const theirs = withHash(makeBundle(4, 'run-a'), 'their-config');
		writeFileSync(join(dir, 'local.run.jsonl'), bundleToRunFile(local));
		writeFileSync(
			join(dir, 'study.study.jsonl'),
			studyToFile([theirs, makeBundle(3, 'run-b')].map(bundleToRunFile))
		);
		writeFileSync(
			join(dir, 'twice.study.jsonl'),
			studyToFile([makeBundle(2, 'run-x'), makeBundle(3, 'run-x')].map(bundleToRunFile))
		);
		const base = `${ctx.app.url}${SHARED}/`;

		const { page } = await ctx.profile();
		await openView(page, ctx.app.url, openHash(`${base}local.run.jsonl`));
		await page.waitForURL(/#\/results\//, { timeout: UI_TIMEOUT_MS });

		await openView(page, ctx.app.url, openHash(`${base}study.study.jsonl`));
		try {
			await page.waitForURL(/#\/study\?/, { timeout: UI_TIMEOUT_MS });
		} catch {
			throw new E2EFailure(`the study link never opened its study (at ${page.url()})`);
		}
		const url = new URL(page.url());
		const runs = new URLSearchParams(url.hash.split('?')[1]).get('runs');
		check(runs === 'run-a-2,run-b', `the study shows runs ${runs}, not run-a-2,run-b`);
		const arrival = await (await need(page, 'study', 'study-arrival')).innerText();
		check(
			arrival.includes('added: run-b') &&
				arrival.includes(
					'run-a added as run-a-2 (this browser holds a different run named run-a, left as it was)'
				),
			`the study does not say what it stored: "${arrival}"`
		);
		const stored = (await storedRuns(page)).map((r) => `${r.run_id}:${r.records}`).sort();
		check(
			JSON.stringify(stored) === JSON.stringify(['run-a-2:4', 'run-a:6', 'run-b:3']),
			`the browser holds ${JSON.stringify(stored)}`
		);
		await ctx.screenshot(page, 'study-link-copy');

		// The same link again: both runs are here, the same runs, and nothing more is stored.
		await openView(page, ctx.app.url, openHash(`${base}study.study.jsonl`));
		await page.waitForURL(/#\/study\?/, { timeout: UI_TIMEOUT_MS });
		const again = await (await need(page, 'study', 'study-arrival')).innerText();
		check(
			again.includes('already in this browser (the same runs, kept as stored): run-a-2'),
			`the second opening says "${again}"`
		);

		const other = await ctx.profile();
		await openView(other.page, ctx.app.url, openHash(`${base}twice.study.jsonl`));
		const error = await (await need(other.page, 'open', 'open-error')).innerText();
		check(
			error.includes('the study lists run "run-x" more than once'),
			`a study with one id twice says "${error}"`
		);
		check((await storedRuns(other.page)).length === 0, 'a refused study stored runs');
		ctx.note('study by link: a colliding id stored as a copy; a repeated id refused');
	}
};
