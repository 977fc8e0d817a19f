/**
 * A Hugging Face row page whose host trickles (a byte now and then) or stalls after its headers
 * ends at the download's one overall deadline with a message naming the host, instead of waiting
 * forever (a trickle) or until the request timeout of each try (a stall, ≈600 s before).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { fetchAllRowEntries } from '../../../src/lib/datasets/hfRows.ts';

const servers: Server[] = [];
const timers: ReturnType<typeof setInterval>[] = [];

afterEach(async () => {
	for (const t of timers.splice(0)) clearInterval(t);
	for (const s of servers.splice(0)) {
		s.closeAllConnections();
		await new Promise((r) => s.close(r));
	}
});

/** A loopback datasets server whose every answer is headers plus what `body` sends. */
async function host(body: (res: ServerResponse) => void): Promise<string> {
	const server = createServer((_req, res) => {
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
		body(res);
	});
	servers.push(server);
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function loadFrom(base: string, deadlineMs: number): Promise<DatasetError> {
	const t0 = Date.now();
	const err = await fetchAllRowEntries({
		dataset: 'openai/gsm8k',
		config: 'main',
		split: 'test',
		fetch,
		base,
		deadlineMs,
		sleep: async () => {}
	}).then(
		() => null,
		(e: unknown) => e
	);
	expect(Date.now() - t0).toBeLessThan(deadlineMs + 2_000);
	expect(err).toBeInstanceOf(DatasetError);
	return err as DatasetError;
}

describe('a row page within one overall deadline', () => {
	it('ends a page that trickles a byte every 100 ms, naming the host', async () => {
		const base = await host((res) => {
			res.write('{');
			timers.push(setInterval(() => res.write(' '), 100));
		});
		const err = await loadFrom(base, 800);
		expect(err.message).toContain(
			`the download from ${new URL(base).host} did not finish within 0.8 s`
		);
		expect(err.unreachable).toBe(false);
	});

	it('ends a page whose body stalls after its headers', async () => {
		const base = await host((res) => res.write('{"rows"'));
		const err = await loadFrom(base, 500);
		expect(err.message).toContain(
			`the download from ${new URL(base).host} did not finish within 0.5 s`
		);
	});
});
