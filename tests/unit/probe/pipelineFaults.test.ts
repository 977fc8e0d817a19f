/**
 * The pipeline over a real OpenAI-compatible server on 127.0.0.1 that misbehaves (replies reset
 * mid-stream, mangled events, 500 bursts, 429 + Retry-After), and over a judge that never answers:
 * one fault never stops a run, and a crash never costs a generation.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect } from '../../helpers/collect.ts';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import type {
	CompletionRequest,
	CompletionResult,
	Engine,
	JsonChatRequest
} from '../../../src/lib/probe/engine.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { runProbe, type ProbeContext } from '../../../src/lib/probe/pipeline.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import type { ProbeConfig, ProbeRecord } from '../../../src/lib/probe/types.ts';
import { startMockOpenAI, type MockFailure, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { gsmItem, probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { defaultScript, type ScriptFn } from '../../helpers/script.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

const probeScript: ScriptFn = (req) => {
	if (req.kind === 'chat') return defaultScript(req);
	if (req.prompt.endsWith('<|im_start|>assistant\n')) {
		return 'Sam starts with some apples and buys more. Adding them gives the total.\nThe answer is 7.<|im_end|>';
	}
	return `Thanks! Why did you add them (variant ${req.seed % 997})?<|im_end|>`;
};

/** 5 items × 2 perturbations = 10 records; the generator also judges (one server). */
const TEN: ProbeConfig = probeConfig({
	generator: { id: 'mock-model', template_repo: 'Qwen/Qwen2.5-0.5B-Instruct' },
	judge: { id: 'mock-model' },
	items: [0, 1, 2, 3, 4].map((i) => gsmItem(i)),
	temperatures: [0.7],
	perturbations: ['none', 'append'],
	samples: 1
});

function context(engine: Engine, store: MemoryStore, judge: Engine = engine): ProbeContext {
	return {
		engine,
		judge,
		store,
		template: fixtureTemplate(),
		concurrency: 2,
		timestamp: () => '2026-11-22T00:00:00.000Z'
	};
}

/** What a record means, without timings. */
const meaning = (rs: ProbeRecord[]) =>
	rs.map(({ usage: _u, judge_usage: _j, ...r }) => r).sort((a, b) => a.key.localeCompare(b.key));

describe('a run against a server that fails mid-reply', () => {
	let mock: MockOpenAI;
	let waits: number[];
	const engine = () =>
		new OpenAIEngine({
			baseUrl: mock.url,
			timeoutMs: 500,
			sleep: async (ms) => void waits.push(ms)
		});
	let clean: ProbeRecord[];

	beforeEach(async () => {
		mock = await startMockOpenAI({ script: probeScript, models: ['mock-model'] });
		waits = [];
		const store = new MemoryStore();
		await collect(runProbe(TEN, context(engine(), store)));
		clean = await store.getRecords(TEN.run_id);
		expect(clean).toHaveLength(10);
		mock.requests.length = 0;
	});
	afterEach(async () => {
		await mock.close();
	});

	/**
	 * Faults by request: `d` numbers distinct requests per route in arrival order, `attempt` counts
	 * how often this exact request (same body) was sent, so each schedule is deterministic however
	 * the two requests in flight interleave.
	 */
	type Schedule = (d: number, attempt: number, path: string) => MockFailure | undefined;
	const reset: MockFailure = { midStream: 'reset', afterTokens: 3 };
	const SCHEDULES: [string, Schedule][] = [
		['resets every third reply mid-stream', (d, a) => (d % 3 === 2 && a === 0 ? reset : undefined)],
		[
			'mangles one event in every third streamed reply',
			(d, a, path) =>
				path === '/v1/completions' && d % 3 === 2 && a === 0
					? { midStream: 'malformed', afterTokens: 2 }
					: undefined
		],
		[
			// A non-streamed judge reply that never starts looks like a stuck server: not retried.
			'stalls every fourth streamed reply mid-stream',
			(d, a, path) =>
				path === '/v1/completions' && d % 4 === 3 && a === 0
					? { midStream: 'stall', afterTokens: 2 }
					: undefined
		],
		[
			'answers every other request with 500, 500, then 429 + Retry-After',
			(d, a) =>
				d % 2 === 1
					? ([{ status: 500 }, { status: 500 }, { status: 429, retryAfter: '1' }] as MockFailure[])[
							a
						]
					: undefined
		]
	];

	for (const [what, schedule] of SCHEDULES) {
		it(`finishes all 10 records, the same as without faults, when the server ${what}`, async () => {
			const attempts = new Map<string, number>();
			const index = new Map<string, number>();
			const perRoute = new Map<string, number>();
			mock.faultPlan = (_n, req) => {
				const body = `${req.path} ${JSON.stringify(req.body)}`;
				if (!index.has(body)) {
					const d = perRoute.get(req.path) ?? 0;
					perRoute.set(req.path, d + 1);
					index.set(body, d);
				}
				const attempt = attempts.get(body) ?? 0;
				attempts.set(body, attempt + 1);
				return schedule(index.get(body) ?? 0, attempt, req.path);
			};
			const store = new MemoryStore();
			const events = await collect(runProbe(TEN, context(engine(), store)));
			expect(events.filter((e) => e.type === 'error')).toEqual([]);
			expect(events.filter((e) => e.type === 'retry').length).toBeGreaterThan(0);
			expect(events.at(-1)).toMatchObject({ type: 'done', aborted: false, records: 10 });
			expect((await store.getManifest(TEN.run_id))?.status).toBe('done');
			expect(meaning(await store.getRecords(TEN.run_id))).toEqual(meaning(clean));
		});
	}

	it('tells the consumer to drop the broken partial reply, so the streamed text matches', async () => {
		let completions = 0;
		mock.faultPlan = (_n, req) =>
			req.path === '/v1/completions' && completions++ === 0 ? reset : undefined;
		const events = await collect(runProbe(TEN, context(engine(), new MemoryStore())));
		const retry = events.find((e) => e.type === 'retry');
		expect(retry).toMatchObject({ stage: 'answer', item_id: 'item-0', retry: 1, of: 4 });
		// Deltas after the retry event spell the stored answer exactly.
		const after = events.slice(retry ? events.indexOf(retry) : events.length);
		const streamed = after
			.filter((e) => e.type === 'token' && e.stage === 'answer' && e.item_id === 'item-0')
			.map((e) => (e.type === 'token' ? e.delta : ''))
			.join('');
		const answer = events.find((e) => e.type === 'answer' && e.answer.item_id === 'item-0');
		expect(answer?.type === 'answer' && answer.answer.answer).toBe(streamed);
	});

	it('pauses with the cause, at the stage it happened, once every retry broke', async () => {
		mock.faultPlan = (_n, req) => (req.path === '/v1/completions' ? reset : undefined);
		const store = new MemoryStore();
		const events = await collect(runProbe(TEN, context(engine(), store)));
		const errors = events.filter((e) => e.type === 'error');
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({
			fatal: true,
			stage: 'answer',
			message: expect.stringMatching(/broke during the reply/)
		});
		expect(events.filter((e) => e.type === 'retry').length).toBeGreaterThanOrEqual(4);
		expect((await store.getManifest(TEN.run_id))?.status).toBe('paused');
	});
});

/** A judge that never answers until released: what a crash mid-judging looks like from outside. */
class StuckJudge implements Engine {
	readonly name = 'stuck';
	inner = new ScriptedEngine({ script: probeScript, maxConcurrency: 4 });
	chats = 0;
	#release?: () => void;
	#released = new Promise<void>((r) => (this.#release = r));
	capabilities() {
		return this.inner.capabilities();
	}
	load(models: string[]) {
		return this.inner.load(models);
	}
	unload() {
		return this.inner.unload();
	}
	complete(req: CompletionRequest): Promise<CompletionResult> {
		return this.inner.complete(req);
	}
	async chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		this.chats++;
		await new Promise<void>((resolve, reject) => {
			void this.#released.then(resolve);
			req.signal?.addEventListener('abort', () => reject(new AbortError()), { once: true });
		});
		return this.inner.chatJson(req);
	}
	release() {
		this.#release?.();
	}
}

describe('a record is stored when its user turn exists', () => {
	const config = probeConfig({ items: [0, 1].map((i) => gsmItem(i)), temperatures: [0, 1] });
	// 2 items × 3 perturbations × (one greedy turn at T=0 + 2 samples at T=1).
	const total = 2 * 3 * (1 + 2);

	it('before the judge answers, so a crash mid-judging redoes only judge calls', async () => {
		const generator = new ScriptedEngine({ script: probeScript, maxConcurrency: 4 });
		const judge = new StuckJudge();
		const store = new MemoryStore();
		const ctrl = new AbortController();
		const c = { ...context(generator, store, judge), signal: ctrl.signal, concurrency: 4 };
		const run = collect(runProbe(config, c));
		// Wait until judging holds every slot; the stored records are what a crash would leave.
		await waitFor(async () => (await store.getRecords(config.run_id)).length >= 4);
		const crashed = new MemoryStore();
		for (const r of await store.getRecords(config.run_id))
			await crashed.putRecord(structuredClone(r));
		for (const item of config.items) {
			const a = await store.getAnswer(config.run_id, item.id);
			if (a) await crashed.putAnswer(structuredClone(a));
		}
		ctrl.abort();
		await run;
		const pending = await crashed.getRecords(config.run_id);
		expect(pending.length).toBeGreaterThanOrEqual(4);
		expect(pending.every((r) => r.label === null && r.user_turn.length > 0)).toBe(true);

		// Resume from what the crash left: the pending turns are judged, never generated again.
		const gen2 = new ScriptedEngine({ script: probeScript, maxConcurrency: 4 });
		const judge2 = new ScriptedEngine({ script: probeScript, maxConcurrency: 4 });
		const events = await collect(runProbe(config, context(gen2, crashed, judge2)));
		expect(events.at(-1)).toMatchObject({ type: 'done', aborted: false, records: total });
		const after = await crashed.getRecords(config.run_id);
		expect(after).toHaveLength(total);
		expect(after.every((r) => r.label !== null)).toBe(true);
		const regenerated = gen2.calls.filter(
			(x) =>
				x.kind === 'complete' && pending.some((r) => r.prompt === x.prompt && r.seed === x.seed)
		);
		expect(regenerated).toEqual([]);
		expect(gen2.count('complete')).toBe(total - pending.length);
		expect(judge2.count('chat')).toBe(total);
		const kept = new Map(pending.map((r) => [r.key, r.user_turn]));
		for (const r of after) if (kept.has(r.key)) expect(r.user_turn).toBe(kept.get(r.key));
	});

	it('counts a pending store and its labelled store as one unit: progress ends at the total', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const events = await collect(runProbe(config, context(engine, new MemoryStore())));
		const records = events.filter((e) => e.type === 'record');
		expect(records).toHaveLength(2 * total);
		expect(records.filter((e) => e.type === 'record' && e.record.label === null)).toHaveLength(
			total
		);
		const progress = events.filter((e) => e.type === 'progress');
		expect(progress.at(-1)).toMatchObject({ done: total, generated: total, total });
	});
});

async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
	const until = Date.now() + ms;
	while (!(await check())) {
		if (Date.now() > until) throw new Error('timed out waiting');
		await new Promise((r) => setTimeout(r, 5));
	}
}
