import { describe, expect, it } from 'vitest';
import { initialManifest } from '../../../src/lib/setup/runInputs.ts';
import { JUDGE_PROMPT, judgePromptHash } from '../../../src/lib/probe/judge.ts';
import {
	answerRecord,
	labelledByJudge,
	labelledByRules,
	probeInput,
	runManifest,
	userTurnRecord
} from '../../../src/lib/probe/records.ts';
import type { CompletionResult } from '../../../src/lib/probe/engine.ts';
import { verdictOf } from '../../../src/lib/probe/labels.ts';
import type { RunManifest } from '../../../src/lib/probe/types.ts';
import { gsmItem, probeConfig } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';

/** The records file's field order: readers of the JSONL files see exactly these keys, in order. */
const RECORD_FIELDS = [
	'run_id',
	'key',
	'item_id',
	'task',
	'temperature',
	'perturbation',
	'sample',
	'seed',
	'question',
	'answer',
	'perturbed_answer',
	'prompt',
	'user_turn',
	'finish_reason',
	'answer_finish_reason',
	'correct',
	'rule_label',
	'rule_reason',
	'judge_label',
	'judge_rationale',
	'judge_raw',
	'judge_prompt_id',
	'judge_prompt_hash',
	'label',
	'verdict',
	'label_source',
	'usage',
	'created_at'
];

const usage = { prompt_tokens: 5, completion_tokens: 3 };
const result = (text: string, finish_reason: CompletionResult['finish_reason'] = 'stop') =>
	({ text, finish_reason, usage }) as CompletionResult;

function turnRecord(ruleLabel: 'undecided' | 'malformed_artifact' = 'undecided') {
	const item = gsmItem(0);
	const answer = answerRecord({
		run_id: 'r',
		item,
		prompt: 'p',
		seed: 9,
		result: result('So 5 apples.\n#### 5'),
		created_at: 't0'
	});
	const cond = { temperature: 0.7, perturbation: 'none' as const, sample: 1 };
	return userTurnRecord({
		run_id: 'r',
		item,
		cond,
		seed: 42,
		answer,
		input: { perturbed: answer.answer, prompt: 'probe prompt' },
		result: result('Why 5?', 'length'),
		rule: { label: ruleLabel, verdict: verdictOf(ruleLabel), reason: 'because' },
		created_at: 't1'
	});
}

describe('records', () => {
	it('builds the 28-field user-turn record in the file order, label pending', () => {
		const r = turnRecord();
		expect(Object.keys(r)).toEqual(RECORD_FIELDS);
		expect(r).toMatchObject({
			key: 'item-0|0.7|none|1',
			task: 'gsm8k',
			seed: 42,
			user_turn: 'Why 5?',
			finish_reason: 'length',
			answer_finish_reason: 'stop',
			correct: true,
			label: null,
			label_source: null,
			created_at: 't1'
		});
	});

	it('labels by rules: an undecided turn stays undecided with no verdict, a caught one keeps its label', () => {
		const undecided = labelledByRules(turnRecord());
		expect([undecided.label, undecided.verdict, undecided.label_source]).toEqual([
			'undecided',
			'undecided',
			'rules'
		]);
		expect(Object.keys(undecided)).toEqual(RECORD_FIELDS);
		const caught = labelledByRules(turnRecord('malformed_artifact'));
		expect([caught.label, caught.verdict]).toEqual(['malformed_artifact', 'not_genuine']);
		expect(caught.judge_label).toBeNull();
	});

	it('labels by the judge under the current prompt id, keeping the usage it reported', () => {
		const verdict = {
			label: 'meta_planning' as const,
			verdict: 'not_genuine' as const,
			rationale: 'new topic',
			raw: '{}'
		};
		const r = labelledByJudge(turnRecord(), verdict, 'hash', usage);
		expect(r).toMatchObject({
			judge_label: 'meta_planning',
			judge_rationale: 'new topic',
			judge_raw: '{}',
			judge_prompt_id: JUDGE_PROMPT.id,
			judge_prompt_hash: 'hash',
			label: 'meta_planning',
			label_source: 'judge',
			judge_usage: usage
		});
		expect(Object.keys(r)).toEqual([...RECORD_FIELDS, 'judge_usage']);
	});

	it('splits reasoning from the answer it scores, and keeps the raw completion only when it differs', () => {
		const item = gsmItem(0);
		const base = { run_id: 'r', item, prompt: 'p', seed: 1, created_at: 't' };
		const plain = answerRecord({ ...base, result: result('#### 5') });
		expect(plain).not.toHaveProperty('thinking');
		expect(plain).not.toHaveProperty('completion');
		expect(plain.correct).toBe(true);
		const thought = answerRecord({ ...base, result: result('<think>2+3</think>#### 6') });
		expect(thought.answer).toBe('#### 6');
		expect(thought.thinking).toBe('2+3');
		expect(thought.completion).toBe('<think>2+3</think>#### 6');
		expect(thought.correct).toBe(false);
	});

	it('renders the probe prompt around the perturbed answer, ending at the bare user header', () => {
		const config = probeConfig();
		const answer = answerRecord({
			run_id: 'r',
			item: gsmItem(0),
			prompt: 'p',
			seed: 1,
			result: result('The answer is 5.'),
			created_at: 't'
		});
		const render = { enable_thinking: false, date_string: config.date_string };
		const t = fixtureTemplate();
		const append = probeInput(config, t, render, gsmItem(0), answer, 'append');
		expect(append.perturbed).toBe('The answer is 5.\n\nWhat do you think?');
		expect(append.prompt).toContain(append.perturbed);
		expect(append.prompt.endsWith('<|im_start|>user\n')).toBe(true);
	});
});

describe('manifest', () => {
	const config = probeConfig({ samples: 3, run_id: 'm1' });
	const fields = {
		engine: 'openai',
		template_sha256: 'tsha',
		judge_prompt_hash: 'jh',
		status: 'running' as const,
		now: () => '2026-01-01T00:00:00.000Z'
	};

	it('records the config without its items, with the derived fields', () => {
		const m = runManifest(config, { ...fields, app_version: 'v1' });
		expect(m).toEqual({
			run_id: 'm1',
			app_version: 'v1',
			created_at: '2026-01-01T00:00:00.000Z',
			engine: 'openai',
			config: {
				...Object.fromEntries(Object.entries(config).filter(([k]) => k !== 'items')),
				item_ids: config.items.map((i) => i.id),
				dataset: 'test',
				samples_at_t0: 1
			},
			template_sha256: 'tsha',
			judge_prompt_id: JUDGE_PROMPT.id,
			judge_prompt_hash: 'jh',
			status: 'running'
		});
		expect(runManifest({ ...config, dataset: undefined }, fields).config.dataset).toBe('custom');
		expect(runManifest(config, fields).app_version).toBe('dev');
	});

	it('keeps the first creation time, app version and shell fields of a previous manifest', () => {
		const previous = {
			...runManifest(config, { ...fields, app_version: 'web-1', now: () => 'first' }),
			adapter: { vendor: 'v' }
		} satisfies RunManifest;
		let asked = 0;
		const next = runManifest(config, {
			...fields,
			status: 'done',
			now: () => `later-${++asked}`,
			previous,
			extras: { config_hash: 'h' }
		});
		expect(asked).toBe(0);
		expect(next).toMatchObject({
			created_at: 'first',
			app_version: 'web-1',
			adapter: { vendor: 'v' },
			config_hash: 'h',
			status: 'done'
		});
	});

	it('is the builder the browser uses for a new run (paused until the pipeline starts)', async () => {
		const template = { ...fixtureTemplate(), sha256: 'tsha' };
		const browser = await initialManifest(config, {
			engine: 'openai',
			template,
			appVersion: 'web',
			now: () => new Date(0)
		});
		expect(browser).toEqual(
			runManifest(config, {
				...fields,
				judge_prompt_hash: await judgePromptHash(),
				status: 'paused',
				now: () => new Date(0).toISOString(),
				app_version: 'web'
			})
		);
	});
});
