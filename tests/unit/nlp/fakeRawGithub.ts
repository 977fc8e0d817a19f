/**
 * A local HTTP stand-in for raw.githubusercontent.com serving the NLTK data zips and syllapy's
 * data.csv the way it does: 200 with Content-Length, 404 with the plain-text body "404: Not
 * Found", and on demand a 429/503 (as a CDN under load), or a socket destroyed mid-body (a
 * connection reset). Real sockets, real fetch; made-up file contents only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = 429 | 503 | 'reset';

export interface FakeRaw {
	base: string;
	/** nltkDataBase / syllapyBase for loadEnglishResourceFiles. */
	nltkDataBase: string;
	syllapyBase: string;
	/** Paths requested, in order. */
	requests: string[];
	/** Answer the next requests for `path` with these faults, one each, before serving it. */
	faultNext(path: string, ...faults: Fault[]): void;
	close(): Promise<void>;
}

export const SYLLAPY_COMMIT = '9b95c13d809a87e9eaba96f6b61e7fc3978acded';

export function listen(server: Server): Promise<string> {
	return new Promise((resolve) => {
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as AddressInfo;
			resolve(`http://127.0.0.1:${port}`);
		});
	});
}

/** `files`: path below the origin (e.g. /nltk/nltk_data/gh-pages/packages/…) → bytes. */
export async function startFakeRaw(files: Record<string, Uint8Array>): Promise<FakeRaw> {
	const requests: string[] = [];
	const faults = new Map<string, Fault[]>();
	const server = createServer((req, res) => {
		const path = req.url ?? '';
		requests.push(path);
		const body = files[path];
		const fault = faults.get(path)?.shift();
		if (fault === 429 || fault === 503) {
			res.writeHead(fault, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '0' });
			res.end(fault === 429 ? '429: Too Many Requests' : '503: Service Unavailable');
			return;
		}
		if (body === undefined) {
			res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
			res.end('404: Not Found');
			return;
		}
		res.writeHead(200, {
			'content-type': 'application/octet-stream',
			'content-length': String(body.length)
		});
		if (fault === 'reset') {
			res.write(body.subarray(0, Math.floor(body.length / 2)), () => res.socket?.destroy());
			return;
		}
		res.end(body);
	});
	const base = await listen(server);
	return {
		base,
		nltkDataBase: `${base}/nltk/nltk_data/gh-pages/packages`,
		syllapyBase: `${base}/mholtzscher/syllapy/${SYLLAPY_COMMIT}/syllapy`,
		requests,
		faultNext(path, ...list) {
			faults.set(path, [...(faults.get(path) ?? []), ...list]);
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			})
	};
}
