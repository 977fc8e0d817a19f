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
import { readFixture } from '../helpers/fixtures.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BUILD_DIR = join(REPO_ROOT, 'test-results', 'e2e-dist');
export const TEMPLATE_ROUTE = '/__e2e__/templates/';

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

/** `vite build` into BUILD_DIR; rejects with vite's output when it fails. */
export function buildApp(): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn('npx', ['vite', 'build', '--outDir', BUILD_DIR, '--emptyOutDir'], {
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

export async function serveBuild(root: string = BUILD_DIR): Promise<StaticServer> {
	const server: Server = createServer(async (req, res) => {
		const pathname = new URL(req.url ?? '/', 'http://x').pathname;
		if (pathname.startsWith(TEMPLATE_ROUTE)) {
			const name = pathname.slice(TEMPLATE_ROUTE.length);
			try {
				// Only names from the fixture folder: no path separators.
				if (!/^[\w.-]+\.jinja$/.test(name)) throw new Error('bad name');
				const text = readFixture(`templates/${name}`);
				res.writeHead(200, { 'content-type': MIME['.jinja'], 'access-control-allow-origin': '*' });
				res.end(text);
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
		const type = MIME[extname(pathname === '/' ? 'index.html' : pathname)];
		res.writeHead(200, { 'content-type': type ?? 'application/octet-stream' });
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const url = `http://127.0.0.1:${port}/`;
	return {
		url,
		templateUrl: (file) => `${url}${TEMPLATE_ROUTE.slice(1)}${file}`,
		close: () => {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}
