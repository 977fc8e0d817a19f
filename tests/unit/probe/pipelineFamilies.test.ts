/**
 * The paper's own model families through the whole pipeline, with engines that answer in each
 * family's real format and keep talking past the turn's end as a model does unless stopped:
 * Qwen3.5 and GLM-4.7 reason inside a <think> their generation prompt opened; gpt-oss answers in
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
import type { DatasetItem, ProbeConfig } from '../../../src/lib/probe/types.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import { probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { defaultScript, type ScriptFn, type ScriptRequest } from '../../helpers/script.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

const QUESTION =
	'Janet’s ducks lay 16 eggs per day. She eats three for breakfast and bakes muffins with four. She sells the rest for $2 each. How much does she make every day?';
const ITEM: DatasetItem = { id: 'janet', task: 'gsm8k', prompt: QUESTION, gold: '18' };
/** The reasoning ends on a wrong draft number: scoring it would mark the answer wrong. */
const REASONING = 'Eggs left: 16 - 3 - 4 = 9. Each sells for $2, so 9 * 2 = 18. Not 27.';
const VISIBLE =
	'Janet has 16 - 3 - 4 = 9 eggs left to sell. She sells them for 9 * 2 = $18 every day.\n#### 18';
const FOLLOW_UP = 'Why did you subtract the muffin eggs before multiplying by $2?';
const COT_LEAK =
	'We need to ensure final answer line exactly "Answer: 18". Let us double check the subtraction.';

interface Family {
	id: string;
	/** What the model writes after the generation prompt, past the end of its turn. */
	answer: string;
	/** A genuine follow-up, then the model running on into the assistant's reply. */
	followUp: string;
	/** The model continuing as the assistant instead of writing the user's turn. */
	leak: string;
	opensAnswer: (prompt: string) => boolean;
	opensUserTurn: (prompt: string) => boolean;
	roleTags: RegExp;
}

const FAMILIES: Family[] = [
	{
		id: 'Qwen/Qwen3.5-0.8B',
		answer: `${REASONING}\n</think>\n\n${VISIBLE}<|im_end|>\n<|im_start|>user\nThanks!<|im_end|>`,
		followUp: `${FOLLOW_UP}<|im_end|>\n<|im_start|>assistant\nBecause only the rest is sold.<|im_end|>`,
		leak: `<|im_start|>assistant\n${VISIBLE}<|im_end|>`,
		opensAnswer: (p) => p.endsWith('<|im_start|>assistant\n<think>\n'),
		opensUserTurn: (p) => p.endsWith('<|im_start|>user\n'),
		roleTags: /<\|im_(?:start|end)\|>/
	},
	{
		id: 'openai/gpt-oss-20b',
		answer:
			`<|channel|>analysis<|message|>${REASONING}<|end|>` +
			`<|start|>assistant<|channel|>final<|message|>${VISIBLE}<|return|>`,
		followUp: `${FOLLOW_UP}<|end|><|start|>assistant<|channel|>final<|message|>Because only the rest is sold.<|return|>`,
		leak: `<|channel|>analysis<|message|>${COT_LEAK}<|end|><|start|>assistant<|channel|>final<|message|>${VISIBLE}<|return|>`,
		opensAnswer: (p) => p.endsWith('<|start|>assistant'),
		opensUserTurn: (p) => p.endsWith('<|start|>user<|message|>'),
		roleTags: /<\|(?:start|end|return)\|>/
	},
	{
		id: 'zai-org/GLM-4.7-Flash',
		answer: `${REASONING}</think>${VISIBLE}<|user|>Thanks!<|assistant|></think>You are welcome.`,
		followUp: `${FOLLOW_UP}<|assistant|></think>Because only the rest is sold.<|user|>Thanks`,
		// Without tags of its own: opening <|assistant|> would stop the turn at once (empty).
		leak: 'Is there anything else I can help you with?<|user|>Thanks!',
		opensAnswer: (p) => p.endsWith('<|assistant|><think>'),
		opensUserTurn: (p) => p.endsWith('<|user|>'),
		roleTags: /<\|(?:user|assistant|observation)\|>/
	}
];

function familyScript(f: Family): ScriptFn {
	return (req: ScriptRequest) => {
		if (req.kind === 'chat') return defaultScript(req);
		if (f.opensAnswer(req.prompt)) return f.answer;
		if (!f.opensUserTurn(req.prompt))
			throw new Error(`unexpected prompt tail ${req.prompt.slice(-40)}`);
		// Sample 0 leaks, sample 1 follows up: both kinds in one run.
		return req.seed % 2 === 0 ? f.leak : f.followUp;
	};
}

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
