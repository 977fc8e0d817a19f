/**
 * The browsers' only way off 127.0.0.1: an HTTP proxy on loopback that records every request and
 * refuses it. Firefox and WebKit have no request interception that both drivers share, so each is
 * launched with this proxy (loopback exempt): a request for a CDN, Hugging Face or anything else
 * lands here, fails as it would behind a school filter, and the scenario can name it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BlockingProxy {
	/** 127.0.0.1:PORT, as browsers' proxy settings take it. */
	hostPort: string;
	port: number;
	/** Every refused request: "GET http://host/path" or "CONNECT host:443". */
	refused: string[];
	close(): Promise<void>;
}

export async function startBlockingProxy(): Promise<BlockingProxy> {
	const refused: string[] = [];
	const server: Server = createServer((req, res) => {
		refused.push(`${req.method} ${req.url}`);
		res.writeHead(403, { 'content-type': 'text/plain' }).end('blocked by the test proxy');
	});
	server.on('connect', (req, socket) => {
		refused.push(`CONNECT ${req.url}`);
		socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		hostPort: `127.0.0.1:${port}`,
		port,
		refused,
		close: () => {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(() => resolve()));
		}
	};
}
