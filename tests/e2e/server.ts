/**
 * The production build under test, and a tiny static server for it on 127.0.0.1 (what GitHub Pages
 * does, minus the CDN). The build goes to its own directory so it never races another engineer's
 * `npm run build` over dist/. The server also hands out chat-template fixtures at TEMPLATE_ROUTE, so
 * the set-up view can fetch a template by URL without Hugging Face.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { readFixture } from '../helpers/fixtures.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUILD_DIR = join(REPO_ROOT, 'test-results', 'e2e-dist');
export const TEMPLATE_ROUTE = '/__e2e__/templates/';
/** The same fixture wrapped as a tokenizer_config.json, the other form a template URL may take. */
export const TOKENIZER_ROUTE = '/__e2e__/tokenizer/';
/** Qwen2.5's special tokens, which a bare .jinja cannot carry. */
const QWEN_TOKENS = { bos_token: null, eos_token: '<|im_end|>' };

const MIME: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript',
	'.mjs': 'text/javascript',
	'.css': 'text/css',
	'.json': 'application/json',
	'.webmanifest': 'application/manifest+json',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.wasm': 'application/wasm',
	'.jinja': 'text/plain; charset=utf-8'
};

/** `vite build` into `outDir` (BUILD_DIR); rejects with vite's output when it fails. */
export function buildApp(outDir: string = BUILD_DIR): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
			cwd: REPO_ROOT,
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let output = '';
		child.stdout.on('data', (d: Buffer) => (output += d.toString()));
		child.stderr.on('data', (d: Buffer) => (output += d.toString()));
		child.on('error', reject);
		child.on('close', (code) =>
			code === 0 ? resolve() : reject(new Error(`vite build failed (${code}):\n${output}`))
		);
	});
}

export interface StaticServer {
	/** http://127.0.0.1:PORT/ (with the trailing slash the app's relative base expects). */
	url: string;
	/** URL of a fixture template, e.g. templateUrl('Qwen__Qwen2.5-0.5B-Instruct.jinja'). */
	templateUrl(file: string): string;
	/** URL of a tokenizer_config.json holding that fixture template and Qwen's special tokens. */
	tokenizerConfigUrl(file: string): string;
	/** Every request as "METHOD /path STATUS", e.g. to tell which wasm a browser fetched. */
	requests: string[];
	close(): Promise<void>;
}

async function fileBody(root: string, pathname: string): Promise<Buffer | null> {
	const rel = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
	const path = join(root, rel.endsWith('/') ? join(rel, 'index.html') : rel);
	if (!path.startsWith(root)) return null;
	try {
		if (!(await stat(path)).isFile()) return null;
		return await readFile(path);
	} catch {
		return null;
	}
}

/** /__e2e__/templates/NAME.jinja → the file; /__e2e__/tokenizer/NAME.jinja/tokenizer_config.json → wrapped. */
function fixtureRoute(pathname: string): { name: string; json: boolean } | null {
	if (pathname.startsWith(TEMPLATE_ROUTE)) {
		return { name: pathname.slice(TEMPLATE_ROUTE.length), json: false };
	}
	const m = /^([^/]+)\/tokenizer_config\.json$/.exec(pathname.slice(TOKENIZER_ROUTE.length));
	return pathname.startsWith(TOKENIZER_ROUTE) && m ? { name: m[1], json: true } : null;
}

export interface ServeOptions {
	/**
	 * Gzip text files for a client that accepts it, as GitHub Pages does: what a throttled network
	 * carries is the compressed size (the first-visit bench). Off by default.
	 */
	gzip?: boolean;
	/** Send Cache-Control: max-age with every file, as GitHub Pages does (600 s). */
	maxAgeS?: number;
}

/** Text types a host compresses; images and wasm here are sent as they are. */
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json))/;

export async function serveBuild(
	root: string = BUILD_DIR,
	opts: ServeOptions = {}
): Promise<StaticServer> {
	const requests: string[] = [];
	const server: Server = createServer(async (req, res) => {
		const pathname = new URL(req.url ?? '/', 'http://x').pathname;
		res.on('finish', () => requests.push(`${req.method} ${pathname} ${res.statusCode}`));
		const fixture = fixtureRoute(pathname);
		if (fixture) {
			try {
				// Only names from the fixture folder: no path separators.
				if (!/^[\w.-]+\.jinja$/.test(fixture.name)) throw new Error('bad name');
				const text = readFixture(`templates/${fixture.name}`);
				const body = fixture.json ? JSON.stringify({ chat_template: text, ...QWEN_TOKENS }) : text;
				const type = fixture.json ? MIME['.json'] : MIME['.jinja'];
				res.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' });
				res.end(body);
			} catch {
				res.writeHead(404).end();
			}
			return;
		}
		const body = await fileBody(root, pathname);
		if (!body) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
			return;
		}
		const type =
			MIME[extname(pathname === '/' ? 'index.html' : pathname)] ?? 'application/octet-stream';
		const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
		const cache = opts.maxAgeS === undefined ? {} : { 'cache-control': `max-age=${opts.maxAgeS}` };
		if (opts.gzip && accepts && COMPRESSIBLE.test(type)) {
			res.writeHead(200, {
				'content-type': type,
				'content-encoding': 'gzip',
				vary: 'Accept-Encoding',
				...cache
			});
			res.end(gzipSync(body));
			return;
		}
		res.writeHead(200, { 'content-type': type, ...cache });
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const url = `http://127.0.0.1:${port}/`;
	return {
		url,
		templateUrl: (file) => `${url}${TEMPLATE_ROUTE.slice(1)}${file}`,
		tokenizerConfigUrl: (file) => `${url}${TOKENIZER_ROUTE.slice(1)}${file}/tokenizer_config.json`,
		requests,
		close: () => {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}
