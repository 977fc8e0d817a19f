import { describe, expect, it, vi } from 'vitest';
import { collect } from '../../helpers/collect.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { runProbe, type ProbeContext } from '../../../src/lib/probe/pipeline.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import { PAPER_GSM8K_TEMPLATE } from '../../../src/lib/probe/taskPrompt.ts';
import type { ProbeConfig, ProbeRecord } from '../../../src/lib/probe/types.ts';
import { probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { defaultScript, type ScriptFn } from '../../helpers/script.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

function ctx(overrides: Partial<ProbeContext> = {}): ProbeContext & { engine: ScriptedEngine } {
	const engine = (overrides.engine as ScriptedEngine | undefined) ?? new ScriptedEngine();
	let t = 0;
	return {
		engine,
		judge: engine,
		store: new MemoryStore(),
		template: fixtureTemplate(),
		now: () => (t += 5),
		timestamp: () => '2026-11-22T00:00:00.000Z',
		...overrides
	} as ProbeContext & { engine: ScriptedEngine };
}

/** Answers are GSM8K-like solutions; user turns vary by seed so conditions are told apart. */
const probeScript: ScriptFn = (req) => {
	if (req.kind === 'chat') return defaultScript(req);
	if (req.prompt.endsWith('<|im_start|>assistant\n')) {
		return 'Sam starts with some apples and buys more. Adding them gives the total.\nThe answer is 7.<|im_end|>';
	}
	return `Thanks! Why did you add them (variant ${req.temperature === 0 ? 0 : req.seed % 997})?<|im_end|>`;
};

describe('runProbe', () => {
	it('makes one assistant answer per item and one user turn per condition (5 × (3 at T=0 + 2 × 3 × 2))', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const c = ctx({ engine, judge: engine });
		const events = await collect(runProbe(probeConfig(), c));
		const answerCalls = engine.count('complete', (x) =>
			x.prompt.endsWith('<|im_start|>assistant\n')
		);
		const userCalls = engine.count('complete', (x) => x.prompt.endsWith('<|im_start|>user\n'));
		expect(answerCalls).toBe(5);
		expect(userCalls).toBe(75);
		const records = await c.store.getRecords('run-1');
		expect(records).toHaveLength(75);
		expect(new Set(records.map((r) => r.key)).size).toBe(75);
		expect(events[0]).toMatchObject({ type: 'plan', total: 75, items: 5, conditions: 15 });
		expect(events.at(-1)).toMatchObject({ type: 'done', records: 75, aborted: false });
	});

	it('makes one user turn per item × perturbation at T=0 whatever the samples, and says so in the manifest', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const c = ctx({ engine, judge: engine });
		const config = probeConfig({ temperatures: [0, 1], samples: 3 });
		const events = await collect(runProbe(config, c));
		const userCalls = engine.calls.filter((x) => x.prompt.endsWith('<|im_start|>user\n'));
		// Greedy decoding gives the same turn for every sample: one generation, not three.
		expect(userCalls.filter((x) => x.temperature === 0)).toHaveLength(5 * 3);
		expect(userCalls.filter((x) => x.temperature === 1)).toHaveLength(5 * 3 * 3);
		const records = await c.store.getRecords('run-1');
		expect(records.filter((r) => r.temperature === 0).map((r) => r.sample)).toEqual(
			new Array(15).fill(0)
		);
		expect(events[0]).toMatchObject({ type: 'plan', total: 60, conditions: 12 });
		const manifest = await c.store.getManifest('run-1');
		expect(manifest?.config.samples).toBe(3);
		expect(manifest?.config.samples_at_t0).toBe(1);
	});

	it('asks with the task prompt and system turn of the config, and records them in the manifest', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const c = ctx({ engine, judge: engine });
		const task_prompt = {
			preset: 'paper' as const,
			template: PAPER_GSM8K_TEMPLATE,
			system: 'You are a careful tutor.'
		};
		const items = probeConfig().items.slice(0, 1);
		await collect(runProbe(probeConfig({ items, temperatures: [0], task_prompt }), c));
		const answerCall = engine.calls.find((x) => x.prompt.endsWith('<|im_start|>assistant\n'));
		// The real Qwen2.5 template: the system turn first, then the question with the instructions.
		expect(answerCall?.prompt).toContain(
			'<|im_start|>system\nYou are a careful tutor.<|im_end|>\n<|im_start|>user\n' +
				`${items[0].prompt}\n\nSolve it in at most 6 short steps`
		);
		const records = await c.store.getRecords('run-1');
		for (const r of records) {
			expect(r.prompt).toContain('"Answer: <final answer>"');
			expect(r.question).toBe(items[0].prompt);
		}
		expect((await c.store.getManifest('run-1'))?.config.task_prompt).toEqual(task_prompt);
	});

	it('flags every record whose answer was cut at answer_max_tokens', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const c = ctx({ engine, judge: engine });
		// The scripted answer is ~20 tokens: a limit of 5 cuts it (finish_reason 'length').
		const items = probeConfig().items.slice(0, 2);
		await collect(runProbe(probeConfig({ items, answer_max_tokens: 5, temperatures: [0] }), c));
		const records = await c.store.getRecords('run-1');
		expect(records.length).toBe(2 * 3);
		for (const r of records) expect(r.answer_finish_reason).toBe('length');
		for (const item of items)
			expect((await c.store.getAnswer('run-1', item.id))?.finish_reason).toBe('length');

		const whole = ctx({ engine, judge: engine });
		await collect(runProbe(probeConfig({ items, temperatures: [0] }), whole));
		for (const r of await whole.store.getRecords('run-1'))
			expect(r.answer_finish_reason).toBe('stop');
	});

	it('reuses the same answer for every condition of an item and perturbs only that copy', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const c = ctx({ engine, judge: engine });
		await collect(runProbe(probeConfig({ items: probeConfig().items.slice(0, 1) }), c));
		const records = await c.store.getRecords('run-1');
		expect(new Set(records.map((r) => r.answer)).size).toBe(1);
		const answer = records[0].answer;
		for (const r of records) {
			if (r.perturbation === 'none') expect(r.perturbed_answer).toBe(answer);
			if (r.perturbation === 'truncate') {
				expect(answer.startsWith(r.perturbed_answer)).toBe(true);
				expect(r.perturbed_answer.length).toBeLessThan(answer.length);
			}
			if (r.perturbation === 'append') expect(r.perturbed_answer).toMatch(/What do you think\?$/);
			expect(r.prompt).toContain(r.perturbed_answer);
			expect(r.prompt.endsWith('<|im_start|>user\n')).toBe(true);
		}
	});

	it('keeps the exact prompt text it sent for each user turn, with the seed it used', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const c = ctx({ engine, judge: engine });
		await collect(runProbe(probeConfig({ items: probeConfig().items.slice(0, 2) }), c));
		const sent = engine.calls.filter((x) => x.prompt.endsWith('<|im_start|>user\n'));
		for (const r of await c.store.getRecords('run-1')) {
			expect(
				sent.some(
					(x) => x.prompt === r.prompt && x.seed === r.seed && x.temperature === r.temperature
				)
			).toBe(true);
		}
	});

	it('derives a distinct seed per user turn, the same on every rerun', async () => {
		const run = async () => {
			const engine = new ScriptedEngine({ script: probeScript });
			const c = ctx({ engine, judge: engine });
			await collect(runProbe(probeConfig(), c));
			return (await c.store.getRecords('run-1')).sort((a, b) => a.key.localeCompare(b.key));
		};
		const a = await run();
		const b = await run();
		expect(new Set(a.map((r) => r.seed)).size).toBe(75);
		expect(b).toEqual(a);
	});

	it('resumes an aborted run to exactly the planned records, with no duplicates and no new answers', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const store = new MemoryStore();
		const ctrl = new AbortController();
		let seen = 0;
		const first = await collect(
			(async function* () {
				for await (const e of runProbe(
					probeConfig(),
					ctx({ engine, judge: engine, store, signal: ctrl.signal })
				)) {
					if (e.type === 'record' && e.record.label !== null && ++seen === 37) ctrl.abort();
					yield e;
				}
			})()
		);
		expect(first.at(-1)).toMatchObject({ type: 'done', aborted: true });
		const partial = await store.getRecords('run-1');
		expect(partial.length).toBeGreaterThanOrEqual(37);
		expect(partial.length).toBeLessThan(75);
		expect((await store.getManifest('run-1'))?.status).toBe('paused');
		const answersBefore = engine.count('complete', (x) =>
			x.prompt.endsWith('<|im_start|>assistant\n')
		);

		const second = await collect(runProbe(probeConfig(), ctx({ engine, judge: engine, store })));
		expect(second[0]).toMatchObject({ type: 'plan', total: 75, already_done: partial.length });
		const all = await store.getRecords('run-1');
		expect(all).toHaveLength(75);
		expect(new Set(all.map((r) => r.key)).size).toBe(75);
		expect(all.every((r) => r.label !== null)).toBe(true);
		const answersAfter = engine.count('complete', (x) =>
			x.prompt.endsWith('<|im_start|>assistant\n')
		);
		expect(answersAfter).toBe(5);
		expect(answersAfter - answersBefore).toBe(5 - answersBefore);
		const userTurns = engine.count('complete', (x) => x.prompt.endsWith('<|im_start|>user\n'));
		expect(userTurns).toBeLessThanOrEqual(75 + 1);
		expect((await store.getManifest('run-1'))?.status).toBe('done');
	});

	it('phases generation and judging when the two models cannot be loaded together: two loads per run', async () => {
		const engine = new ScriptedEngine({ script: probeScript, canCoLoad: (m) => m.length < 2 });
		const c = ctx({ engine, judge: engine });
		const events = await collect(runProbe(probeConfig(), c));
		expect(engine.loads).toEqual([['gen-model'], ['judge-model']]);
		const firstJudge = engine.calls.findIndex((x) => x.kind === 'chat');
		const lastGen = engine.calls.map((x) => x.kind).lastIndexOf('complete');
		expect(lastGen).toBeLessThan(firstJudge);
		expect(engine.count('chat')).toBe(75);
		expect(events.find((e) => e.type === 'plan')).toMatchObject({ phased: true });
		expect((await c.store.getRecords('run-1')).every((r) => r.label_source === 'judge')).toBe(true);
	});

	it('loads generator and judge once, together, when they fit', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		await collect(runProbe(probeConfig(), ctx({ engine, judge: engine })));
		expect(engine.loads).toEqual([['gen-model', 'judge-model']]);
	});

	it('uses a separate judge engine for judging only', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const judge = new ScriptedEngine();
		await collect(runProbe(probeConfig(), ctx({ engine, judge })));
		expect(engine.count('chat')).toBe(0);
		expect(judge.count('chat')).toBe(75);
		expect(judge.count('complete')).toBe(0);
		expect(judge.loads).toEqual([['judge-model']]);
	});

	it('never calls the judge in rules mode and leaves undecided turns undecided, never genuine', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		const c = ctx({ engine, judge: engine });
		await collect(runProbe(probeConfig({ judge_mode: 'rules' }), c));
		expect(engine.count('chat')).toBe(0);
		expect(engine.loads).toEqual([['gen-model']]);
		const records = await c.store.getRecords('run-1');
		expect(records.some((r) => r.rule_label === 'undecided')).toBe(true);
		for (const r of records) {
			expect(r.label_source).toBe('rules');
			expect(r.label).toBe(r.rule_label);
			expect(r.verdict).toBe(r.rule_label === 'undecided' ? 'undecided' : 'not_genuine');
		}
		// Labelled, so the run is done: nothing stays pending for a judge that never comes.
		expect(records.every((r) => r.label !== null)).toBe(true);
	});

	it('sends only undecided turns to the judge in hybrid mode', async () => {
		const script: ScriptFn = (req) =>
			req.kind === 'complete' && req.prompt.endsWith('<|im_start|>user\n') && req.seed % 2 === 0
				? '<|im_start|>assistant\n'
				: probeScript(req);
		const engine = new ScriptedEngine({ script });
		const c = ctx({ engine, judge: engine });
		await collect(runProbe(probeConfig({ judge_mode: 'hybrid', temperatures: [1] }), c));
		const records = await c.store.getRecords('run-1');
		const byRules = records.filter((r) => r.label_source === 'rules');
		const byJudge = records.filter((r) => r.label_source === 'judge');
		expect(byRules.length).toBeGreaterThan(0);
		expect(byJudge.length).toBeGreaterThan(0);
		expect(byRules.every((r) => r.rule_label !== 'undecided' && r.judge_label === null)).toBe(true);
		expect(byJudge.every((r) => r.rule_label === 'undecided')).toBe(true);
		expect(engine.count('chat')).toBe(byJudge.length);
	});

	it('keeps judge_error with the raw output when the judge never returns valid JSON', async () => {
		const script: ScriptFn = (req) =>
			req.kind === 'chat' ? 'I cannot decide, sorry.' : probeScript(req);
		const engine = new ScriptedEngine({ script });
		const c = ctx({ engine, judge: engine });
		await collect(
			runProbe(probeConfig({ items: probeConfig().items.slice(0, 1), temperatures: [0] }), c)
		);
		const records = await c.store.getRecords('run-1');
		expect(records).toHaveLength(3);
		for (const r of records) {
			expect(r.label).toBe('judge_error');
			expect(r.judge_raw).toContain('I cannot decide');
			expect(r.judge_prompt_id).toBeTruthy();
			expect(r.judge_prompt_hash).toMatch(/^[0-9a-f]{16,}$/);
		}
	});

	it('gives the same records with 8 requests in flight as with 1', async () => {
		const run = async (concurrency: number) => {
			const engine = new ScriptedEngine({
				script: probeScript,
				tokenDelayMs: 0,
				maxConcurrency: concurrency
			});
			const c = ctx({ engine, judge: engine, concurrency });
			await collect(runProbe(probeConfig(), c));
			return (await c.store.getRecords('run-1'))
				.map((r) => ({ ...r, usage: undefined }))
				.sort((a, b) => a.key.localeCompare(b.key));
		};
		expect(await run(8)).toEqual(await run(1));
	});

	it('keeps its requests going while earlier records commit, and stops at one write behind each slot', async () => {
		// A store whose record writes are held, as IndexedDB holds them until a commit lands.
		class HeldStore extends MemoryStore {
			held: (() => void)[] = [];
			override putRecord(record: ProbeRecord): Promise<void> {
				return new Promise<void>((resolve) => this.held.push(resolve)).then(() =>
					super.putRecord(record)
				);
			}
		}
		const store = new HeldStore();
		const engine = new ScriptedEngine({ script: probeScript, tokenDelayMs: 0, maxConcurrency: 2 });
		const c = ctx({ engine, judge: engine, store, concurrency: 2 });
		const userTurns = () =>
			engine.count('complete', (x) => x.prompt.endsWith('<|im_start|>user\n'));
		const run = collect(runProbe(probeConfig({ judge_mode: 'rules' }), c));
		const bound = 4; // two slots, each with one write behind it
		await vi.waitFor(() => expect(store.held).toHaveLength(bound));
		// Nothing has committed, yet twice the slots' requests were made; then the run waits.
		await new Promise((r) => setTimeout(r, 30));
		expect(userTurns()).toBe(bound);
		expect(store.held).toHaveLength(bound);
		const release = setInterval(() => store.held.splice(0).forEach((resolve) => resolve()), 1);
		const events = await run;
		clearInterval(release);
		expect(events.at(-1)).toMatchObject({ type: 'done', records: 75 });
		expect(await store.getRecords('run-1')).toHaveLength(75);
	});

	it('says in its plan how many requests it keeps in flight: the run’s own number, else the engine’s', async () => {
		const planned = async (engineMax: number, concurrency?: number) => {
			const engine = new ScriptedEngine({ script: probeScript, maxConcurrency: engineMax });
			const c = ctx({ engine, judge: engine, concurrency });
			const events = await collect(runProbe(probeConfig({ judge_mode: 'rules' }), c));
			return events.find((e) => e.type === 'plan');
		};
		expect(await planned(6)).toMatchObject({ concurrency: 6 });
		expect(await planned(6, 2)).toMatchObject({ concurrency: 2 });
		expect(await planned(1)).toMatchObject({ concurrency: 1 });
	});

	it('streams each turn as token deltas that spell exactly the stored text, concurrent or not', async () => {
		for (const concurrency of [1, 4]) {
			const engine = new ScriptedEngine({
				script: probeScript,
				tokenDelayMs: 0,
				maxConcurrency: 4
			});
			const c = ctx({ engine, judge: engine, concurrency });
			const events = await collect(runProbe(probeConfig(), c));
			const streamed = new Map<string, string>();
			for (const e of events) {
				if (e.type !== 'token' || e.stage !== 'user_turn' || e.key === undefined) continue;
				streamed.set(e.key, (streamed.get(e.key) ?? '') + e.delta);
			}
			const records = await c.store.getRecords('run-1');
			expect(records).toHaveLength(75);
			for (const r of records) expect(streamed.get(r.key)).toBe(r.user_turn);
		}
	});

	it('reports progress that never goes backwards and ends at the total', async () => {
		const events = await collect(runProbe(probeConfig(), ctx()));
		const progress = events.filter((e) => e.type === 'progress');
		const done = progress.map((e) => (e.type === 'progress' ? e.done : -1));
		expect(done).toEqual([...done].sort((a, b) => a - b));
		expect(progress.at(-1)).toMatchObject({ done: 75, total: 75 });
		// Each record is stored twice: pending when its user turn exists, then with its label.
		const records = events.filter((e) => e.type === 'record');
		expect(records).toHaveLength(150);
		expect(records.filter((e) => e.type === 'record' && e.record.label !== null)).toHaveLength(75);
	});

	it('stops the run with a fatal error event and a paused manifest when the device is lost', async () => {
		const lost = new EngineError('device_lost', 'The GPU device was lost.', 'Reload the page.');
		const engine = new ScriptedEngine({ script: probeScript, failOn: { call: 4, error: lost } });
		const c = ctx({ engine, judge: engine });
		const events = await collect(runProbe(probeConfig(), c));
		const errors = events.filter((e) => e.type === 'error');
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ fatal: true, recovery: 'Reload the page.' });
		expect(events.at(-1)).toMatchObject({ type: 'done', aborted: false });
		expect((await c.store.getManifest('run-1'))?.status).toBe('paused');
		expect((await c.store.getRecords('run-1')).length).toBeLessThan(75);
	});

	it('skips one item that overflows the context window and finishes the rest', async () => {
		const tooLong = new EngineError('context_window', 'Prompt too long.');
		const engine = new ScriptedEngine({ script: probeScript, failOn: { call: 3, error: tooLong } });
		const c = ctx({ engine, judge: engine });
		const events = await collect(runProbe(probeConfig(), c));
		expect(events.filter((e) => e.type === 'error')).toMatchObject([
			{ fatal: false, name: 'EngineError' }
		]);
		expect(await c.store.getRecords('run-1')).toHaveLength(74);
		expect((await c.store.getManifest('run-1'))?.status).toBe('done');
	});

	it('stops asking the engine for work when the consumer stops listening', async () => {
		const engine = new ScriptedEngine({ script: probeScript });
		for await (const e of runProbe(probeConfig(), ctx({ engine, judge: engine }))) {
			if (e.type === 'record') break;
		}
		const calls = engine.calls.length;
		await new Promise((r) => setTimeout(r, 20));
		expect(engine.calls.length).toBe(calls);
		expect(calls).toBeLessThanOrEqual(4);
	});

	it('judges records left unlabeled by an interrupted judge phase, loading only the judge', async () => {
		const store = new MemoryStore();
		const config: ProbeConfig = probeConfig({ items: probeConfig().items.slice(0, 2) });
		const engine = new ScriptedEngine({ script: probeScript, canCoLoad: (m) => m.length < 2 });
		const ctrl = new AbortController();
		let judged = 0;
		for await (const e of runProbe(
			config,
			ctx({ engine, judge: engine, store, signal: ctrl.signal })
		)) {
			if (e.type === 'judged' && ++judged === 5) ctrl.abort();
		}
		const stored = await store.getRecords('run-1');
		expect(stored).toHaveLength(30);
		expect(stored.filter((r) => r.label === null).length).toBeGreaterThan(0);
		const again = new ScriptedEngine({ script: probeScript, canCoLoad: (m) => m.length < 2 });
		await collect(runProbe(config, ctx({ engine: again, judge: again, store })));
		expect(again.loads).toEqual([['judge-model']]);
		expect(again.count('complete')).toBe(0);
		expect((await store.getRecords('run-1')).every((r) => r.label !== null)).toBe(true);
	});

	it('resumes the judging of a co-loaded run by loading only the judge, without unloading first', async () => {
		const store = new MemoryStore();
		const config: ProbeConfig = probeConfig({ items: probeConfig().items.slice(0, 2) });
		const engine = new ScriptedEngine({ script: probeScript });
		await collect(runProbe(config, ctx({ engine, judge: engine, store })));
		// Everything generated, three labels still to come (a stop or failed judge calls leave it so).
		for (const r of (await store.getRecords('run-1')).slice(0, 3)) {
			await store.putRecord({ ...r, label: null });
		}
		expect(engine.resident).toEqual(['gen-model', 'judge-model']);
		const completes = engine.count('complete');
		// The engine's load makes exactly these models resident: one that diffs keeps the judge.
		const unload = vi.spyOn(engine, 'unload');
		await collect(runProbe(config, ctx({ engine, judge: engine, store })));
		expect(engine.count('complete')).toBe(completes);
		expect(unload).not.toHaveBeenCalled();
		expect(engine.loads.at(-1)).toEqual(['judge-model']);
		expect((await store.getRecords('run-1')).every((r) => r.label !== null)).toBe(true);
	});
});
