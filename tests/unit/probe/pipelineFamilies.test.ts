/**
 * The paper's own model families through the whole pipeline, with engines that answer in each
 * family's real format and keep talking past the turn's end as a model does unless stopped:
 * Qwen3.5 and GLM-4.7-Flash reason inside a <think> their generation prompt opened; gpt-oss answers in
 * harmony analysis + final channels; GLM has no end-of-turn token, so the next role tag ends a turn.
 * The answer stored, scored, truncated and put in the history must be the visible answer.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../helpers/collect.ts';
import { OpenAIEngine } from '../../../src/lib/engines/server/client.ts';
import type { ProbeEvent } from '../../../src/lib/probe/events.ts';
import { runProbe } from '../../../src/lib/probe/pipeline.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import type { ChatTemplate } from '../../../src/lib/probe/template.ts';
import type { ProbeConfig } from '../../../src/lib/probe/types.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import {
	FAMILIES,
	FOLLOW_UP,
	ITEM,
	REASONING,
	VISIBLE,
	familyScript,
	vllmModel,
	type Family
} from '../../helpers/paperFamilies.ts';
import { userHeaderDefault } from '../../../src/lib/probe/markup.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

function config(f: Family, overrides: Partial<ProbeConfig> = {}): ProbeConfig {
	return probeConfig({
		generator: { id: 'gen-model', template_repo: f.id },
		items: [ITEM],
		judge_mode: 'rules',
		temperatures: [1],
		perturbations: ['none', 'truncate'],
		samples: 8,
		answer_max_tokens: 512,
		// The templates' own default: Qwen3.5 and GLM think, gpt-oss reasons regardless.
		thinking: true,
		// The paper's rule: gpt-oss's header stops at "<|start|>user", the others' at their end.
		user_header: userHeaderDefault(fixtureTemplate(f.id)),
		...overrides
	});
}

async function checkRun(
	f: Family,
	template: ChatTemplate,
	store: MemoryStore,
	events: ProbeEvent[]
): Promise<void> {
	expect(events.filter((e) => e.type === 'error')).toEqual([]);
	expect((await store.getManifest('run-1'))?.status).toBe('done');
	const answer = await store.getAnswer('run-1', ITEM.id);
	expect(answer?.answer).toBe(VISIBLE);
	expect(answer?.thinking).toBe(REASONING);
	expect(answer?.correct).toBe(true);
	expect(answer?.completion).toContain(REASONING);
	const records = await store.getRecords('run-1');
	expect(records).toHaveLength(16);
	for (const r of records) {
		expect(r.answer).toBe(VISIBLE);
		expect(r.correct).toBe(true);
		if (r.perturbation === 'truncate') {
			expect(VISIBLE.startsWith(r.perturbed_answer)).toBe(true);
			expect(r.perturbed_answer.length).toBeLessThan(VISIBLE.length);
		}
		// The history holds the visible answer only: no reasoning, no channel markup.
		expect(r.prompt).toContain(r.perturbed_answer);
		expect(r.prompt).not.toContain('Not 27');
		expect(r.prompt).not.toContain('<|channel|>analysis');
		expect(f.opensUserTurn(r.prompt)).toBe(true);
	}
	const followUps = records.filter((r) => r.user_turn.startsWith(FOLLOW_UP));
	const leaks = records.filter((r) => !r.user_turn.startsWith(FOLLOW_UP));
	expect(followUps.length).toBeGreaterThan(0);
	expect(leaks.length).toBeGreaterThan(0);
	for (const r of followUps) {
		// The turn stopped where the user's turn ends, before the model wrote the assistant's reply.
		expect(r.user_turn.trim()).toBe(FOLLOW_UP);
		expect(r.user_turn).not.toMatch(f.roleTags);
		// Rules only: no rule applies to a real follow-up, and only a judge could call it genuine.
		expect([r.label, r.verdict]).toEqual(['undecided', 'undecided']);
	}
	for (const r of leaks) expect(r.label).toBe('assistant_restatement');
	expect(template.repo).toBe(f.id);
}

describe.each(FAMILIES)('the probe on $id', (f) => {
	it('stores, scores, truncates and continues the visible answer; user turns stop at the next role', async () => {
		const engine = new ScriptedEngine({ script: familyScript(f) });
		const store = new MemoryStore();
		const template = fixtureTemplate(f.id);
		const events = await collect(
			runProbe(config(f), {
				engine,
				judge: engine,
				store,
				template,
				timestamp: () => '2026-11-23T00:00:00.000Z'
			})
		);
		await checkRun(f, template, store, events);
	});

	it('keeps the reasoning out of the answer when the answer is cut inside it', async () => {
		const engine = new ScriptedEngine({ script: familyScript(f) });
		const store = new MemoryStore();
		// 12 words end inside the reasoning for every family.
		await collect(
			runProbe(config(f, { answer_max_tokens: 12, samples: 1, perturbations: ['none'] }), {
				engine,
				judge: engine,
				store,
				template: fixtureTemplate(f.id)
			})
		);
		const answer = await store.getAnswer('run-1', ITEM.id);
		expect(answer?.finish_reason).toBe('length');
		expect(answer?.answer).toBe('');
		expect(answer?.correct).toBe(false);
		expect(answer?.thinking).toContain('16 - 3 - 4');
	});
});

describe('the paper families through a real HTTP server that honours stop', () => {
	let mock: MockOpenAI | undefined;
	afterEach(async () => {
		await mock?.close();
		mock = undefined;
	});

	it.each(FAMILIES)('$id completes a run on its official template', async (f) => {
		mock = await startMockOpenAI({ models: ['gen-model'], script: familyScript(f) });
		const engine = new OpenAIEngine({ baseUrl: mock.url });
		const store = new MemoryStore();
		const template = fixtureTemplate(f.id);
		const events = await collect(runProbe(config(f), { engine, judge: engine, store, template }));
		await checkRun(f, template, store, events);
		// The stop lists went over the wire: answers run to the reply's end, user turns to the turn's.
		const bodies = mock.requests
			.filter((r) => r.path === '/v1/completions')
			.map((r) => r.body as { prompt: string; stop: string[] });
		const answerStop = bodies.find((b) => f.opensAnswer(b.prompt))?.stop ?? [];
		const turnStop = bodies.find((b) => f.opensUserTurn(b.prompt))?.stop ?? [];
		if (f.id.startsWith('openai/')) {
			expect(answerStop).not.toContain('<|end|>');
			expect(turnStop).toContain('<|end|>');
		}
		if (f.id.startsWith('zai-org/')) expect(turnStop).toContain('<|assistant|>');
	});
});

/**
 * vLLM and SGLang drop special tokens from the text unless asked not to, and match stop strings on
 * that text: the engine asks (skip_special_tokens: false); a server that will not be asked (a strict
 * hosted API refusing unknown fields) gets the request again without, and then the core notices the
 * missing markup instead of scoring gpt-oss's reasoning or running GLM's user turns on.
 */
describe.each(['vllm', 'sglang'] as const)('the paper families on a %s-like server', (server) => {
	let mock: MockOpenAI | undefined;
	afterEach(async () => {
		await mock?.close();
		mock = undefined;
	});

	async function start(f: Family, strict = false): Promise<ChatTemplate> {
		const template = fixtureTemplate(f.id);
		mock = await startMockOpenAI({
			models: ['gen-model'],
			script: familyScript(f),
			vllm: { server, ...vllmModel(f, template) },
			rejectUnknownFields: strict
		});
		return template;
	}

	it.each(FAMILIES)('$id: markup kept, answers and user turns end where they should', async (f) => {
		const template = await start(f);
		const engine = new OpenAIEngine({ baseUrl: mock?.url ?? '' });
		const store = new MemoryStore();
		const events = await collect(runProbe(config(f), { engine, judge: engine, store, template }));
		await checkRun(f, template, store, events);
		const bodies = (mock?.requests ?? [])
			.filter((r) => r.path === '/v1/completions')
			.map((r) => r.body as Record<string, unknown>);
		for (const b of bodies) {
			expect(b.skip_special_tokens).toBe(false);
			expect(b.spaces_between_special_tokens).toBe(false);
		}
		const records = await store.getRecords('run-1');
		if (f.id.startsWith('openai/')) {
			// The paper's header, and its gpt-oss failure with the markup that identifies it.
			for (const r of records) expect(r.prompt.endsWith('<|start|>user')).toBe(true);
			const leaks = records.filter((r) => r.label === 'assistant_restatement');
			for (const r of leaks)
				expect(r.user_turn).toMatch(/^<\|channel\|>analysis<\|message\|>We need/);
		}
	});

	it.each(FAMILIES.filter((f) => !f.id.startsWith('Qwen/')))(
		'$id: a server that refuses the fields is asked again without, and the stripped markup stops the run',
		async (f) => {
			const template = await start(f, true);
			const engine = new OpenAIEngine({ baseUrl: mock?.url ?? '' });
			const store = new MemoryStore();
			const events = await collect(runProbe(config(f), { engine, judge: engine, store, template }));
			const completions = (mock?.requests ?? []).filter((r) => r.path === '/v1/completions');
			expect((completions[0].body as Record<string, unknown>).skip_special_tokens).toBe(false);
			expect((completions[1].body as Record<string, unknown>).skip_special_tokens).toBeUndefined();
			const errors = events.filter((e) => e.type === 'error');
			expect(errors).toHaveLength(1);
			expect(errors[0]).toMatchObject({ name: 'StrippedMarkupError', fatal: true });
			expect(errors[0]).toMatchObject({ message: expect.stringMatching(/special tokens/) });
			expect(errors[0]).toMatchObject({ recovery: expect.stringContaining('docs/servers.md') });
			// Nothing mis-scored was kept: gpt-oss stops at its answer; GLM's turns that ended on
			// EOS before the first run-on one was seen are as they should be.
			if (f.id.startsWith('openai/'))
				expect(await store.getAnswer('run-1', ITEM.id)).toBeUndefined();
			for (const r of await store.getRecords('run-1'))
				expect(r.user_turn).not.toContain('</think>');
			expect((await store.getManifest('run-1'))?.status).toBe('failed');
		}
	);

	it('Qwen3.5 still runs where special tokens are dropped: its turns end on EOS', async () => {
		const f = FAMILIES[0];
		const template = await start(f, true);
		const engine = new OpenAIEngine({ baseUrl: mock?.url ?? '' });
		const store = new MemoryStore();
		const events = await collect(runProbe(config(f), { engine, judge: engine, store, template }));
		expect(events.filter((e) => e.type === 'error')).toEqual([]);
		const answer = await store.getAnswer('run-1', ITEM.id);
		expect(answer).toMatchObject({ answer: VISIBLE, thinking: REASONING, correct: true });
		const records = await store.getRecords('run-1');
		expect(records).toHaveLength(16);
		const followUps = records.filter((r) => r.user_turn.startsWith(FOLLOW_UP));
		expect(followUps.length).toBeGreaterThan(0);
		for (const r of followUps) expect(r.user_turn).toBe(FOLLOW_UP);
		// Its leaks lose their "<|im_start|>" here, so their labels rest on the words alone: the
		// engine asks for special tokens wherever the server takes the field.
	});
});
