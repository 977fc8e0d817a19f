/**
 * The browsers' only way off 127.0.0.1: an HTTP proxy on loopback that passes requests for
 * 127.0.0.1 through to their server and records and refuses every other. Firefox and WebKit have
 * no request interception that both drivers share, so each is launched with this proxy: a request
 * for a CDN, Hugging Face or anything else lands here, fails as it would behind a school filter,
 * and the scenario can name it.
 *
 * Loopback is passed through rather than left off the proxy because WebKitGTK cannot be told to
 * leave it off: any `noProxy` entry in its session's capabilities crashes MiniBrowser at start now
 * and then (one entry: 2 of 60 launches under load; two entries: 13 of 30), while a session with no
 * `noProxy` started 80 of 80 times under the same load.
 */
import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

export interface BlockingProxy {
	/** 127.0.0.1:PORT, as browsers' proxy settings take it. */
	hostPort: string;
	port: number;
	/** Every refused request: "GET http://host/path" or "CONNECT host:443". */
	refused: string[];
	/** How many requests for 127.0.0.1 were passed through. */
	readonly passed: number;
	close(): Promise<void>;
}

/** The only host passed through. Nothing the browser tests serve uses "localhost". */
const LOOPBACK = '127.0.0.1';

function loopbackTarget(url: string | undefined): URL | undefined {
	try {
		const u = new URL(url ?? '');
		return u.protocol === 'http:' && u.hostname === LOOPBACK ? u : undefined;
	} catch {
		return undefined;
	}
}

export async function startBlockingProxy(): Promise<BlockingProxy> {
	const refused: string[] = [];
	let passed = 0;
	// Tunnels leave the HTTP server's bookkeeping: closed by hand.
	const tunnels = new Set<Duplex>();
	const server: Server = createServer((req, res) => {
		const target = loopbackTarget(req.url);
		if (!target) {
			refused.push(`${req.method} ${req.url}`);
			res.writeHead(403, { 'content-type': 'text/plain' }).end('blocked by the test proxy');
			return;
		}
		passed++;
		const headers = { ...req.headers };
		delete headers['proxy-connection'];
		const upstream = request(
			{
				host: LOOPBACK,
				port: target.port || 80,
				method: req.method,
				path: target.pathname + target.search,
				headers
			},
			(up) => {
				res.writeHead(up.statusCode ?? 502, up.statusMessage, up.rawHeaders);
				// Streamed as it comes: a server-sent event reaches the page when the server sends it.
				res.flushHeaders();
				up.pipe(res);
				up.once('error', () => res.destroy());
			}
		);
		upstream.once('error', (err) => {
			if (res.headersSent) res.destroy();
			else res.writeHead(502, { 'content-type': 'text/plain' }).end(`test proxy: ${err.message}`);
		});
		// The page gave up on the request (a reload, an abort): so does the proxy, as a server sees it.
		res.once('close', () => {
			if (!res.writableFinished) upstream.destroy();
		});
		req.pipe(upstream);
	});
	server.on('connect', (req, socket, head) => {
		const [host, port] = (req.url ?? '').split(':');
		if (host !== LOOPBACK || !port) {
			refused.push(`CONNECT ${req.url}`);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		passed++;
		tunnels.add(socket);
		socket.once('close', () => tunnels.delete(socket));
		const upstream = connect(Number(port), LOOPBACK, () => {
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head.length > 0) upstream.write(head);
			upstream.pipe(socket);
			socket.pipe(upstream);
		});
		upstream.once('error', () => socket.destroy());
		upstream.once('close', () => socket.destroy());
		socket.once('close', () => upstream.destroy());
		socket.once('error', () => upstream.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		hostPort: `${LOOPBACK}:${port}`,
		port,
		refused,
		get passed() {
			return passed;
		},
		close: () => {
			server.closeAllConnections();
			for (const s of tunnels) s.destroy();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}
