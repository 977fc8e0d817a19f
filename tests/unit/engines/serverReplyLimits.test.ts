/**
 * Every server reply is bounded, against a real loopback server that misbehaves. Before: a server
 * sending a token every 0.5 s and never finishing held a request for good (the idle timeout never
 * fired); a 1 GB stream, judge body or /props was read whole ("Invalid string length", GBs of
 * memory); a /props that stalled held set-up for the whole idle timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import {
	MIN_REPLY_BYTES,
	PROPS_TIMEOUT_MS,
	replyMaxBytes,
	requestTotalMs
} from '../../../src/lib/engines/server/replyLimits.ts';
import { startHostileServer, type HostileServer } from '../../helpers/hostileServer.ts';

let server: HostileServer;
beforeAll(async () => {
	server = await startHostileServer();
});
afterAll(() => server.close());

const hints = { requestTimeout: '--request-timeout-ms', replyBytes: '--max-reply-mb' };
const engine = (opts: Partial<ConstructorParameters<typeof OpenAIEngine>[0]> = {}) =>
	new OpenAIEngine({ baseUrl: server.base, maxRetries: 2, limitHints: hints, ...opts });
const complete = (e: OpenAIEngine, max_tokens = 16) =>
	e.complete({
		model: 'gen',
		prompt: 'Q',
		max_tokens,
		temperature: 0,
		top_p: 1,
		seed: 1,
		stop: []
	});
const judge = (e: OpenAIEngine, max_tokens = 16) =>
	e.chatJson({
		model: 'gen',
		messages: [{ role: 'user', content: 'label' }],
		schema: {},
		max_tokens,
		temperature: 0,
		top_p: 1,
		seed: 1
	});

async function failure(p: Promise<unknown>): Promise<{ err: EngineError; ms: number }> {
	const t0 = performance.now();
	try {
		await p;
	} catch (err) {
		return { err: err as EngineError, ms: performance.now() - t0 };
	}
	throw new Error('expected the request to fail');
}

describe('the limits', () => {
	it('grow with max_tokens and yield to a given value', () => {
		expect(requestTotalMs(120_000, 256)).toBe(120_000 + 256 * 500);
		expect(requestTotalMs(120_000, 256, 9_000)).toBe(9_000);
		expect(replyMaxBytes(16)).toBe(MIN_REPLY_BYTES);
		expect(replyMaxBytes(4096)).toBe(4096 * 2048);
		expect(replyMaxBytes(4096, 5)).toBe(5);
	});
});

describe('a server that trickles a token every 0.5 s and never finishes', () => {
	it('ends the request at the total deadline, naming the server, the limit and the flag', async () => {
		server.hostility = 'trickle-stream';
		const { err, ms } = await failure(
			complete(engine({ timeoutMs: 5_000, requestTimeoutMs: 3_000 }))
		);
		expect(err).toBeInstanceOf(EngineError);
		expect(err.code).toBe('timeout');
		expect(err.message).toBe(
			`The server at ${server.base}/v1 did not finish one completion within 3 s, the limit for one request.`
		);
		expect(err.recovery).toContain('--request-timeout-ms');
		// Not retried (a trickling server would trickle again): one total deadline, with slack for load.
		expect(ms).toBeGreaterThanOrEqual(2_900);
		expect(ms).toBeLessThan(8_000);
	}, 20_000);

	it('ends it by the default derived from max_tokens when no limit is given', async () => {
		server.hostility = 'trickle-stream';
		// 1 s of silence allowed, + 0.5 s × 4 tokens: 3 s in all; the 0.5 s tokens keep it from going silent.
		const { err, ms } = await failure(complete(engine({ timeoutMs: 1_000 }), 4));
		expect(err.message).toContain('within 3 s');
		expect(ms).toBeLessThan(8_000);
	}, 20_000);
});

describe('a server that floods', () => {
	it('stops a completion stream without end at its byte limit', async () => {
		server.hostility = 'flood-stream';
		const before = server.sent;
		const { err } = await failure(complete(engine()));
		expect(err.message).toBe(
			`The server at ${server.base}/v1 sent more than 1.0 MB for one completion, the limit for it; the reply was stopped.`
		);
		expect(err.recovery).toContain('--max-reply-mb');
		// Stopped near the limit, not after the gigabyte (some more is in flight in socket buffers).
		expect(server.sent - before).toBeLessThan(64 * 1024 ** 2);
	}, 30_000);

	it('stops one endless SSE line too', async () => {
		server.hostility = 'flood-line';
		const { err } = await failure(complete(engine()));
		expect(err.message).toContain('sent more than 1.0 MB for one completion');
	}, 30_000);

	it("stops a judge's reply without end, and a flag's value replaces the limit", async () => {
		server.hostility = 'flood-judge';
		const { err } = await failure(judge(engine({ maxReplyBytes: 3 * 1024 ** 2 })));
		expect(err.message).toBe(
			`The server at ${server.base}/v1 sent more than 3.0 MB for the judge's reply, the limit for it; the reply was stopped.`
		);
	}, 30_000);

	it('reads an endless error page only as far as it shows it', async () => {
		server.hostility = 'flood-error';
		const { err } = await failure(complete(engine({ maxRetries: 0 })));
		expect(err.message).toMatch(/answered 500: <html>a{100}/);
	}, 30_000);

	it('treats an endless /props as no template, quickly', async () => {
		server.hostility = 'flood-props';
		const t0 = performance.now();
		expect(await engine().servedTemplate()).toBeUndefined();
		expect(await engine().contextWindow('gen')).toBeUndefined();
		expect(performance.now() - t0).toBeLessThan(15_000);
	}, 30_000);
});

describe('a /props that stalls', () => {
	it('is given up after its own short timeout, not the engine’s', async () => {
		server.hostility = 'stall-props';
		const t0 = performance.now();
		expect(await engine({ timeoutMs: 300_000 }).servedTemplate()).toBeUndefined();
		const ms = performance.now() - t0;
		expect(ms).toBeGreaterThanOrEqual(PROPS_TIMEOUT_MS - 100);
		expect(ms).toBeLessThan(PROPS_TIMEOUT_MS + 5_000);
	}, 30_000);

	it('answers the caller’s Cancel at once', async () => {
		server.hostility = 'stall-props';
		const ctl = new AbortController();
		const pending = engine().servedTemplate(ctl.signal);
		setTimeout(() => ctl.abort(), 200);
		const t0 = performance.now();
		await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
		expect(performance.now() - t0).toBeLessThan(2_000);
	}, 30_000);
});
