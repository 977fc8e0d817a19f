/**
 * `run --perturbations none,neutral,contradict,header_only` against a scripted OpenAI-compatible
 * server: each control reaches the model as the core renders it (the neutral text, a confident
 * wrong number, and for header_only a prompt with neither the question nor the answer), and
 * `summarize --json` pairs each against "none" with an exact test and Holm-adjusted p-values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEUTRAL_TEXT } from '../../../src/lib/probe/perturb.ts';
import { gsm8kCorrect } from '../../../src/lib/probe/scoring/gsm8k.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { readJsonl } from '../../helpers/fixtures.ts';
import type { ScriptFn } from '../../helpers/script.ts';
import { runMain, startCli, type Cli } from './harness.ts';

const ROWS = 8;
const QUESTIONS = readJsonl<{ question: string; answer: string }>('gsm8k/test.jsonl').slice(
	0,
	ROWS
);

/**
 * The model answers each item correctly; as the user it asks about the answer when it saw one,
 * thanks a neutral reply, and with no conversation at all writes a generic opener. The judge
 * calls only a question about the answer genuine.
 */
const script: ScriptFn = (req) => {
	if (req.kind === 'chat') {
		const turn = req.prompt.split('<generated_user_turn>').at(-1) ?? '';
		return turn.includes('Why')
			? '{"label": "genuine_followup", "verdict": "genuine", "rationale": "asks about it"}'
			: '{"label": "meta_planning", "verdict": "not_genuine", "rationale": "generic"}';
	}
	if (req.prompt.endsWith('<|im_start|>assistant\n')) {
		const item = QUESTIONS.findIndex((q) => req.prompt.includes(q.question));
		const gold = QUESTIONS[item]?.answer.split('####')[1]?.trim() ?? '0';
		return `Working it out step by step.\n#### ${gold}<|im_end|>`;
	}
	if (req.prompt.includes(NEUTRAL_TEXT))
		return 'Okay, let me think about what to ask next.<|im_end|>';
	if (!req.prompt.includes('<|im_start|>assistant'))
		return 'Hello, can you help me plan a trip?<|im_end|>';
	return 'Why is that the final number you got?<|im_end|>';
};

let cli: Cli;
let out: string;
let records: ProbeRecord[];
beforeAll(async () => {
	cli = await startCli(ROWS, script);
	out = join(cli.dir, 'controls.jsonl');
	const r = await runMain(
		cli.args(out, [
			...['--perturbations', 'none,neutral,contradict,header_only'],
			...['--temperatures', '0']
		])
	);
	expect(r.code, r.stderr).toBe(0);
	records = readFileSync(out, 'utf8')
		.trim()
		.split('\n')
		.map((line) => JSON.parse(line) as ProbeRecord);
}, 60_000);
afterAll(() => cli.close());

describe('run --perturbations none,neutral,contradict,header_only', () => {
	const of = (p: string) => records.filter((r) => r.perturbation === p);

	it('makes one record per item and condition', () => {
		expect(records).toHaveLength(ROWS * 4);
		for (const p of ['none', 'neutral', 'contradict', 'header_only'])
			expect(of(p)).toHaveLength(ROWS);
	});

	it('replaces the answer with the neutral text, and with a confident wrong number', () => {
		for (const r of of('neutral')) {
			expect(r.perturbed_answer).toBe(NEUTRAL_TEXT);
			expect(r.prompt).toContain(`<|im_start|>assistant\n${NEUTRAL_TEXT}<|im_end|>`);
		}
		for (const r of of('contradict')) {
			const q = QUESTIONS.find((x) => x.question === r.question);
			expect(q).toBeDefined();
			expect(r.perturbed_answer).toMatch(/^I checked this carefully\. I am certain the final/);
			expect(gsm8kCorrect(r.perturbed_answer, q?.answer ?? '')).toBe(false);
			expect(r.prompt).toContain(r.perturbed_answer);
			expect(r.prompt).toContain(r.question);
		}
	});

	it('sends the server a header_only prompt with neither the question nor the answer', () => {
		const prompts = cli.server.requests
			.filter((q) => q.path === '/v1/completions')
			.map((q) => String((q.body as { prompt: string }).prompt));
		const bare = prompts.filter((p) => !p.includes('<|im_start|>assistant'));
		expect(bare.length).toBe(ROWS);
		for (const p of bare) {
			for (const q of QUESTIONS) {
				expect(p).not.toContain(q.question.slice(0, 30));
				expect(p).not.toContain('####');
			}
			expect(p.endsWith('<|im_start|>user\n')).toBe(true);
		}
		for (const r of of('header_only')) {
			expect(r.perturbed_answer).toBe('');
			expect(bare).toContain(r.prompt);
		}
	});
});

describe('summarize --json of the controls run', () => {
	interface Effect {
		diff: number;
		lo: number;
		hi: number;
		n_pairs: number;
		p_value: number;
		p_adjusted: number;
	}
	type Row = { perturbation: string; effect: Effect | null; run_id: string; model: string };

	it('pairs each control against none with exact and Holm-adjusted p-values', async () => {
		const r = await runMain(['summarize', '--json', out]);
		expect(r.code, r.stderr).toBe(0);
		const { conditions } = JSON.parse(r.stdout) as { conditions: Row[] };
		const effect = (p: string) => conditions.find((c) => c.perturbation === p)?.effect;
		expect(effect('none')).toBeNull();
		// Every "none" turn asks about the answer (genuine); header_only never sees one.
		expect(effect('header_only')).toMatchObject({ diff: -1, lo: -1, hi: -1, n_pairs: ROWS });
		// McNemar: 8 discordant pairs, all one way: 2 · ½⁸.
		expect(effect('header_only')?.p_value).toBeCloseTo(2 / 256, 12);
		expect(effect('neutral')?.p_value).toBeCloseTo(2 / 256, 12);
		// The contradiction still draws a question about it: no discordant pair.
		expect(effect('contradict')).toMatchObject({ diff: 0, p_value: 1 });
		// Holm over the three: the two smallest × 3 and × 2, kept monotone; the last stays 1.
		expect(effect('header_only')?.p_adjusted).toBeCloseTo(3 * (2 / 256), 12);
		expect(effect('neutral')?.p_adjusted).toBeCloseTo(3 * (2 / 256), 12);
		expect(effect('contradict')?.p_adjusted).toBe(1);

		const text = await runMain(['summarize', out]);
		expect(text.stdout).toMatch(
			/T=0 header_only − none\s+8\s+-100\.0 pp \[-100\.0 pp, -100\.0 pp\]\s+0\.008\s+0\.023/
		);
	});

	it('gives the same effects as that run’s rows in a study', async () => {
		const single = JSON.parse((await runMain(['summarize', '--json', out])).stdout) as {
			conditions: Row[];
		};
		const other = join(cli.dir, 'other.jsonl');
		const r = await runMain(
			cli.args(other, [
				'--perturbations',
				'none,header_only',
				'--temperatures',
				'0',
				'--run-id',
				'other'
			])
		);
		expect(r.code, r.stderr).toBe(0);
		const s = await runMain(['summarize', '--json', out, other]);
		expect(s.code, s.stderr).toBe(0);
		const { rows } = JSON.parse(s.stdout) as { rows: Row[] };
		const runId = records[0].run_id;
		const mine = rows.filter((row) => row.run_id === runId);
		expect(mine.map((row) => row.effect)).toEqual(single.conditions.map((c) => c.effect));
	}, 60_000);
});
