/**
 * The browser tests' proxy, spoken to as a browser speaks to a proxy: absolute-form request lines
 * and CONNECT. Loopback passes through as the server sent it (streamed, aborts included);
 * everything else is refused and named.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';
import { startBlockingProxy, type BlockingProxy } from '../../browsers/blockingProxy.ts';

let proxy: BlockingProxy;
let origin: Server;
let originPort: number;
/** Lets the origin's stream go on: resolved by the test once the first event has arrived. */
let goOn: () => void;
let originSawClose: Promise<void>;

beforeEach(async () => {
	proxy = await startBlockingProxy();
	let sawClose: () => void;
	originSawClose = new Promise((r) => (sawClose = r));
	origin = createServer((req, res) => {
		if (req.url === '/events') {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.write('data: one\n\n');
			res.once('close', () => sawClose());
			new Promise<void>((r) => (goOn = r)).then(() => res.end('data: two\n\n'));
			return;
		}
		if (req.url === '/hang') {
			res.writeHead(200, { 'content-type': 'text/plain' });
			res.write('x');
			res.once('close', () => sawClose());
			return;
		}
		let body = '';
		req.on('data', (d: Buffer) => (body += d.toString()));
		req.on('end', () => {
			res.writeHead(201, { 'x-echo': req.headers['x-test'] ?? '' }).end(`${req.method} ${body}`);
		});
	});
	await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
	originPort = (origin.address() as AddressInfo).port;
});

afterEach(async () => {
	await proxy.close();
	origin.closeAllConnections();
	await new Promise((r) => origin.close(r));
});

/** A request through the proxy, as a browser makes it: the whole URL on the request line. */
function viaProxy(
	url: string,
	init: { method?: string; body?: string; headers?: Record<string, string> } = {}
) {
	const req = request({
		host: '127.0.0.1',
		port: proxy.port,
		method: init.method ?? 'GET',
		path: url,
		headers: init.headers
	});
	req.end(init.body);
	return req;
}

/** A CONNECT through the proxy, as a browser opens a tunnel: the proxy's answer and the socket. */
async function tunnel(hostPort: string): Promise<[IncomingMessage, Socket]> {
	const req = request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: hostPort });
	req.end();
	return (await once(req, 'connect')) as [IncomingMessage, Socket];
}

async function text(res: IncomingMessage): Promise<string> {
	let s = '';
	for await (const chunk of res) s += chunk;
	return s;
}

describe('the browser tests’ proxy', () => {
	it('passes a loopback request through with its method, body, headers and status', async () => {
		const req = viaProxy(`http://127.0.0.1:${originPort}/echo`, {
			method: 'POST',
			body: 'hello',
			headers: { 'x-test': 'kept' }
		});
		const [res] = (await once(req, 'response')) as [IncomingMessage];
		expect(res.statusCode).toBe(201);
		expect(res.headers['x-echo']).toBe('kept');
		expect(await text(res)).toBe('POST hello');
		expect(proxy.passed).toBe(1);
		expect(proxy.refused).toEqual([]);
	});

	it('streams: the first event reaches the client before the server sends the second', async () => {
		const req = viaProxy(`http://127.0.0.1:${originPort}/events`);
		const [res] = (await once(req, 'response')) as [IncomingMessage];
		expect(res.headers['content-type']).toBe('text/event-stream');
		const [first] = (await once(res, 'data')) as [Buffer];
		// Were the proxy to buffer, this would wait forever: the server sends the rest only now.
		expect(first.toString()).toBe('data: one\n\n');
		goOn();
		expect(await text(res)).toBe('data: two\n\n');
	});

	it('ends the server’s request when the page gives up on it', async () => {
		const req = viaProxy(`http://127.0.0.1:${originPort}/hang`);
		const [res] = (await once(req, 'response')) as [IncomingMessage];
		await once(res, 'data');
		req.destroy();
		await originSawClose;
	});

	it('answers 502 when nothing listens on the loopback port', async () => {
		const closed = createServer();
		await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((r) => closed.close(r));
		const [res] = (await once(viaProxy(`http://127.0.0.1:${port}/`), 'response')) as [
			IncomingMessage
		];
		expect(res.statusCode).toBe(502);
		expect(await text(res)).toMatch(/ECONNREFUSED/);
	});

	it('refuses and names every request for another host, localhost included', async () => {
		for (const url of [
			'http://huggingface.co/api/models',
			`http://localhost:${originPort}/echo`,
			'http://127.0.0.1.example/x'
		]) {
			const [res] = (await once(viaProxy(url), 'response')) as [IncomingMessage];
			expect(res.statusCode).toBe(403);
			await text(res);
		}
		expect(proxy.refused).toEqual([
			'GET http://huggingface.co/api/models',
			`GET http://localhost:${originPort}/echo`,
			'GET http://127.0.0.1.example/x'
		]);
		expect(proxy.passed).toBe(0);
	});

	it('refuses a tunnel to another host and opens one to loopback', async () => {
		const [refusedRes] = await tunnel('cdn.jsdelivr.net:443');
		expect(refusedRes.statusCode).toBe(403);
		expect(proxy.refused).toEqual(['CONNECT cdn.jsdelivr.net:443']);

		const [tunnelRes, socket] = await tunnel(`127.0.0.1:${originPort}`);
		expect(tunnelRes.statusCode).toBe(200);
		socket.write(
			`POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi`
		);
		let reply = '';
		for await (const chunk of socket) reply += chunk;
		expect(reply).toMatch(/^HTTP\/1\.1 201/);
		expect(reply).toMatch(/\r\n\r\n[\s\S]*POST hi/);
		expect(proxy.passed).toBe(1);
	});

	it('closes open tunnels when it closes', async () => {
		const [, socket] = await tunnel(`127.0.0.1:${originPort}`);
		const closed = once(socket, 'close');
		await proxy.close();
		await closed;
		proxy = await startBlockingProxy();
	});
});
