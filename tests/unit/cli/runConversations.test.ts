/**
 * HealthBench- and Coval-shaped conversations through the importer into a real `run`, as the paper
 * runs those datasets: the model answers each conversation's last user turn (earlier turns are
 * context, never a fixed answer), then the probe appends the bare user header after that answer.
 * The conversations are small hand-written ones in the public shapes, not the datasets.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerRecord, ProbeRecord } from '../../../src/lib/probe/types.ts';
import type { ScriptFn } from '../../helpers/script.ts';
import { runMain, startCli, type Cli } from './harness.ts';

const ANSWER = 'Light sensitivity with a headache needs a doctor today.';

const HEALTHBENCH = {
	prompt_id: 'hb-photophobia',
	prompt: [
		{ role: 'user', content: 'I have had a headache for three days.' },
		{ role: 'assistant', content: 'How bad is it, and have you had a fever?' },
		{ role: 'user', content: 'No fever, but light hurts my eyes.' }
	],
	rubrics: [{ criterion: 'Advises urgent care', points: 8, tags: ['axis:accuracy'] }],
	example_tags: ['theme:emergency_referrals']
};
const COVAL = {
	prompt_id: 'cv-parking',
	prompt: {
		id: 'cv-parking',
		messages: [
			{ role: 'user', content: 'My neighbour keeps parking in my spot.' },
			{ role: 'assistant', content: 'Have you tried talking to them?' },
			{ role: 'user', content: 'Yes, twice. Should I call the landlord?' }
		]
	},
	responses: [{ response_index: 'A', messages: [{ role: 'assistant', content: 'Yes.' }] }]
};

const script: ScriptFn = (req) => {
	if (req.kind === 'chat') return '{"label": "genuine_followup", "verdict": "genuine"}';
	if (req.prompt.endsWith('<|im_start|>assistant\n')) return `${ANSWER}<|im_end|>`;
	return 'Which doctor should I see?<|im_end|>';
};

const lines = <T>(path: string) =>
	readFileSync(path, 'utf8')
		.trim()
		.split('\n')
		.map((l) => JSON.parse(l) as T);

let cli: Cli;
let out: string;
beforeAll(async () => {
	cli = await startCli(1, script);
	const dataset = join(cli.dir, 'hb-coval.jsonl');
	writeFileSync(dataset, [HEALTHBENCH, COVAL].map((c) => JSON.stringify(c)).join('\n') + '\n');
	out = join(cli.dir, 'hb-coval-run.jsonl');
	const r = await runMain(
		cli.args(out, ['--dataset', dataset, '--temperatures', '0', '--perturbations', 'none'])
	);
	expect(r.code, r.stderr).toBe(0);
}, 60_000);
afterAll(() => cli.close());

describe('HealthBench and Coval conversations in a run', () => {
	it('has the model answer the last user turn, the earlier turns before it in the prompt', () => {
		const asked = cli.server.requests
			.map((q) => (q.body as { prompt?: unknown } | null)?.prompt)
			.filter((p): p is string => typeof p === 'string' && p.endsWith('<|im_start|>assistant\n'));
		expect(asked).toHaveLength(2);
		for (const conv of [HEALTHBENCH.prompt, COVAL.prompt.messages]) {
			const rendered = conv.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join('');
			expect(asked.some((p) => p.includes(rendered))).toBe(true);
		}
		const answers = lines<AnswerRecord>(out.replace(/\.jsonl$/, '.answers.jsonl'));
		expect(answers.map((a) => [a.item_id, a.answer])).toEqual([
			['hb-photophobia', ANSWER],
			['cv-parking', ANSWER]
		]);
	});

	it('probes after the generated answer, with no fixed answer and no reference turn', () => {
		const records = lines<ProbeRecord>(out);
		expect(records.map((r) => r.item_id)).toEqual(['hb-photophobia', 'cv-parking']);
		for (const r of records) {
			expect(r.answer).toBe(ANSWER);
			expect(r.question).toBe(
				r.item_id === 'hb-photophobia'
					? 'No fever, but light hurts my eyes.'
					: 'Yes, twice. Should I call the landlord?'
			);
			expect(r.prompt.endsWith(`${ANSWER}<|im_end|>\n<|im_start|>user\n`)).toBe(true);
			expect(Object.keys(r).filter((k) => k.startsWith('reference'))).toEqual([]);
			expect(r.label).toBe('genuine_followup');
		}
	});
});
