/**
 * A teacher's class link: an index.json and the run files it names, hosted together, and
 * `#/?examples=<index address>` sent to the class. A student's first screen lists those runs, and
 * one click opens a run's results. A list that is not there is said in words, not a blank.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { need, openView, UI_TIMEOUT_MS } from '../app.ts';
import type { E2EContext } from '../context.ts';
import { check, E2EFailure, type Scenario } from '../harness.ts';
import { BUILD_DIR } from '../server.ts';
import { makeBundle } from '../../helpers/factories.ts';
import { bundleToRunFile } from '../../../src/lib/probe/runFile.ts';

const CLASS = '__class__';
const TITLE = 'Week 1: the probe on 12 turns';

export const classLink: Scenario<E2EContext> = {
	id: 'class-link',
	title: "a teacher's class link lists their hosted runs on the first screen; one click opens one",
	timeoutMs: 60_000,
	async run(ctx) {
		const dir = join(BUILD_DIR, CLASS);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, 'week1.run.jsonl'), bundleToRunFile(makeBundle(12, 'class-week1')));
		writeFileSync(
			join(dir, 'index.json'),
			JSON.stringify({
				examples: [
					{
						file: 'week1.run.jsonl',
						title: TITLE,
						model: 'mock-model',
						device: 'scripted test server',
						date: '2026-11-25'
					}
				]
			})
		);
		const index = `${ctx.app.url}${CLASS}/index.json`;
		const { page } = await ctx.freshProfile({ webgpu: false });
		await openView(page, ctx.app.url, `#/?examples=${encodeURIComponent(index)}`);
		const list = await need(page, 'home', 'class-examples');
		const link = list.getByRole('link', { name: TITLE });
		await link.waitFor({ timeout: UI_TIMEOUT_MS }).catch(async () => {
			throw new E2EFailure(`the class's run is not listed: "${await list.innerText()}"`);
		});
		check(
			(await page.getByTestId('no-examples').count()) === 0,
			'the shipped (empty) examples show beside the class list'
		);
		await link.click();
		await page.waitForURL(/#\/results\/class-week1/, { timeout: UI_TIMEOUT_MS });
		await need(page, 'results', 'results-row');

		// A list that is not there: said, with the host's answer.
		await openView(page, ctx.app.url, `#/?examples=${encodeURIComponent(`${index}.gone`)}`);
		const error = await (await need(page, 'home', 'class-error')).innerText();
		check(/answered 404/.test(error), `a missing class list is not said plainly: "${error}"`);
		ctx.note(`class link opened ${TITLE}`);
	}
};
