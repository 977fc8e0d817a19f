/**
 * A stand-in for the Hugging Face Hub on 127.0.0.1, shaped as the Hub answers: a file in the LFS
 * (weights: .gguf, .bin, .wasm) is `GET/HEAD /<repo>/resolve/main/<file>` → 302 to a CDN path,
 * the redirect carrying X-Linked-Size and X-Linked-Etag (the sha256); the CDN answers GET with
 * Range (206) and HEAD with Content-Length. A small file (a .json) is served at once, with an
 * ETag that is not a sha256. Unknown paths: 404 "Entry not found", as the Hub words it. CORS as
 * the Hub sends it. `cutOnce` drops the connection after so many bytes of one file's next GET,
 * as a school's flaky uplink would; its `until` holds the connection open, the bytes sent, until
 * the test sees them arrive (a cut landing before the client read anything tests nothing).
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HubServer {
	/** http://127.0.0.1:PORT */
	readonly base: string;
	/** Every request as "METHOD /path [range]". */
	readonly requests: string[];
	/**
	 * Drop the next GET of `path` after `bytes` bytes of its body, once `until()` holds (checked
	 * every 10 ms, for at most 10 s; at once without it).
	 */
	cutOnce(path: string, bytes: number, until?: () => boolean): void;
	close(): Promise<void>;
}

const CORS = {
	'access-control-allow-origin': '*',
	'access-control-allow-headers': 'range, content-type',
	'access-control-expose-headers':
		'content-length, content-range, etag, accept-ranges, x-linked-size, x-linked-etag'
};

const LFS = /\.(gguf|bin|wasm)$/;
/** How long a cut waits for its `until` before it drops the connection anyway. */
const CUT_WAIT_MS = 10_000;

/**
 * @param files path under the base (e.g. "Qwen/X-GGUF/resolve/main/x.gguf") → bytes
 * @param opts.static a static host (a school's mirror: http-server, GitHub Pages): every file is
 *   served where it is, without the Hub's redirect
 */
export async function serveHub(
	files: Record<string, Uint8Array>,
	opts: { static?: boolean } = {}
): Promise<HubServer> {
	const requests: string[] = [];
	const cuts = new Map<string, { bytes: number; until?: () => boolean }>();
	const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
	const server: Server = createServer((req, res) => {
		const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
		const range = req.headers.range;
		requests.push(`${req.method} ${pathname}${range ? ` ${range}` : ''}`);
		if (req.method === 'OPTIONS') {
			res.writeHead(204, CORS).end();
			return;
		}
		const cdn = pathname.startsWith('/cdn/');
		const path = pathname.replace(/^\/(cdn\/)?/, '');
		const body = files[path];
		if (!body || (req.method !== 'GET' && req.method !== 'HEAD')) {
			res
				.writeHead(404, { ...CORS, 'content-type': 'text/plain', 'x-error-code': 'EntryNotFound' })
				.end('Entry not found');
			return;
		}
		if (LFS.test(path) && !cdn && !opts.static) {
			res
				.writeHead(302, {
					...CORS,
					location: `/cdn/${path}`,
					'x-linked-size': String(body.byteLength),
					'x-linked-etag': `"${sha(body)}"`
				})
				.end();
			return;
		}
		const size = body.byteLength;
		const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
		const start = m ? Number(m[1]) : 0;
		const end = m && m[2] ? Math.min(Number(m[2]), size - 1) : size - 1;
		if (m && start >= size) {
			res.writeHead(416, { ...CORS, 'content-range': `bytes */${size}` }).end();
			return;
		}
		res.writeHead(m ? 206 : 200, {
			...CORS,
			'content-type': LFS.test(path) ? 'application/octet-stream' : 'application/json',
			'accept-ranges': 'bytes',
			etag: `"${size}-${path.length}"`,
			'content-length': String(end - start + 1),
			...(m && { 'content-range': `bytes ${start}-${end}/${size}` })
		});
		if (req.method === 'HEAD') {
			res.end();
			return;
		}
		const cut = cuts.get(path);
		if (cut !== undefined) {
			cuts.delete(path);
			res.write(body.subarray(start, Math.min(end + 1, start + cut.bytes)), async () => {
				for (let waited = 0; cut.until && !cut.until() && waited < CUT_WAIT_MS; waited += 10)
					await new Promise((r) => setTimeout(r, 10));
				res.destroy();
			});
			return;
		}
		res.end(body.subarray(start, end + 1));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		base: `http://127.0.0.1:${port}`,
		requests,
		cutOnce: (path, bytes, until) => void cuts.set(path, { bytes, until }),
		close: () => {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}
