import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import type { ProbeConfig, ProbeRecord } from '../../../src/lib/probe/types.ts';
import { planConditions, recordKey } from '../../../src/lib/probe/plan.ts';
import {
	errorHeading,
	RunActiveError,
	RunController,
	type RunSetup,
	type RunStart,
	type StopReason
} from '../../../src/lib/state/runner.svelte.ts';
import { resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { gsmItem, probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { nlpFromFixture } from '../../helpers/englishNlp.ts';
import { defaultScript, type ScriptFn } from '../../helpers/script.ts';
import { ScriptedEngine, type ScriptedEngineOptions } from '../../helpers/scriptedEngine.ts';

const script: ScriptFn = (req) => {
	if (req.kind === 'chat') return defaultScript(req);
	if (req.prompt.endsWith('<|im_start|>assistant\n'))
		return 'They add up.\nThe answer is 7.<|im_end|>';
	return `Why did you add them (variant ${req.temperature === 0 ? 0 : req.seed % 997})?<|im_end|>`;
};

/** A store that calls `onPut` after each stored record, e.g. to pause at a chosen moment. */
class WatchedStore extends MemoryStore {
	puts = 0;
	onPut: (n: number, r: ProbeRecord) => void = () => {};
	override async putRecord(r: ProbeRecord): Promise<void> {
		await super.putRecord(r);
		this.onPut(++this.puts, r);
	}
}

function small(overrides: Partial<ProbeConfig> = {}): ProbeConfig {
	return probeConfig({
		items: [0, 1, 2].map((i) => gsmItem(i)),
		temperatures: [0, 1],
		perturbations: ['none', 'truncate'],
		samples: 1,
		...overrides
	});
}

function harness(opts: ScriptedEngineOptions = {}, store = new WatchedStore()) {
	const engine = new ScriptedEngine({ script, ...opts });
	const released: StopReason[] = [];
	const setup: RunSetup = {
		engine,
		judge: engine,
		template: fixtureTemplate(),
		release: (why) => {
			released.push(why);
		}
	};
	let t = 0;
	const request = (config: ProbeConfig, over: Partial<RunStart> = {}): RunStart => ({
		config,
		store,
		prepare: async () => setup,
		now: () => (t += 5),
		timestamp: () => '2026-11-22T00:00:00.000Z',
		...over
	});
	return { engine, store, released, request };
}

function plannedKeys(config: ProbeConfig): string[] {
	return config.items.flatMap((i) => planConditions(config).map((c) => recordKey(i.id, c)));
}

describe('RunController', () => {
	it('turns a whole run into state: plan, one ready bar per model, progress, tally, conversation', async () => {
		const h = harness();
		const run = new RunController();
		const config = small({ judge_mode: 'llm' });
		await run.start(h.request(config));
		expect(run.phase).toBe('done');
		expect(run.runId).toBe('run-1');
		expect(run.plan).toMatchObject({ items: 3, conditions: 4, total: 12, already_done: 0 });
		expect(run.progress).toMatchObject({ done: 12, generated: 12, total: 12 });
		expect(run.loads.map((l) => [l.model, l.fraction, l.phase])).toEqual([
			['gen-model', 1, 'ready'],
			['judge-model', 1, 'ready']
		]);
		// Counted as the results count the stored records: 12 genuine verdicts of 12.
		expect(run.tally).toEqual(resultsTable(await h.store.getRecords('run-1'), []).overall);
		expect(run.tally?.followup).toMatchObject({ k: 12, n: 12 });
		const c = run.current;
		expect(c?.item_id).toBe('item-2');
		expect(c?.question).toBe(gsmItem(2).prompt);
		expect(c?.answer).toBe('They add up.\nThe answer is 7.');
		expect(c?.turns).toHaveLength(4);
		for (const turn of c?.turns ?? []) {
			expect(turn.streaming).toBe(false);
			expect(turn.label).toBe('genuine_followup');
			expect(turn.source).toBe('judge');
			expect(turn.text).toMatch(/^Why did you add them/);
		}
		expect(run.recent.length).toBeGreaterThan(0);
		expect(run.errors).toEqual([]);
		expect(h.released).toEqual(['done']);
	});

	it('streams tokens into the turn being generated before the turn is complete', async () => {
		const h = harness({ tokenDelayMs: 2 });
		const run = new RunController();
		const done = run.start(h.request(small({ judge_mode: 'rules' })));
		const partials: string[] = [];
		const timer = setInterval(() => {
			const t = run.current?.turns.find((x) => x.streaming);
			if (t && t.text !== '') partials.push(t.text);
		}, 1);
		await done;
		clearInterval(timer);
		expect(partials.some((p) => /^Why/.test(p) && !p.endsWith('?'))).toBe(true);
	});

	it('pauses on request, marks the run paused, and a resume reaches exactly the plan', async () => {
		const h = harness();
		const run = new RunController();
		const config = small({ judge_mode: 'hybrid' });
		// Count labelled stores: a turn sent to the judge is also stored before, pending.
		let labelled = 0;
		h.store.onPut = (_n, r) => {
			if (r.label !== null && ++labelled === 5) run.pause();
		};
		await run.start(h.request(config));
		expect(run.phase).toBe('paused');
		expect(h.released).toEqual(['pause']);
		expect((await h.store.getManifest('run-1'))?.status).toBe('paused');
		const afterPause = (await h.store.getRecords('run-1')).filter((r) => r.label !== null).length;
		expect(afterPause).toBeGreaterThanOrEqual(5);
		expect(afterPause).toBeLessThan(12);

		h.store.onPut = () => {};
		await run.start(h.request(config));
		expect(run.phase).toBe('done');
		expect(run.plan?.already_done).toBe(afterPause);
		const records = await h.store.getRecords('run-1');
		expect(records.map((r) => r.key).sort()).toEqual(plannedKeys(config).sort());
		expect(records.every((r) => r.label !== null)).toBe(true);
		expect(run.progress).toMatchObject({ done: 12, total: 12 });
		expect(run.tally?.judged).toBe(12);
		// Stored answers are reused: across both sessions each item was answered exactly once.
		expect(h.engine.count('complete', (c) => c.prompt.endsWith('assistant\n'))).toBe(3);
		expect((await h.store.getManifest('run-1'))?.status).toBe('done');
	});

	it('pauses and resumes repeatedly without duplicating or losing a record', async () => {
		const h = harness();
		const run = new RunController();
		const config = small({ judge_mode: 'llm', samples: 2 });
		let sessions = 0;
		while (run.phase !== 'done') {
			sessions++;
			const stopAt = h.store.puts + 3;
			h.store.onPut = (n) => {
				if (n === stopAt) run.pause();
			};
			await run.start(h.request(config));
			expect(sessions).toBeLessThan(20);
		}
		expect(sessions).toBeGreaterThan(2);
		const records = await h.store.getRecords('run-1');
		// 3 items × 2 perturbations × (1 greedy turn at T=0 + 2 samples at T=1).
		expect(records).toHaveLength(18);
		expect(new Set(records.map((r) => r.key)).size).toBe(18);
		expect(run.tally?.labels.genuine_followup).toBe(18);
		expect(run.tally).toEqual(resultsTable(records, []).overall);
	});

	it('shows generation and judging apart when the two models cannot share the GPU', async () => {
		const h = harness({ canCoLoad: () => false });
		const run = new RunController();
		const stages: (string | null)[] = [];
		h.store.onPut = () => stages.push(run.stage);
		await run.start(h.request(small({ judge_mode: 'llm' })));
		expect(run.plan?.phased).toBe(true);
		expect(stages.slice(0, 12).every((s) => s === 'generate')).toBe(true);
		expect(stages.slice(12).every((s) => s === 'judge')).toBe(true);
		expect(run.progress).toMatchObject({ done: 12, generated: 12 });
		expect(run.tally?.labels.genuine_followup).toBe(12);
		expect(run.current?.turns[0].label).toBe('genuine_followup');
	});

	it('allows one active run per controller and a new one once it has stopped', async () => {
		const h = harness({ tokenDelayMs: 1 });
		const run = new RunController();
		const first = run.start(h.request(small()));
		expect(run.active).toBe(true);
		expect(() => run.start(h.request(small({ run_id: 'run-2' })))).toThrow(RunActiveError);
		await first;
		expect(run.active).toBe(false);
		await run.start(h.request(small({ run_id: 'run-2' })));
		expect(run.runId).toBe('run-2');
		expect(run.phase).toBe('done');
	});

	it('cancels like pause (run kept, status paused) but tells the shell to free the models', async () => {
		const h = harness();
		const run = new RunController();
		h.store.onPut = (n) => {
			if (n === 2) run.cancel();
		};
		await run.start(h.request(small()));
		expect(run.phase).toBe('paused');
		expect(h.released).toEqual(['cancel']);
		expect((await h.store.getManifest('run-1'))?.status).toBe('paused');
	});

	it('pauses with the recovery text when the GPU device is lost', async () => {
		const lost = new EngineError(
			'device_lost',
			'The GPU device was lost.',
			'Reload the page and press Resume.'
		);
		const h = harness({ failOn: { call: 4, error: lost } });
		const run = new RunController();
		await run.start(h.request(small()));
		expect(run.phase).toBe('paused');
		expect(run.fatal).toMatchObject({ message: 'The GPU device was lost.', fatal: true });
		expect(run.fatal?.recovery).toBe('Reload the page and press Resume.');
		expect(h.released).toEqual(['fatal']);
		expect((await h.store.getManifest('run-1'))?.status).toBe('paused');
	});

	it('fails without touching stored work when preparing the engines throws', async () => {
		const h = harness();
		const run = new RunController();
		await run.start(
			h.request(small(), {
				prepare: async () => {
					throw new EngineError('bad_model', 'Model x is not served.', 'Pick a served model.');
				}
			})
		);
		expect(run.phase).toBe('failed');
		expect(run.fatal).toMatchObject({
			message: 'Model x is not served.',
			recovery: 'Pick a served model.'
		});
		expect(await h.store.getManifest('run-1')).toBeUndefined();
	});

	it('streams at up to 20 commits a second from one request in flight, 5 from several', async () => {
		const seen: Record<number, number[]> = {};
		for (const maxConcurrency of [1, 6]) {
			const h = harness({ maxConcurrency });
			const run = new RunController({ schedule: (fn) => void fn() });
			h.store.onPut = () => (seen[maxConcurrency] ??= []).push(run.commitIntervalMs);
			await run.start(h.request(small({ judge_mode: 'rules' })));
			await run.finished;
		}
		// The interval is the run's from its first record on.
		expect(new Set(seen[1])).toEqual(new Set([50]));
		expect(new Set(seen[6])).toEqual(new Set([200]));
	});

	it('commits streamed state once per frame, and the last state as soon as the run stops', async () => {
		const h = harness({ tokenDelayMs: 1, maxConcurrency: 2 });
		const frames: (() => void)[] = [];
		const run = new RunController({ schedule: (commit) => void frames.push(commit) });
		const seen: Record<string, unknown> = {};
		h.store.onPut = (n) => {
			if (n !== 3) return;
			// Dozens of events went by, and no frame has run yet.
			seen.phase = run.phase;
			seen.loads = run.loads.length;
			seen.progress = run.progress;
			seen.current = run.current;
			seen.framesAsked = frames.length;
			for (const commit of frames.splice(0)) commit();
			seen.afterFrame = run.current?.turns.length;
			seen.tally = run.tally?.judged;
		};
		await run.start(h.request(small({ judge_mode: 'rules' })));
		expect(seen).toEqual({
			phase: 'running',
			loads: 1,
			progress: null,
			current: null,
			framesAsked: 1,
			afterFrame: expect.any(Number),
			tally: 2
		});
		expect(seen.afterFrame).toBeGreaterThan(0);
		// The run ended between frames: its final state shows without waiting for one.
		expect(run.phase).toBe('done');
		expect(run.progress).toMatchObject({ done: 12, generated: 12, total: 12 });
		expect(run.tally?.labels.undecided).toBe(12);
		// The rules never say genuine: like the results, the live tally states no rate.
		expect(run.tally?.followup).toBeNull();
		expect(run.current?.turns.every((t) => t.label !== undefined && !t.streaming)).toBe(true);
	});

	it('counts labels already stored before a resume in the tally', async () => {
		const h = harness();
		const first = new RunController();
		h.store.onPut = (n) => {
			if (n === 4) first.pause();
		};
		await first.start(h.request(small({ judge_mode: 'rules' })));
		h.store.onPut = () => {};
		const second = new RunController();
		const done = second.start(h.request(small({ judge_mode: 'rules' })));
		await done;
		expect(second.tally?.judged).toBe(12);
	});
});

describe('RunController with IFBench items that need NLTK data', () => {
	// "They add up. The answer is 7." has its keyword in the 2nd Punkt sentence.
	const item = gsmItem(0, {
		id: 'ifbench-1',
		task: 'ifeval',
		gold: undefined,
		instruction_ids: ['sentence:keyword'],
		kwargs: [{ word: 'answer', N: 2 }]
	});
	const config = () => small({ items: [item], temperatures: [0], perturbations: ['none'] });

	it('scores them with the NLP the set-up loaded', async () => {
		const h = harness();
		const nlp = nlpFromFixture(
			new URL('../../fixtures/ifbench-reference/nltk-subset/', import.meta.url)
		);
		const run = new RunController();
		const base = await h.request(config()).prepare(new AbortController().signal);
		await run.start(h.request(config(), { prepare: async () => ({ ...base, nlp }) }));
		expect(run.phase).toBe('done');
		expect((await h.store.getAnswer('run-1', 'ifbench-1'))?.correct).toBe(true);
		expect(run.errors).toEqual([]);
	});

	it('runs on without it, leaves them unscored, and shows why once, not as fatal', async () => {
		const h = harness();
		const run = new RunController();
		const base = await h.request(config()).prepare(new AbortController().signal);
		const nlp = { unavailable: 'raw.githubusercontent.com could not be reached' };
		await run.start(h.request(config(), { prepare: async () => ({ ...base, nlp }) }));
		expect(run.phase).toBe('done');
		const answer = await h.store.getAnswer('run-1', 'ifbench-1');
		expect(answer?.correct).toBeNull();
		expect(answer?.score_detail).toMatch(/needs NLTK's English data, which is not loaded/);
		expect(run.errors).toHaveLength(1);
		expect(run.errors[0]).toMatchObject({ stage: 'scoring', fatal: false });
		expect(run.errors[0].message).toMatch(/raw\.githubusercontent\.com could not be reached/);
		expect(run.errors[0].recovery).toMatch(/unscored/);
		// Shown as what it is: nothing was skipped and the run did not stop.
		expect(errorHeading(run.errors[0])).toBe('Some answers are not scored');
	});
});

describe('errorHeading', () => {
	const e = { stage: 'answer', name: 'E', message: 'm' };
	it('says what an error did to the run', () => {
		expect(errorHeading({ ...e, fatal: true })).toBe('The run stopped');
		expect(errorHeading({ ...e, fatal: false, key: 'q1|0|none|0' })).toBe('Skipped q1|0|none|0');
		expect(errorHeading({ ...e, fatal: false })).toBe('Skipped an item');
		expect(errorHeading({ ...e, stage: 'scoring', fatal: false })).toBe(
			'Some answers are not scored'
		);
	});
});

/** The Hub blocked: the engine's load fails as web-llm's does behind a firewall. */
class HubBlockedEngine extends ScriptedEngine {
	override async load(): Promise<void> {
		throw new EngineError(
			'network',
			'Downloading the model files from Hugging Face (huggingface.co) failed.',
			'If huggingface.co is blocked on this network, models cannot download here.',
			true
		);
	}
}

describe('RunController: a start that fails before making anything', () => {
	it('asks to discard the new run when its models never load, and says it was not kept', async () => {
		const h = harness();
		const engine = new HubBlockedEngine({ script });
		const calls: string[] = [];
		const run = new RunController();
		await run.start(
			h.request(small({ judge_mode: 'rules' }), {
				prepare: async () => ({ engine, judge: engine, template: fixtureTemplate() }),
				discardIfEmpty: async () => {
					calls.push('discard');
					h.store.manifests.delete('run-1');
					return true;
				}
			})
		);
		expect(calls).toEqual(['discard']);
		expect(run.discarded).toBe(true);
		expect(run.phase).toBe('failed');
		expect(run.fatal?.message).toMatch(/huggingface\.co/);
		expect(await h.store.getManifest('run-1')).toBeUndefined();
	});

	it('asks too when preparing the engines fails, and keeps the run when the discard says no', async () => {
		const h = harness();
		let asked = 0;
		const run = new RunController();
		await run.start(
			h.request(small(), {
				prepare: async () => {
					throw new EngineError('network', 'The CPU engine could not start.');
				},
				discardIfEmpty: async () => (++asked, false)
			})
		);
		expect(asked).toBe(1);
		expect(run.discarded).toBe(false);
		expect(run.phase).toBe('failed');
	});

	it('never discards a run the user paused, or one that finished', async () => {
		const h = harness({ tokenDelayMs: 1 });
		let asked = 0;
		const run = new RunController();
		const discardIfEmpty = async () => (++asked, true);
		const started = run.start(h.request(small({ judge_mode: 'rules' }), { discardIfEmpty }));
		run.pause();
		await started;
		expect(run.phase).toBe('paused');
		await run.start(h.request(small({ judge_mode: 'rules' }), { discardIfEmpty }));
		expect(run.phase).toBe('done');
		expect(asked).toBe(0);
		expect(run.discarded).toBe(false);
	});
});
