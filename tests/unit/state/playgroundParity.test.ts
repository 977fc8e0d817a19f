/**
 * A turn labelled in the playground is labelled as a run labels it: the same scripted engine and
 * the same item give the same requests (prompts, token limits, seeds, judge retries), the same
 * user turns and the same labels through the playground state and through runProbe.
 */
import { describe, expect, it } from 'vitest';
import { CONVERSATION_ITEM_ID } from '../../../src/lib/probe/conversation.ts';
import { runProbe } from '../../../src/lib/probe/pipeline.ts';
import { runConfig } from '../../../src/lib/probe/runConfig.ts';
import { MemoryStore } from '../../../src/lib/probe/store.ts';
import { BARE_TASK_PROMPT } from '../../../src/lib/probe/taskPrompt.ts';
import type { DatasetItem, ProbeConfig } from '../../../src/lib/probe/types.ts';
import { DEFAULT_FORM } from '../../../src/lib/setup/runForm.ts';
import { Playground } from '../../../src/lib/state/playground.svelte.ts';
import { runValues } from '../../helpers/factories.ts';
import { fixtureTemplate } from '../../helpers/fixtures.ts';
import type { ScriptFn, ScriptRequest } from '../../helpers/script.ts';
import { ScriptedEngine } from '../../helpers/scriptedEngine.ts';

const QUESTION = 'Tom has 3 apples and buys 4 more. How many apples does he have?';

/**
 * Answers; user turns by seed, some caught by the rules (a template token), some not; a judge
 * whose first reply does not parse, so the retry's temperature and seed are exercised too.
 */
function scripted(log: ScriptRequest[]): ScriptFn {
	return (req) => {
		log.push(req);
		if (req.kind === 'chat') {
			if (req.temperature === 0) return 'I think it is fine.';
			return JSON.stringify({ label: 'meta_planning', rationale: `seed ${req.seed % 97}` });
		}
		if (req.prompt.endsWith('<|im_start|>assistant\n')) return 'He has 7 apples.<|im_end|>';
		if (req.seed % 3 === 0) return `Sure.\n<|im_start|>assistant\nIt is ${req.seed % 7}.`;
		return `Let me plan the reply, step ${req.seed % 1000}.<|im_end|>`;
	};
}

/** What a user turn's request and result look like, without what only the shell adds. */
const requestView = (r: ScriptRequest) => ({
	kind: r.kind,
	model: r.model,
	prompt: r.prompt,
	temperature: r.temperature,
	seed: r.seed,
	max_tokens: r.max_tokens,
	stop: r.stop
});

describe('the playground labels a turn exactly as a run does', () => {
	it.each([
		['the rules alone', false],
		['rules, then the judge', true]
	])('with %s', async (_name, useJudge) => {
		const n = 4;
		const temperature = 0.8;
		const seed = 11;

		const pgLog: ScriptRequest[] = [];
		const pgEngine = new ScriptedEngine({ script: scripted(pgLog) });
		const pg = new Playground();
		pg.turns = [{ role: 'user', content: QUESTION }];
		pg.n = n;
		pg.temperature = temperature;
		pg.seed = seed;
		await pg.generate({
			engine: pgEngine,
			model: 'gen',
			template: async () => fixtureTemplate(),
			judge: useJudge ? { engine: pgEngine, model: 'judge' } : undefined
		});
		expect(pg.phase).toBe('done');

		const runLog: ScriptRequest[] = [];
		const runEngine = new ScriptedEngine({ script: scripted(runLog) });
		const item: DatasetItem = { id: CONVERSATION_ITEM_ID, task: 'none', prompt: QUESTION };
		const config: ProbeConfig = runConfig(
			runValues({
				items: [item],
				seed,
				temperatures: [temperature],
				perturbations: ['none'],
				samples: n,
				judge_mode: useJudge ? 'hybrid' : 'rules',
				generator: { id: 'gen' },
				judge: { id: useJudge ? 'judge' : 'gen' },
				max_tokens: DEFAULT_FORM.max_tokens,
				answer_max_tokens: DEFAULT_FORM.answer_max_tokens,
				answer_tokens_auto: DEFAULT_FORM.answer_tokens_auto,
				task_prompt: BARE_TASK_PROMPT
			})
		);
		const store = new MemoryStore();
		for await (const e of runProbe(config, {
			engine: runEngine,
			judge: runEngine,
			store,
			template: fixtureTemplate(),
			concurrency: 1
		})) {
			if (e.type === 'error') throw new Error(e.message);
		}
		const records = (await store.getRecords(config.run_id)).sort((a, b) => a.sample - b.sample);

		expect(pgLog.map(requestView)).toEqual(runLog.map(requestView));
		expect(pgLog.some((r) => r.kind === 'chat')).toBe(useJudge);
		expect(pg.samples.map((s) => [s.seed, s.text, s.rule_label, s.label, s.source])).toEqual(
			records.map((r) => [r.seed, r.user_turn, r.rule_label, r.label, r.label_source])
		);
		// The run's settings, not the playground's own: the answer and user-turn limits of a run.
		const limits = new Set(pgLog.filter((r) => r.kind === 'complete').map((r) => r.max_tokens));
		expect(limits).toEqual(new Set([DEFAULT_FORM.answer_max_tokens, DEFAULT_FORM.max_tokens]));
		expect(new Set(records.map((r) => r.label))).toEqual(
			useJudge
				? new Set(['malformed_artifact', 'meta_planning'])
				: // Without a judge a turn no rule catches stays undecided, never a follow-up.
					new Set(['malformed_artifact', 'undecided'])
		);
	});
});

describe('the playground uses the template family’s user header, as a run does', () => {
	it('ends a gpt-oss probe prompt at <|start|>user (the harmony rule), not inside a message', async () => {
		const log: ScriptRequest[] = [];
		const engine = new ScriptedEngine({
			script: (req) => {
				log.push(req);
				if (req.kind === 'chat') return 'unused';
				if (req.prompt.endsWith('<|start|>assistant'))
					return '<|channel|>final<|message|>7.<|end|>';
				return '<|channel|>analysis<|message|>We need to check 3 + 4.<|end|>';
			}
		});
		const pg = new Playground();
		pg.turns = [{ role: 'user', content: QUESTION }];
		pg.n = 1;
		pg.temperature = 0;
		await pg.generate({
			engine,
			model: 'openai/gpt-oss-20b',
			template: async () => fixtureTemplate('openai/gpt-oss-20b')
		});
		expect(pg.phase).toBe('done');
		const userTurnPrompts = log
			.filter((r) => r.kind !== 'chat' && !r.prompt.endsWith('<|start|>assistant'))
			.map((r) => r.prompt);
		expect(userTurnPrompts.length).toBeGreaterThan(0);
		for (const prompt of userTurnPrompts) {
			expect(prompt.endsWith('<|start|>user')).toBe(true);
			expect(prompt.endsWith('<|start|>user<|message|>')).toBe(false);
		}
	});
});
