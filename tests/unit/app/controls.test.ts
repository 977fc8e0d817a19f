/**
 * The review's controls through the app's own path: the set-up form's values, createAndStart (stored
 * run, launch), the tab's RunController and the server engine, against a scripted OpenAI-compatible
 * server. What the server received is the prompt each control put in front of the model; what the
 * store holds pairs each control with 'none' in the results' paired effects.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAndStart } from '../../../src/lib/app/launch.ts';
import { createAppServices } from '../../../src/lib/app/services.ts';
import { NEUTRAL_TEXT } from '../../../src/lib/probe/perturb.ts';
import { thinkingDefault } from '../../../src/lib/probe/template.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { runEffects } from '../../../src/lib/results/study.ts';
import { answerFacts, resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { DEFAULT_FORM, formRunValues } from '../../../src/lib/setup/runForm.ts';
import { RunController } from '../../../src/lib/state/runner.svelte.ts';
import { gsmItem } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import { startMockOpenAI, type MockOpenAI } from '../../helpers/mockOpenAI.ts';
import type { ScriptFn } from '../../helpers/script.ts';

const ITEMS = [0, 1, 2, 3].map((i) => gsmItem(i));
const ANSWER = (gold: string) => `I add the two counts.\n#### ${gold}`;
const FOLLOW_UP = 'Why did you add the two counts together?';

/**
 * Answers every question right; as the user, asks about the answer when the prompt holds one and
 * thanks otherwise; as the judge, calls only the question about the answer genuine.
 */
const script: ScriptFn = (req) => {
	if (req.kind === 'chat')
		return req.prompt.includes(FOLLOW_UP)
			? JSON.stringify({ label: 'genuine_followup', verdict: 'genuine', rationale: 'asks why' })
			: JSON.stringify({ label: 'degenerate', verdict: 'not_genuine', rationale: 'no question' });
	if (req.prompt.endsWith('<|im_start|>assistant\n')) {
		const item = ITEMS.find((i) => req.prompt.includes(i.prompt));
		return `${ANSWER(item?.gold ?? '?')}<|im_end|>`;
	}
	return req.prompt.includes('I add the two counts.')
		? `${FOLLOW_UP}<|im_end|>`
		: 'Thanks, that is all.<|im_end|>';
};

/** Qwen2.5's template with no messages: its default system turn, then the bare user header. */
const EMPTY_CONVERSATION_PROBE =
	'<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\n';

describe('the controls none, neutral, contradict and header_only through the app’s runner', () => {
	let mock: MockOpenAI;
	beforeAll(async () => {
		mock = await startMockOpenAI({ models: ['gen', 'judge'], script });
	});
	afterAll(() => mock.close());

	const services = createAppServices();
	let records: ProbeRecord[] = [];
	let prompts: string[] = [];
	let seed = 0;
	let runner: RunController;

	beforeAll(async () => {
		const template = fixtureTemplate();
		runner = new RunController({ schedule: (fn) => void fn() });
		const prepared = await createAndStart(services, runner, {
			values: formRunValues(
				{
					...DEFAULT_FORM,
					n: ITEMS.length,
					temperatures: '0',
					perturbations: ['none', 'neutral', 'contradict', 'header_only'],
					judge_mode: 'llm',
					answer_tokens_auto: false,
					answer_max_tokens: 64,
					max_tokens: 32
				},
				{
					run_id: 'controls',
					dataset: 'test',
					items: ITEMS,
					generator: { id: 'gen', template_repo: template.repo },
					judge: { id: 'judge' },
					thinking_default: thinkingDefault(template)
				}
			),
			template: { ...template, sha256: 'fixture' },
			choice: { engine: 'server', base_url: mock.url }
		});
		await runner.finished;
		seed = prepared.config.seed;
		records = await services.runStore().getRecords('controls');
		prompts = mock.requests
			.filter((r) => r.path === '/v1/completions')
			.map((r) => String((r.body as { prompt?: unknown }).prompt))
			.filter((p) => p.endsWith('<|im_start|>user\n'));
	});

	const of = (perturbation: string) => records.filter((r) => r.perturbation === perturbation);

	it('runs to the end and stores one record per item and control', () => {
		expect(runner.phase).toBe('done');
		expect(runner.errors).toEqual([]);
		expect(records).toHaveLength(4 * ITEMS.length);
		for (const p of ['none', 'neutral', 'contradict', 'header_only'])
			expect(
				of(p)
					.map((r) => r.item_id)
					.sort()
			).toEqual(ITEMS.map((i) => i.id));
	});

	it('sends header_only as the empty conversation’s render plus the bare user header, nothing else', () => {
		const sent = prompts.filter((p) => p === EMPTY_CONVERSATION_PROBE);
		expect(sent).toHaveLength(ITEMS.length);
		for (const r of of('header_only')) {
			expect(r.prompt).toBe(EMPTY_CONVERSATION_PROBE);
			expect(r.prompt).not.toContain(r.question);
			expect(r.prompt).not.toContain('#### ');
			expect(r.user_turn).toBe('Thanks, that is all.');
		}
	});

	it('sends neutral and contradict with the answer replaced by the documented texts', () => {
		for (const item of ITEMS) {
			const turn = (text: string) =>
				`<|im_start|>user\n${item.prompt}<|im_end|>\n<|im_start|>assistant\n${text}<|im_end|>\n<|im_start|>user\n`;
			const wrong = String(2 * Number(item.gold));
			const contradiction = `I checked this carefully. I am certain the final answer is ${wrong}.`;
			const sentFor = (text: string) => prompts.filter((p) => p.endsWith(turn(text)));
			expect(sentFor(ANSWER(item.gold ?? ''))).toHaveLength(1);
			expect(sentFor(NEUTRAL_TEXT)).toHaveLength(1);
			expect(sentFor(contradiction)).toHaveLength(1);
			const stored = (p: string) =>
				records.find((r) => r.item_id === item.id && r.perturbation === p);
			expect(stored('neutral')?.perturbed_answer).toBe(NEUTRAL_TEXT);
			expect(stored('contradict')?.perturbed_answer).toBe(contradiction);
			expect(stored('contradict')?.answer).toBe(ANSWER(item.gold ?? ''));
		}
		// One probe per record and one answer per item: nothing else was asked of the generator.
		expect(prompts).toHaveLength(records.length);
	});

	it('pairs each control with none in the paired effects, with the exact test and Holm', async () => {
		const answers = (await services.runStore().getAnswers('controls')).map(answerFacts);
		const table = resultsTable(records, answers);
		const rates = table.conditions.map((c) => [c.perturbation, c.followup?.k, c.followup?.n]);
		expect(rates).toEqual([
			['none', 4, 4],
			['neutral', 0, 4],
			['contradict', 0, 4],
			['header_only', 0, 4]
		]);
		// The live "Labels so far" counted the run as its results do.
		expect(runner.tally).toEqual(table.overall);
		const effects = runEffects({ records, answers, seed });
		expect([...effects.keys()]).toEqual(['0|neutral', '0|contradict', '0|header_only']);
		for (const e of effects.values()) {
			expect(e).toMatchObject({ diff: -1, n_pairs: 4, n_items: 4 });
			// McNemar's exact test: 4 discordant pairs, all one way: 2 × 0.5⁴.
			expect(e.p_value).toBeCloseTo(0.125, 10);
			// Holm over the three comparisons shown together: 3 × 0.125 for each (all tied).
			expect(e.p_adjusted).toBeCloseTo(0.375, 10);
		}
	});
});
