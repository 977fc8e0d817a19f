/**
 * Browser smoke test of the real engine worker: builds a tiny page around createWebLLMEngine, opens
 * it in headless Chromium (WebGPU via SwiftShader) and drives the real MLCEngine through our
 * protocol. No network: the model record points at a local server that answers 404, so loading
 * fails the way an unreachable Hugging Face does.
 *   npx tsx tests/build/workerSmoke.ts    (needs /usr/bin/chromium or CHROMIUM_PATH)
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import type { SmokeResult } from './smokePage.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE = fileURLToPath(new URL('./smokePage.ts', import.meta.url));
const TIMEOUT_MS = 120_000;

const ENTRY = `
import { runSmoke } from '${PAGE}';
Object.assign(window, { runSmoke, smokeReady: true });
`;

function serve(root: string): Promise<Server> {
	const types: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };
	const server = createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', 'http://x').pathname;
		const path = url === '/' ? '/index.html' : url;
		try {
			const body = await readFile(join(root, path));
			res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
			res.end(body);
		} catch {
			res.writeHead(404).end();
		}
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function check(out: SmokeResult): string[] {
	const failures: string[] = [];
	const expect = (ok: boolean, what: string) => ok || failures.push(what);
	expect(out.gpu.webgpu, 'probeGpu finds WebGPU');
	expect(out.stats.running === null && out.stats.loaded.length === 0, 'a fresh worker is idle');
	expect(out.cached === false, 'nothing is cached in a fresh profile');
	const code = (x: unknown) => (typeof x === 'object' && x ? (x as { code?: string }).code : x);
	expect(
		code(out.complete_before_load) === 'model_not_loaded',
		'complete before load → model_not_loaded'
	);
	expect(code(out.load) === 'network', 'loading from a 404 origin → network');
	expect(code(out.aborted_load) === 'aborted', 'an aborted load → AbortError');
	expect(out.stats_after.loaded.length === 0, 'nothing is loaded after failures');
	return failures;
}

async function main(): Promise<number> {
	if (!existsSync(CHROMIUM)) {
		console.error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
		return 1;
	}
	const root = mkdtempSync(join(tmpdir(), 'webllm-smoke-'));
	const server = await serve(join(root, 'dist'));
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: [
			'--headless=new',
			'--no-sandbox',
			'--enable-unsafe-webgpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--no-first-run'
		]
	});
	try {
		writeFileSync(join(root, 'index.html'), '<script type="module" src="./entry.ts"></script>');
		writeFileSync(join(root, 'entry.ts'), ENTRY);
		await build({
			root,
			configFile: false,
			base: './',
			logLevel: 'warn',
			worker: { format: 'es' },
			build: { outDir: join(root, 'dist'), target: 'es2022' }
		});
		const address = server.address();
		const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
		const page = await browser.newPage();
		page.setDefaultTimeout(TIMEOUT_MS);
		await page.goto(origin);
		await page.waitForFunction(() => 'smokeReady' in window);
		// A string, not a function: tsx's __name helpers do not exist in the page.
		const out = (await page.evaluate(`runSmoke(${JSON.stringify(origin)})`)) as SmokeResult;
		console.log(JSON.stringify(out, null, '\t'));
		const failures = check(out);
		for (const f of failures) console.error(`FAILED: ${f}`);
		if (failures.length === 0) console.log('\nWorker smoke test passed.');
		return failures.length === 0 ? 0 : 1;
	} finally {
		await browser.close();
		server.close();
		rmSync(root, { recursive: true, force: true });
	}
}

process.exit(await main());
