/**
 * What a class does with the app, step by step, in one browser profile (Firefox or WebKit): the
 * first screen, a shared run opened by link with its charts, set-up without WebGPU, a run on the
 * server engine against real llama.cpp with a reload and Resume, a run on the CPU engine (wllama)
 * with the build this browser needs, and the service worker keeping the app and its runs offline.
 * Steps run in this order and share the profile: the runs stored early are listed offline at the end.
 */
import type { GgufServer } from '../helpers/ggufServer.ts';
import type { LlamaCppServer } from '../helpers/llamaCppServer.ts';
import { canvasInk, TEMPLATE_FILE } from '../e2e/app.ts';
import { check, E2EFailure } from '../e2e/harness.ts';
import { pollRun, storedRecords, storedRuns } from '../e2e/idb.ts';
import {
	checkJudgedTurns,
	checkResumed,
	JUDGED_TURN_FIELDS,
	reloadMidRun
} from '../e2e/runChecks.ts';
import {
	cpuModelControls,
	demoPlanControls,
	type Control,
	type DemoPlan
} from '../e2e/setupControls.ts';
import type { StaticServer } from '../e2e/server.ts';
import type { BlockingProxy } from './blockingProxy.ts';
import type { Driver } from './driver.ts';

export interface WasmAssets {
	/** Built file names (assets/wllama-<hash>.wasm) of wllama's default and compatibility builds. */
	defaultWasm: string;
	compatWasm: string;
	compatJs: string;
}

export interface StepContext {
	d: Driver;
	/** The app's build, served for this browser alone (its own origin, service worker, database). */
	app: StaticServer;
	proxy: BlockingProxy;
	llama: LlamaCppServer;
	gguf: GgufServer;
	/** The shared run file's URL (a CLI run against the same model) and its run id. */
	shared: { url: string; runId: string };
	wasm: WasmAssets;
	/** Does this browser need wllama's compatibility build (no JSPI or no Memory64)? */
	expectCompat: boolean;
	note(text: string): void;
}

export interface Step {
	id: string;
	run(ctx: StepContext): Promise<void>;
}

const V = 'setup';

/** Wait until set-up's template check shows the ChatML user header. */
async function templateChecked(d: Driver, what: string, timeoutMs?: number): Promise<void> {
	await d.click(V, 'check-template');
	await d.waitUntil(
		() =>
			document
				.querySelector('[data-testid="template-status"]')
				?.textContent?.includes('<|im_start|>user'),
		undefined,
		what,
		timeoutMs
	);
}

const firstScreen: Step = {
	id: 'first-screen',
	async run({ d, app, note }) {
		await d.openView(app.url, '#/');
		await d.need('home', 'way-open');
		const h1 = await d.evaluate(
			() => document.querySelector('main h1')?.textContent ?? '',
			undefined
		);
		check(h1 === 'User-Turn Probe', `${d.name}: the first screen's h1 is "${h1}"`);
		const device = await d.text('home', 'device-line');
		note(`device line: "${device.trim().split('\n')[0]}"`);
	}
};

const sharedRun: Step = {
	id: 'shared-run',
	async run({ d, app, shared, note }) {
		await d.openView(app.url, `#/open?url=${encodeURIComponent(shared.url)}`);
		await d.waitUntil(
			() => location.hash.startsWith('#/results/'),
			undefined,
			'the shared run did not open on its results'
		);
		for (const chart of ['chart-followup-temp', 'chart-labels']) {
			await d.need('results', chart);
			const ink = await d.waitFor(
				() => d.evaluateOn(`[data-testid="${chart}"] canvas`, canvasInk, 40),
				`${chart} drew no data`
			);
			check(ink > 0, `${chart} drew no data`);
		}
		const rows = await d.count('results-row');
		check(rows > 0, 'the shared run shows no results rows');
		const runs = await storedRuns(d);
		check(
			runs.some((r) => r.run_id === shared.runId && r.records > 0),
			`IndexedDB holds ${JSON.stringify(runs)} after opening ${shared.runId}`
		);
		note(`${rows} results rows, both charts drawn, run stored in IndexedDB`);
	}
};

const setupWithoutWebgpu: Step = {
	id: 'setup',
	async run({ d, app, note }) {
		await d.openView(app.url, '#/setup');
		const hasGpu = await d.evaluate(
			() => 'gpu' in navigator && navigator.gpu !== undefined,
			undefined
		);
		if (hasGpu) {
			note('navigator.gpu exists here: the no-WebGPU checks are skipped');
			return;
		}
		// The browser cannot do WebGPU: set-up says so, and sets up what works (the CPU engine).
		const fallback = await d.text(V, 'env-no-webgpu');
		check(/does not offer WebGPU/i.test(fallback), `no reason given without WebGPU: "${fallback}"`);
		check(
			/shared runs can still be opened/i.test(fallback),
			`the fallback does not say shared runs still open: "${fallback}"`
		);
		await d.waitUntil(
			() => (document.querySelector('[data-testid="engine-cpu"]') as HTMLInputElement)?.checked,
			undefined,
			'without WebGPU the engine did not default to "This device (CPU)"'
		);
		const hint = await d.text(V, 'env-server-hint');
		check(/This device \(CPU\)/.test(hint), `the hint does not offer the CPU engine: "${hint}"`);
		// Choosing WebGPU anyway: the engine says it cannot run here.
		await d.set(V, 'engine-webgpu', true);
		const warning = await d.text(V, 'engine-device-warning');
		check(/WebGPU/.test(warning), `choosing WebGPU shows no warning: "${warning}"`);
		await d.set(V, 'engine-cpu', true);
		note(`without WebGPU: "${warning.trim()}"`);
	}
};

/** Set set-up's controls in order; an optional one that this set-up does not show is skipped. */
async function fill(d: Driver, controls: readonly Control[]): Promise<void> {
	for (const c of controls) {
		if (c.optional && (await d.count(c.id)) === 0) continue;
		await d.set(V, c.id, c.value);
	}
}

async function startRun(d: Driver): Promise<string> {
	await d.need(V, 'start-run');
	const disabled = await d.evaluate(
		() => (document.querySelector('[data-testid="start-run"]') as HTMLButtonElement).disabled,
		undefined
	);
	if (disabled) {
		const problems = await d.evaluate(
			() => document.querySelector('[data-testid="setup-problems"]')?.textContent ?? '',
			undefined
		);
		throw new E2EFailure(`${d.name}: start-run is disabled: ${problems || '(no problems listed)'}`);
	}
	await d.click(V, 'start-run');
	const hash = await d.waitUntil(
		() => (/#\/run\/[^/?]+/.test(location.hash) ? location.hash : ''),
		undefined,
		'start-run did not open #/run/ID'
	);
	return decodeURIComponent(hash.replace(/^#\/run\//, '').split(/[/?]/)[0]);
}

async function waitForDone(d: Driver, runId: string, planned: number, timeoutMs: number) {
	const run = await pollRun(
		d,
		runId,
		(r) => r.status === 'failed' || (r.status === 'done' && r.labelled >= planned),
		timeoutMs,
		250
	);
	if (run?.status !== 'done') {
		// What the run view says went wrong, as a person would read it.
		const shown = await d.evaluate(
			() =>
				Array.from(document.querySelectorAll('[role="alert"]'))
					.map((e) => (e as HTMLElement).innerText.trim())
					.join(' | '),
			undefined
		);
		throw new E2EFailure(
			`run ${runId} did not finish in ${timeoutMs} ms (${JSON.stringify(run)})${shown ? `: ${shown}` : ''}`
		);
	}
	return run;
}

/** Every planned record stored and judged by the LLM. */
async function checkTurns(d: Driver, runId: string, planned: number): Promise<void> {
	const turns = await storedRecords(d, runId, JUDGED_TURN_FIELDS);
	check(turns.length === planned, `${turns.length} records read back, planned ${planned}`);
	checkJudgedTurns(turns);
}

/** 4 items × T {0, 1}: long enough that a reload lands mid-run. */
const SERVER_PLAN: DemoPlan = { items: 4, temperatures: '0, 1' };
const SERVER_PLANNED = SERVER_PLAN.items * 2;

const serverRun: Step = {
	id: 'server-run',
	async run({ d, app, llama, note }) {
		await d.openView(app.url, '#/setup');
		await d.set(V, 'engine-server', true);
		await d.set(V, 'base-url', `${llama.url}/v1`);
		await d.set(V, 'model-id', '');
		await d.click(V, 'check-server');
		await d.waitUntil(
			(want) =>
				(document.querySelector('[data-testid="model-id"]') as HTMLInputElement)?.value === want,
			llama.modelId,
			`"Check server" did not fill in ${llama.modelId}`
		);
		await d.set(V, 'judge-mode', 'llm');
		await d.set(V, 'judge-model-id', '');
		await d.set(V, 'template-kind-url', true);
		await d.set(V, 'template-url', app.tokenizerConfigUrl(TEMPLATE_FILE));
		await fill(d, demoPlanControls(SERVER_PLAN));
		await templateChecked(d, 'the template check did not show the ChatML user header');
		const runId = await startRun(d);
		const { after, kept } = await reloadMidRun(d, runId, {
			planned: SERVER_PLANNED,
			atLeast: 1,
			timeoutMs: 60_000,
			intervalMs: 50,
			reload: () => d.reload()
		});
		await d.need('run', 'resume-run', 20_000);
		await d.click('run', 'resume-run');
		const done = await waitForDone(d, runId, SERVER_PLANNED, 180_000);
		await checkResumed(d, done, SERVER_PLANNED, kept);
		await checkTurns(d, runId, SERVER_PLANNED);
		note(`reloaded at ${after.records}/${SERVER_PLANNED}, resumed to ${done.records}, all judged`);
	}
};

/** 2 items × T 0, judged by the same model: the CPU build may be the slow compatibility one. */
const CPU_PLAN: DemoPlan = { items: 2, temperatures: '0' };
const CPU_ITEMS = CPU_PLAN.items;
const CPU_RUN_TIMEOUT_MS = Number(process.env.BROWSERS_CPU_TIMEOUT_MS ?? 240_000);

const cpuRun: Step = {
	id: 'cpu-run',
	async run({ d, app, gguf, wasm, expectCompat, proxy, note }) {
		const modelUrl = gguf.url('tiny-qwen2.gguf');
		const before = app.requests.length;
		await d.openView(app.url, '#/setup');
		await d.set(V, 'engine-cpu', true);
		await fill(d, cpuModelControls(modelUrl));
		await templateChecked(d, "the GGUF's chat template did not check", 30_000);
		await fill(d, demoPlanControls(CPU_PLAN));
		const t0 = Date.now();
		const runId = await startRun(d);
		const wllamaAssets = () =>
			app.requests.slice(before).filter((r) => /\/assets\/(wllama-|cpu\.worker-)/.test(r));
		try {
			await waitForDone(d, runId, CPU_ITEMS, CPU_RUN_TIMEOUT_MS);
		} catch (err) {
			const status = await d.evaluate(
				() => (document.querySelector('main') as HTMLElement | null)?.innerText.slice(0, 400) ?? '',
				undefined
			);
			throw new E2EFailure(
				`${(err as Error).message}; wllama assets fetched: ${wllamaAssets().join(', ') || 'none'}; the page reads: ${status.replace(/\s+/g, ' ')}`
			);
		}
		const runMs = Date.now() - t0;
		await checkTurns(d, runId, CPU_ITEMS);
		const fetched = wllamaAssets();
		const got = (file: string) => fetched.some((r) => r.includes(`/${file} 200`));
		if (expectCompat) {
			check(
				got(wasm.compatWasm) && got(wasm.compatJs),
				`the compatibility build was not fetched from our origin: ${fetched.join(', ') || 'no wllama asset'}`
			);
			check(!got(wasm.defaultWasm), `the default wasm was fetched too: ${fetched.join(', ')}`);
		} else {
			check(got(wasm.defaultWasm), `the default wasm was not fetched: ${fetched.join(', ')}`);
			check(
				!got(wasm.compatWasm),
				`the compatibility wasm was fetched needlessly: ${fetched.join(', ')}`
			);
		}
		check(proxy.refused.length === 0, `requests left 127.0.0.1: ${proxy.refused.join(', ')}`);
		note(
			`${expectCompat ? 'compatibility' : 'default'} build from our origin (${fetched.join(', ')}); ${CPU_ITEMS} records in ${(runMs / 1000).toFixed(1)} s`
		);
	}
};

/** The service worker controls the page, caches the CPU engine, and keeps the app offline. */
const offline: Step = {
	id: 'offline',
	async run({ d, app, wasm, expectCompat, note }) {
		const state = () =>
			(async () => {
				if (!('serviceWorker' in navigator))
					return { supported: false, controlled: false, cached: [] as string[] };
				await Promise.race([
					navigator.serviceWorker.ready,
					new Promise((r) => setTimeout(r, 10_000))
				]);
				const cached: string[] = [];
				const names = await caches.keys();
				for (const name of names) {
					for (const req of await (await caches.open(name)).keys()) {
						if (!name.includes('precache')) cached.push(new URL(req.url).pathname);
					}
				}
				return {
					supported: true,
					controlled: navigator.serviceWorker.controller !== null,
					cached,
					caches: names
				};
			})();
		let sw = await d.evaluate(state, undefined);
		check(sw.supported, `${d.name}: no navigator.serviceWorker on ${app.url}`);
		if (!sw.controlled) {
			await d.reload();
			sw = await d.evaluate(state, undefined);
		}
		check(sw.controlled, 'the service worker does not control the page');
		const wasmFile = expectCompat ? wasm.compatWasm : wasm.defaultWasm;
		check(
			sw.cached.some((p) => p.endsWith(wasmFile)),
			`the service worker did not cache ${wasmFile}: ${sw.cached.join(', ')} (caches: ${sw.caches?.join(', ')})`
		);
		const before = await storedRuns(d);
		// The server is gone for good: a reload is answered by the service worker alone.
		await app.close();
		// The runs view comes up before the reload: a reload while its lazy chunk is still loading
		// aborts that fetch, and Firefox reports the aborted load as an error in the page.
		await d.evaluate(() => (location.hash = '#/runs'), undefined);
		await d.need('runs', 'run-row');
		await d.reload();
		await d.need('runs', 'run-row');
		const rows = await d.count('run-row');
		check(rows === before.length, `offline, the runs list shows ${rows} runs of ${before.length}`);
		note(
			`offline: the app shell and ${rows} stored runs; ${sw.cached.length} files cached on first use`
		);
	}
};

export const STEPS: readonly Step[] = [
	firstScreen,
	sharedRun,
	setupWithoutWebgpu,
	serverRun,
	cpuRun,
	offline
];
