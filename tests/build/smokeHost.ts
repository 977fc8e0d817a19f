/**
 * The Node half shared by the browser smoke scripts (workerSmoke.ts, cpuSmoke.ts): Vite bundles a
 * page module into a tiny page, a static server on 127.0.0.1 serves it, and headless Chromium
 * opens it and waits until the module's functions are on `window`. (The page modules themselves,
 * smokePage.ts and cpuSmokePage.ts, are bundled into the browser and must not import this.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { launchBrowser } from '../e2e/browser.ts';
import { ISOLATION_HEADERS } from '../../src/lib/sw/isolation.ts';

export { CHROMIUM } from '../e2e/browser.ts';

export interface SmokePageOptions {
	/** Absolute path of the page module. */
	module: string;
	/** Its exports to put on `window`, for `page.evaluate` to call by name. */
	exports: string[];
	/** With `--enable-unsafe-webgpu`, or without it, as a plain headless Linux is. */
	webgpu: boolean;
	timeoutMs: number;
	/** The temporary folder's name prefix. */
	prefix: string;
	/** Called for every uncaught error in the page (default: ignored). */
	onPageError?: (err: Error) => void;
	/** Serve with COOP/COEP, so the page is cross-origin isolated (threads) from its first load. */
	isolated?: boolean;
	/** More files the server answers, by path (e.g. a model mirror's "/mirror/…"); the rest 404. */
	files?: Record<string, string>;
}

export interface SmokePage {
	page: Page;
	/** The page's origin, http://127.0.0.1:<port>. */
	origin: string;
	/** Every request the server answered, as "METHOD /path STATUS", in order. */
	requests: string[];
	/** Closes the browser and the server and removes the build. */
	close(): Promise<void>;
}

function serve(
	root: string,
	isolated = false,
	files: Record<string, string> = {},
	requests: string[] = []
): Promise<Server> {
	const types: Record<string, string> = {
		'.js': 'text/javascript',
		'.html': 'text/html',
		'.wasm': 'application/wasm'
	};
	const server = createServer(async (req, res) => {
		const url = new URL(req.url ?? '/', 'http://x').pathname;
		const path = url === '/' ? '/index.html' : url;
		const log = (status: number) => requests.push(`${req.method} ${url} ${status}`);
		if (path in files) {
			log(200);
			res.writeHead(200, { 'content-type': 'application/json' }).end(files[path]);
			return;
		}
		try {
			const body = await readFile(join(root, path));
			res.writeHead(200, {
				'content-type': types[extname(path)] ?? 'application/octet-stream',
				...(isolated ? ISOLATION_HEADERS : {})
			});
			res.end(body);
			log(200);
		} catch {
			log(404);
			res.writeHead(404).end();
		}
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Builds, serves and opens the smoke page; the caller closes it. */
export async function openSmokePage(opts: SmokePageOptions): Promise<SmokePage> {
	const root = mkdtempSync(join(tmpdir(), opts.prefix));
	const requests: string[] = [];
	const server = await serve(join(root, 'dist'), opts.isolated, opts.files, requests);
	const browser = await launchBrowser(opts.webgpu);
	const close = async () => {
		await browser.close();
		server.close();
		rmSync(root, { recursive: true, force: true });
	};
	try {
		const names = opts.exports.join(', ');
		writeFileSync(join(root, 'index.html'), '<script type="module" src="./entry.ts"></script>');
		writeFileSync(
			join(root, 'entry.ts'),
			`import { ${names} } from '${opts.module}';\n` +
				`Object.assign(window, { ${names}, smokeReady: true });\n`
		);
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
		page.setDefaultTimeout(opts.timeoutMs);
		if (opts.onPageError) page.on('pageerror', opts.onPageError);
		await page.goto(origin);
		await page.waitForFunction(() => 'smokeReady' in window);
		return { page, origin, requests, close };
	} catch (e) {
		await close();
		throw e;
	}
}
