/**
 * The app's production build in Firefox ESR and WebKitGTK, as a class's browsers run it: every
 * step of steps.ts in each browser, against real llama.cpp (the tiny real model) behind the server
 * engine and wllama on the CPU, with every request off 127.0.0.1 refused and recorded.
 *
 *   npx tsx tests/browsers/run.ts                     build, then every profile below
 *   npx tsx tests/browsers/run.ts --browser firefox   one profile (firefox, webkit, firefox-no-jspi)
 *   BROWSERS_SKIP_BUILD=1 npx tsx tests/browsers/run.ts   reuse test-results/browsers-dist
 *   … --steps first-screen,cpu-run                    only these steps (ids in steps.ts)
 *   BROWSERS_CONSOLE=1 …                              Firefox's page and worker console on stderr
 *
 * Needs Debian's firefox-esr, webkit2gtk-driver and xvfb (.ci/run installs them) and the CLI bundle
 * (npm run build:cli) for the shared run. The last line is exactly `N passed, M failed`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { supportsMemory64 } from '../../src/lib/engines/cpu/worker/compat.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import { serveGguf, type GgufServer } from '../helpers/ggufServer.ts';
import { startLlamaCppServer, type LlamaCppServer } from '../helpers/llamaCppServer.ts';
import { buildTinyModel } from '../helpers/tinyModel/index.ts';
import { buildApp, REPO_ROOT, serveBuild } from '../e2e/server.ts';
import { startBlockingProxy, type BlockingProxy } from './blockingProxy.ts';
import type { Driver } from './driver.ts';
import { FirefoxDriver } from './firefox.ts';
import { STEPS, type WasmAssets } from './steps.ts';
import { WebKitDriver } from './webkit.ts';

const DIST = join(REPO_ROOT, 'test-results', 'browsers-dist');
const SHARED_DIR = '__shared__';
const ALIAS = 'tiny-qwen2';
const CLI = join(REPO_ROOT, 'bin', 'user-turn-probe.js');

function arg(name: string): string | undefined {
	const i = process.argv.indexOf(`--${name}`);
	return i >= 0 ? process.argv[i + 1] : undefined;
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Which built assets are wllama's two builds, found by content (Vite names both wllama-<hash>). */
function wasmAssets(dist: string): WasmAssets {
	const require = createRequire(join(REPO_ROOT, 'package.json'));
	const compatDir = join(require.resolve('@wllama/wllama-compat/index.js'), '..', 'wasm');
	const want = {
		compatWasm: sha(join(compatDir, 'wllama.wasm')),
		compatJs: sha(join(compatDir, 'wllama.js')),
		defaultWasm: sha(
			join(require.resolve('@wllama/wllama/index.ts'), '..', 'esm', 'wasm', 'wllama.wasm')
		)
	};
	const assets = readdirSync(join(dist, 'assets')).filter((f) => f.startsWith('wllama-'));
	const found = Object.fromEntries(
		Object.entries(want).map(([k, hash]) => [
			k,
			assets.find((f) => sha(join(dist, 'assets', f)) === hash) ?? ''
		])
	) as unknown as WasmAssets;
	for (const [k, v] of Object.entries(found)) {
		if (!v) throw new Error(`The build has no ${k} asset (wllama-<hash>.*) in ${dist}/assets.`);
	}
	return found;
}

/** `node args…`, asynchronously: the model server answering it runs in this very process. */
function node(args: string[]): Promise<{ code: number | null; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
		let stderr = '';
		child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		child.on('error', reject);
		child.on('close', (code) => resolve({ code, stderr }));
	});
}

/** A real run to share: the CLI against the same model, its records and manifest beside the app. */
async function makeSharedRun(llama: LlamaCppServer): Promise<string> {
	if (!existsSync(join(REPO_ROOT, 'bin', 'dist'))) {
		spawnSync('npm', ['run', 'build:cli'], { cwd: REPO_ROOT, stdio: 'inherit' });
	}
	const dir = join(DIST, SHARED_DIR);
	mkdirSync(dir, { recursive: true });
	const runId = 'shared-cli';
	const out = join(dir, `${runId}.jsonl`);
	const res = await node([
		CLI,
		'run',
		...['--base-url', llama.url, '--model', ALIAS, '--judge-mode', 'rules'],
		...['--dataset', 'demo', '--limit', '3', '--seed', '0', '--temperatures', '0,1'],
		...['--template', fixturePath('templates/Qwen__Qwen2.5-0.5B-Instruct.jinja')],
		...['--eos-token', '<|im_end|>', '--run-id', runId, '--out', out, '--overwrite']
	]);
	if (res.code !== 0) throw new Error(`the CLI run for the shared file failed: ${res.stderr}`);
	return runId;
}

interface Outcome {
	browser: string;
	step: string;
	ok: boolean;
	ms: number;
	detail: string;
}

/** A browser as users have it. */
interface Profile {
	launch(proxy: BlockingProxy): Promise<Driver>;
	/** The steps this profile is for; absent: every step. */
	steps?: readonly string[];
}

const PROFILES: Record<string, Profile> = {
	firefox: { launch: (proxy) => FirefoxDriver.launch({ proxyPort: proxy.port }) },
	webkit: { launch: (proxy) => WebKitDriver.launch({ proxyHostPort: proxy.hostPort }) },
	// Firefox without JSPI keeps wllama's default build, which then reads the whole model into
	// memory instead of streaming it (compat.ts): a path of its own, for the CPU run alone. Firefox
	// has no preference that turns Memory64 off, so its compatibility build cannot be forced here.
	'firefox-no-jspi': {
		launch: (proxy) =>
			FirefoxDriver.launch({
				proxyPort: proxy.port,
				prefs: { 'javascript.options.wasm_js_promise_integration': false }
			}),
		steps: ['cpu-run']
	}
};

async function runBrowser(
	name: string,
	fixtures: { llama: LlamaCppServer; gguf: GgufServer; sharedRunId: string; wasm: WasmAssets }
): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	const proxy = await startBlockingProxy();
	// Its own server: its own origin, so its own service worker and database.
	const app = await serveBuild(DIST);
	let d: Driver | undefined;
	const t0 = Date.now();
	try {
		d = await PROFILES[name].launch(proxy);
		const memory64 = await d.evaluate(supportsMemory64, undefined);
		const caps = await d.evaluate(
			() => ({ jspi: 'Suspending' in WebAssembly, ua: navigator.userAgent }),
			undefined
		);
		const isFirefox = /Firefox\//.test(caps.ua);
		// wllama's own rule, with ours for Firefox (compat.ts): Firefox only without Memory64.
		const expectCompat = isFirefox ? !memory64 : !caps.jspi || !memory64;
		outcomes.push({
			browser: name,
			step: 'launch',
			ok: true,
			ms: Date.now() - t0,
			detail: `${d.version}; JSPI ${caps.jspi}, Memory64 ${memory64} → ${expectCompat ? 'compatibility' : 'default'} wllama build`
		});
		const only = arg('steps')?.split(',');
		const mine = PROFILES[name].steps;
		const steps = STEPS.filter(
			(s) => (!only || only.includes(s.id)) && (!mine || mine.includes(s.id))
		);
		for (const step of steps) {
			const notes: string[] = [];
			const t = Date.now();
			const errorsBefore = d instanceof FirefoxDriver ? d.pageErrors.length : 0;
			try {
				await step.run({
					d,
					app,
					proxy,
					llama: fixtures.llama,
					gguf: fixtures.gguf,
					shared: {
						url: `${app.url}${SHARED_DIR}/${fixtures.sharedRunId}.jsonl`,
						runId: fixtures.sharedRunId
					},
					wasm: fixtures.wasm,
					expectCompat,
					note: (text) => notes.push(text)
				});
				// Uncaught errors in the page (only Firefox's driver hears them) fail the step they came in.
				const errors = d instanceof FirefoxDriver ? d.pageErrors.slice(errorsBefore) : [];
				if (errors.length > 0) throw new Error(`uncaught in the page: ${errors.join(' | ')}`);
				outcomes.push({
					browser: name,
					step: step.id,
					ok: true,
					ms: Date.now() - t,
					detail: notes.join('; ')
				});
			} catch (err) {
				const message = err instanceof Error ? err.message : String(err);
				outcomes.push({
					browser: name,
					step: step.id,
					ok: false,
					ms: Date.now() - t,
					detail: message
				});
			}
		}
		// What went through the proxy: WebKit sends it even loopback (webkit.ts), Firefox does not.
		outcomes[0].detail += `; the proxy passed ${proxy.passed} loopback requests`;
	} catch (err) {
		const message = err instanceof Error ? err.message : String(err);
		outcomes.push({
			browser: name,
			step: 'launch',
			ok: false,
			ms: Date.now() - t0,
			detail: message
		});
	} finally {
		await d?.close().catch(() => undefined);
		await app.close().catch(() => undefined);
		await proxy.close();
	}
	return outcomes;
}

async function main(): Promise<number> {
	const browsers = (arg('browser') ?? Object.keys(PROFILES).join(',')).split(',');
	const unknown = browsers.filter((b) => !(b in PROFILES));
	if (unknown.length > 0) {
		console.error(
			`No browser profile ${unknown.join(', ')}: one of ${Object.keys(PROFILES).join(', ')}.`
		);
		return 2;
	}
	const started = Date.now();
	if (process.env.BROWSERS_SKIP_BUILD !== '1') await buildApp(DIST);
	const model = await buildTinyModel({ seed: 15 });
	const llama = await startLlamaCppServer({
		modelPath: model.path,
		alias: ALIAS,
		// The v4 judge prompt (three criteria, conflicts) with a question and answer takes ~2,030
		// tokens: at 2,048 the server ended the judge's reply after a few tokens, its slot full.
		contextSize: 3072
	});
	const gguf = await serveGguf({ 'tiny-qwen2.gguf': model.path });
	const outcomes: Outcome[] = [];
	try {
		const sharedRunId = await makeSharedRun(llama);
		const wasm = wasmAssets(DIST);
		for (const name of browsers) {
			outcomes.push(...(await runBrowser(name, { llama, gguf, sharedRunId, wasm })));
		}
	} finally {
		await gguf.close();
		await llama.close();
	}
	for (const o of outcomes) {
		console.log(
			`${o.ok ? 'ok  ' : 'FAIL'} ${o.browser} ${o.step} (${(o.ms / 1000).toFixed(1)} s) ${o.detail}`
		);
	}
	const failed = outcomes.filter((o) => !o.ok).length;
	console.log(`\nwhole run ${((Date.now() - started) / 1000).toFixed(1)} s`);
	console.log(`${outcomes.length - failed} passed, ${failed} failed`);
	return failed === 0 ? 0 : 1;
}

process.exit(await main());
