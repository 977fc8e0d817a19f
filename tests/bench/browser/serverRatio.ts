/**
 * The browser's server engine against the CLI on the same streaming mock (30 ms to the first
 * token, 4 ms per token), each at its default requests in flight for the browser: the same 20
 * demo items × 30 conditions, rules judging, so both make the same 620 requests of the same
 * length. The ratio is the tab's run time over the CLI's; the browser's connection limit per host
 * is what it measures when the default asks for more than the browser opens.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	BROWSER_QUEUED_REQUESTS,
	DEFAULT_MAX_CONCURRENCY
} from '../../../src/lib/engines/server/client.ts';
import { fixturePath } from '../../helpers/fixtures.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { serverLoad, type ServerLoad } from '../../helpers/serverLoad.ts';
import { asksForUserTurn } from '../../helpers/mockScripts.ts';
import { configureRun, openView, TEMPLATE_FILE, type RunPlan } from '../../e2e/app.ts';
import { CHROMIUM } from '../../e2e/browser.ts';
import { MOCK_MODEL } from '../../e2e/context.ts';
import { plannedRecords } from '../../e2e/flows.ts';
import { REPO_ROOT, serveBuild, type StaticServer } from '../../e2e/server.ts';
import { cliCommand } from '../cli100k.ts';
import { median, round } from '../stats.ts';
import { failed, measured, unavailable, type BrowserMetric } from './metric.ts';
import { progressInPage, showsPlaceholder } from './page.ts';
import { chromiumCpu, cpuSpent, describeCpu } from './processCpu.ts';
import { launchUnwatched } from './unwatched.ts';

const PLAN = {
	items: 20,
	temperatures: [0.2, 0.4, 0.6, 0.8, 1],
	truncate: true,
	samples: 3,
	judgeMode: 'rules'
} satisfies RunPlan;
const SEED = 1;
const RUN_TIMEOUT_MS = 180_000;
const POLL_MS = 100;

/** Rounds of the pair (the CLI's run, then the tab's); the row reads their median. */
export const SERVER_RATIO_ROUNDS = 3;

export const SERVER_RATIO_METHOD =
	`The median of ${SERVER_RATIO_ROUNDS} rounds of: wall time of one run, browser over CLI, on ` +
	`one mock server (30 ms to first token, 4 ms per token; answers 16 tokens, user turns 8): ` +
	`${PLAN.items} demo items × T{.2,.4,.6,.8,1} × ` +
	`{none,truncate} × ${PLAN.samples} samples, rules judging, ${DEFAULT_MAX_CONCURRENCY} at ` +
	`once at the server (the server engine's default, with ${BROWSER_QUEUED_REQUESTS} more ` +
	`waiting in the browser's own queue; the CLI given the same --concurrency; a round fails if ` +
	`the server ever held more from the tab than that). Browser: start ` +
	`click to the run stored as done (its status alone polled every ${POLL_MS} ms, the record ` +
	`counts read once at the end), in a Chromium of its own that playwright sets up and then ` +
	`leaves (no routing, no network events); CLI: its main() in its own process. ` +
	`Beside each time, the CPU it took: Chromium's processes by type, the CLI's process, and the ` +
	`bench's own (the mock, and the progress polls on the browser's side).`;

const ANSWER = 'She had 36 crayons, gave away 7, so 36 - 7 = 29 crayons are left in all. #### 29';
const USER_TURN = 'Can you show how you got 36 first?';

function mockServer(): Promise<MockOpenAI> {
	return startMockOpenAI({
		models: [MOCK_MODEL],
		script: (req) => (asksForUserTurn(req.prompt) ? USER_TURN : ANSWER) + '<|im_end|>'
	}).then((mock) => {
		mock.firstTokenDelayMs = 30;
		mock.tokenDelayMs = 4;
		return mock;
	});
}

/**
 * The median ratio of SERVER_RATIO_ROUNDS rounds, each the CLI's run and then the tab's: one round
 * moves with whatever else the machine does meanwhile (on 2 cores, 1.02–1.05 quiet and 1.08–1.18
 * beside two builds, `npm run bench -- --only serverRatio`).
 */
export async function measureServerRatio(app: StaticServer): Promise<BrowserMetric> {
	const rounds: { value: number; detail: string }[] = [];
	for (let i = 0; i < SERVER_RATIO_ROUNDS; i++) {
		const one = await ratioRound(app);
		if (one.status !== 'measured') return one;
		rounds.push(one);
	}
	const values = rounds.map((r) => r.value);
	return measured(
		median(values),
		`median of ${values.join(', ')}; ` +
			rounds.map((r, i) => `round ${i + 1}: ${r.detail}`).join('; ')
	);
}

async function ratioRound(app: StaticServer): Promise<BrowserMetric> {
	const planned = plannedRecords(PLAN);
	const cli = await cliRun();
	// Set up with playwright, then measured with playwright gone (unwatched.ts): its routing and
	// its network events cost the tab CPU per request that a user's browser does not spend.
	const browser = await launchUnwatched();
	const mock = await mockServer();
	try {
		let placeholder = false;
		await browser.setUp(async (page) => {
			await openView(page, app.url, '#/setup');
			placeholder = await showsPlaceholder(page);
			if (placeholder) return;
			await configureRun(page, {
				...PLAN,
				seed: SEED,
				mock,
				template: { url: app.tokenizerConfigUrl(TEMPLATE_FILE) }
			});
		});
		if (placeholder) return failed('the set-up view is not built yet');
		const cpuBefore = chromiumCpu();
		const benchBefore = process.cpuUsage();
		const started = Date.now();
		const runId = await browser.evaluate(clickStart, START_TIMEOUT_MS);
		if (!runId) return failed('start-run did not open #/run/ID');
		// The status alone while it runs (progressInPage says why); the counts once it has ended.
		const statusOnly = { runId, counts: false };
		let status = (await browser.evaluate(progressInPage, statusOnly))?.status;
		while (Date.now() - started < RUN_TIMEOUT_MS && status !== 'done' && status !== 'failed') {
			await new Promise((r) => setTimeout(r, POLL_MS));
			status = (await browser.evaluate(progressInPage, statusOnly))?.status;
		}
		const browserMs = Date.now() - started;
		const benchCpu = cpuMs(process.cpuUsage(benchBefore));
		const cpuAfter = chromiumCpu();
		const progress = await browser.evaluate(progressInPage, { runId, counts: true });
		const chromium =
			cpuBefore && cpuAfter ? `Chromium ${describeCpu(cpuSpent(cpuBefore, cpuAfter))}; ` : '';
		if (progress?.status !== 'done' || (progress.labelled ?? 0) < planned) {
			return failed(`run ${runId} did not finish: ${JSON.stringify(progress)}`);
		}
		const load = serverLoad(mock.requests);
		if (load.peak > DEFAULT_MAX_CONCURRENCY) {
			return failed(
				`the server held ${load.peak} of the tab's requests at once, more than the CLI's ` +
					`${DEFAULT_MAX_CONCURRENCY}: the two did not run at the same concurrency`
			);
		}
		return measured(
			round(browserMs / cli.ms),
			`browser ${seconds(browserMs)} s (${load.requests} requests, ${describeLoad(load)}; ` +
				`${chromium}bench ${seconds(benchCpu)} s CPU), ` +
				`CLI ${seconds(cli.ms)} s (${describeLoad(cli.load)}; ${seconds(cli.cpuMs)} s CPU; ` +
				`bench ${seconds(cli.benchCpuMs)} s CPU)`
		);
	} finally {
		await browser.close().catch(() => {});
		await mock.close().catch(() => {});
	}
}

const START_TIMEOUT_MS = 15_000;

/** In the page: click start and wait for the #/run/ID route; the run's id, or '' if none came. */
async function clickStart(timeoutMs: number): Promise<string> {
	const start = document.querySelector<HTMLButtonElement>('[data-testid="start-run"]');
	if (!start || start.disabled) return '';
	start.click();
	const until = Date.now() + timeoutMs;
	while (Date.now() < until) {
		const m = /#\/run\/([^/?]+)/.exec(location.hash);
		if (m) return decodeURIComponent(m[1]);
		await new Promise((r) => setTimeout(r, 10));
	}
	return '';
}

const seconds = (ms: number) => (ms / 1000).toFixed(1);

const describeLoad = (l: ServerLoad) =>
	`server held ${l.mean.toFixed(2)} at once on average, ${l.peak} at most`;
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;

/**
 * The same run from the CLI: the demo items as a dataset file, the same template and seed. Its
 * main()'s wall time, its process's CPU, and the bench's own CPU meanwhile (the mock's).
 */
async function cliRun(): Promise<{
	ms: number;
	cpuMs: number;
	benchCpuMs: number;
	load: ServerLoad;
}> {
	const dir = mkdtempSync(join(tmpdir(), 'utp-bench-ratio-'));
	const mock = await mockServer();
	try {
		const demo = JSON.parse(readFileSync(join(REPO_ROOT, 'static/demo-items.json'), 'utf8')) as {
			prompt: string;
			gold: string;
		}[];
		const dataset = join(dir, 'demo.jsonl');
		writeFileSync(
			dataset,
			demo.map((d) => JSON.stringify({ question: d.prompt, answer: `#### ${d.gold}` })).join('\n')
		);
		const benchBefore = process.cpuUsage();
		const run = await cliCommand(
			[
				'run',
				'--base-url',
				mock.url,
				'--model',
				MOCK_MODEL,
				'--judge-mode',
				'rules',
				'--dataset',
				dataset,
				'--template',
				fixturePath(`templates/${TEMPLATE_FILE}`),
				'--eos-token',
				'<|im_end|>',
				'--limit',
				String(PLAN.items),
				'--seed',
				String(SEED),
				'--temperatures',
				PLAN.temperatures.join(','),
				'--perturbations',
				'none,truncate',
				'--samples',
				String(PLAN.samples),
				'--concurrency',
				String(DEFAULT_MAX_CONCURRENCY),
				'--out',
				join(dir, 'run.jsonl')
			],
			join(dir, 'usage.json')
		);
		const benchCpuMs = cpuMs(process.cpuUsage(benchBefore));
		return {
			ms: run.usage.mainMs,
			cpuMs: run.usage.cpuMs,
			benchCpuMs,
			load: serverLoad(mock.requests)
		};
	} finally {
		await mock.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The ratio alone, on its own server and browser (`npm run bench -- --only serverRatio`). */
export async function measureServerRatioOnly(dist: string): Promise<BrowserMetric> {
	if (!existsSync(CHROMIUM)) return unavailable(`no Chromium at ${CHROMIUM}`);
	const app = await serveBuild(dist);
	try {
		return await measureServerRatio(app);
	} catch (err) {
		return failed(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
	} finally {
		await app.close();
	}
}
