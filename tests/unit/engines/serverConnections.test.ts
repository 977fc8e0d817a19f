/**
 * Requests handed to a fetch that holds some in its own queue (a browser's six connections per
 * host): who holds a connection, and deadlines that start only when a request is sent. The fetch
 * here is a real HTTP client with a real per-host connection limit (undici, which Node's fetch is
 * built on), against the mock server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { ConnectionSlots, type ConnectionTurn } from '../../../src/lib/engines/server/limit.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { serverLoad } from '../../helpers/serverLoad.ts';

describe('ConnectionSlots', () => {
	it('gives connections in order, and a freed one to the oldest queued request', async () => {
		const slots = new ConnectionSlots(2);
		const sent: string[] = [];
		const [a, b] = ['a', 'b', 'c', 'd'].map((name) => {
			const turn = slots.enter();
			void turn.sent.then(() => sent.push(name));
			return turn;
		}) as [ConnectionTurn, ConnectionTurn];
		await Promise.resolve();
		expect(sent).toEqual(['a', 'b']);
		expect(slots.queued).toBe(2);
		b.leave();
		await Promise.resolve();
		expect(sent).toEqual(['a', 'b', 'c']);
		// Leaving twice frees one connection, not two.
		b.leave();
		await Promise.resolve();
		expect(sent).toEqual(['a', 'b', 'c']);
		a.leave();
		await Promise.resolve();
		expect(sent).toEqual(['a', 'b', 'c', 'd']);
	});

	it('drops a request that leaves while queued without freeing a connection it never had', async () => {
		const slots = new ConnectionSlots(1);
		const first = slots.enter();
		const gone = slots.enter();
		const last = slots.enter();
		let lastSent = false;
		void last.sent.then(() => (lastSent = true));
		gone.leave();
		await Promise.resolve();
		expect(lastSent).toBe(false);
		expect(slots.queued).toBe(1);
		first.leave();
		await Promise.resolve();
		expect(lastSent).toBe(true);
		last.leave();
		// The one connection is free again: the next request is sent at once.
		let next = false;
		void slots.enter().sent.then(() => (next = true));
		await Promise.resolve();
		expect(next).toBe(true);
	});
});

describe('a server engine over a fetch that queues requests beyond its connections', () => {
	let mock: MockOpenAI;
	let agent: Agent;
	const CONNECTIONS = 2;
	// Each reply streams 8 tokens 60 ms apart: never silent for the idle limit, but a request that
	// waits in the fetch's queue for two replies to end waits far longer than that limit.
	const IDLE_MS = 300;
	beforeEach(async () => {
		mock = await startMockOpenAI({ script: () => 'one two three four five six seven eight' });
		mock.tokenDelayMs = 60;
		agent = new Agent({ connections: CONNECTIONS });
	});
	afterEach(async () => {
		await mock.close();
		await agent.close();
	});

	const queuingFetch = ((input: string, init?: RequestInit) =>
		undiciFetch(input, { ...(init as object), dispatcher: agent })) as unknown as typeof fetch;

	function engine(opts: { maxConcurrency: number; queuedInBrowser?: number }): OpenAIEngine {
		return new OpenAIEngine({
			baseUrl: mock.url,
			fetch: queuingFetch,
			timeoutMs: IDLE_MS,
			maxRetries: 0,
			...opts
		});
	}

	const ask = (e: OpenAIEngine, n: number) =>
		Promise.allSettled(
			Array.from({ length: n }, (_, i) =>
				e.complete({
					model: 'mock-model',
					prompt: `request ${i}`,
					temperature: 0,
					top_p: 1,
					seed: i,
					max_tokens: 16,
					stop: []
				})
			)
		);

	it('keeps the connections busy, and a queued request does not time out while it waits', async () => {
		const e = engine({ maxConcurrency: CONNECTIONS, queuedInBrowser: 2 });
		expect(e.capabilities().max_concurrency).toBe(4);
		const results = await ask(e, 8);
		expect(results.map((r) => r.status)).toEqual(results.map(() => 'fulfilled'));
		const load = serverLoad(mock.requests);
		expect(load.requests).toBe(8);
		expect(load.peak).toBe(CONNECTIONS);
		// Its time runs from when it was sent, not from when it joined the queue: each reply's time
		// at the server and a little, where the last four first waited at least one whole reply.
		results.forEach((r, i) => {
			if (r.status !== 'fulfilled') return;
			expect(r.value.text).toBe('one two three four five six seven eight');
			const atServer = mock.requests.find(
				(q) => (q.body as { prompt: string }).prompt === `request ${i}`
			);
			const served = (atServer?.endedAt ?? Infinity) - (atServer?.receivedAt ?? 0);
			expect(r.value.usage?.total_ms).toBeLessThan(served + 250);
		});
	});

	it('without the count, the same queue times out the requests that wait in it', async () => {
		// What a tab did when it simply asked for more requests than the browser sends at once.
		const e = engine({ maxConcurrency: 4 });
		const results = await ask(e, 4);
		const failed = results.filter((r) => r.status === 'rejected');
		expect(failed.length).toBeGreaterThan(0);
		expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'timeout' });
	});

	it('still times out a queued request whose server stalls once it is sent', async () => {
		const e = engine({ maxConcurrency: CONNECTIONS, queuedInBrowser: 2 });
		const fault = { midStream: 'stall' as const, afterTokens: 1 };
		for (let i = 0; i < 4; i++) mock.enqueueFailure(fault);
		const began = performance.now();
		const results = await ask(e, 4);
		expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
		for (const r of results) {
			expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'timeout' });
		}
		// Two rounds of one idle limit each (plus a token), not an unbounded wait.
		expect(performance.now() - began).toBeLessThan(4 * IDLE_MS + 1_000);
	});
});
