import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LABELS } from '../../../src/lib/probe/types.ts';
import type { RuleLabel } from '../../../src/lib/probe/types.ts';
import { classifyRules } from '../../../src/lib/probe/rules.ts';
import type { RuleInput } from '../../../src/lib/probe/rules.ts';
import { cpuMs, cpuTimed } from '../../helpers/cpuTime.ts';
import { readJsonl } from '../../helpers/fixtures.ts';

interface Context {
	question: string;
	answer: string;
}
interface Case {
	name: string;
	context: string;
	user_turn: string;
	stop_tokens?: string[];
	label: RuleLabel;
	reason_includes?: string;
}
interface CaseFile {
	contexts: Record<string, Context>;
	cases: Case[];
}

const FILE = JSON.parse(
	readFileSync(new URL('../../fixtures/rules/cases.json', import.meta.url), 'utf8')
) as CaseFile;

function inputOf(c: Case): RuleInput {
	const ctx = FILE.contexts[c.context];
	if (!ctx) throw new Error(`case "${c.name}" names unknown context ${c.context}`);
	return { ...ctx, user_turn: c.user_turn, stop_tokens: c.stop_tokens };
}

describe('classifyRules golden cases', () => {
	it.each(FILE.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
		const decision = classifyRules(inputOf(c));
		expect(decision.label).toBe(c.label);
		if (c.reason_includes) expect(decision.reason).toContain(c.reason_includes);
	});

	it('covers every label the rules can give, with at least five cases each', () => {
		const counts = new Map<string, number>();
		for (const c of FILE.cases) counts.set(c.label, (counts.get(c.label) ?? 0) + 1);
		expect(FILE.cases.length).toBeGreaterThanOrEqual(40);
		// Genuine follow-ups are always the judge's call: the rules say `undecided` for them.
		const ruleLabels = LABELS.filter((l) => l !== 'judge_error' && l !== 'genuine_followup');
		for (const label of [...ruleLabels, 'undecided']) {
			expect(counts.get(label) ?? 0, label).toBeGreaterThanOrEqual(5);
		}
	});
});

describe('classifyRules properties', () => {
	it('explains every decision, and says plainly when it defers to the judge', () => {
		for (const c of FILE.cases) {
			const { label, reason } = classifyRules(inputOf(c));
			if (label === 'undecided') expect(reason).toMatch(/^no rule fired: needs the judge\b/);
			else expect(reason.length, c.name).toBeGreaterThan(8);
		}
	});

	it('is deterministic, whatever was classified before (the source cache is invisible)', () => {
		const first = FILE.cases.map((c) => classifyRules(inputOf(c)));
		const reversed = [...FILE.cases].reverse().map((c) => classifyRules(inputOf(c)));
		expect(reversed.reverse()).toEqual(first);
	});

	it('never returns judge_error or genuine_followup, even for random junk', () => {
		const random = mulberry32(7);
		const pieces = [
			'<|',
			'|>',
			'user',
			':',
			'\n',
			' ',
			'?',
			'why',
			'18',
			'=',
			'!',
			'the',
			'{',
			"'"
		];
		for (let i = 0; i < 500; i++) {
			const turn = Array.from(
				{ length: Math.floor(random() * 30) },
				() => pieces[Math.floor(random() * pieces.length)]
			).join('');
			const { label } = classifyRules({ question: 'Q?', answer: 'A = 18.', user_turn: turn });
			expect(label).not.toBe('judge_error');
			expect(label).not.toBe('genuine_followup');
			expect([...LABELS, 'undecided']).toContain(label);
		}
	});

	it('leaves genuine questions about real GSM8K answers to the judge, never calling them restatements', () => {
		const items = readJsonl<{ question: string; answer: string }>('gsm8k/test.jsonl').slice(0, 150);
		const labels = new Map<string, number>();
		for (const item of items) {
			// Model answers have no calculator annotations and end with the number, as here.
			const answer = item.answer.replace(/<<[^>]*>>/g, '');
			for (const turn of genuineQuestions(answer)) {
				const { label, reason } = classifyRules({
					question: item.question,
					answer,
					user_turn: turn
				});
				expect(label, `${turn} → ${reason}`).not.toMatch(/restatement/);
				labels.set(label, (labels.get(label) ?? 0) + 1);
			}
		}
		expect([...labels.keys()]).toEqual(['undecided']);
	});

	it('never calls a real human follow-up (OpenAssistant) a restatement or meta-planning', () => {
		const chats = readJsonl<{ messages: { role: string; content: string }[] }>(
			'oasst_conversations/conversations.jsonl'
		);
		let total = 0;
		let undecided = 0;
		for (const { messages } of chats) {
			for (let i = 2; i < messages.length; i += 2) {
				if (messages[i].role !== 'user' || messages[i - 1].role !== 'assistant') continue;
				const { label, reason } = classifyRules({
					question: messages[i - 2].content,
					answer: messages[i - 1].content,
					user_turn: messages[i].content
				});
				expect(label, `${messages[i].content.slice(0, 80)} → ${reason}`).not.toMatch(
					/restatement|meta_planning/
				);
				total++;
				if (label === 'undecided') undecided++;
			}
		}
		// People do write "Thanks!" or paste role-labelled scripts; nearly all others reach the judge.
		expect(total).toBeGreaterThan(100);
		expect(undecided / total).toBeGreaterThan(0.95);
	});

	it('calls the GSM8K question itself a prompt restatement, for every item', () => {
		for (const item of readJsonl<{ question: string; answer: string }>('gsm8k/test.jsonl').slice(
			0,
			150
		)) {
			const decision = classifyRules({ ...item, user_turn: item.question });
			expect(decision.label, item.question).toBe('prompt_restatement');
		}
	});

	it('strips any of several stop tokens, in any order, from the end only', () => {
		const base = { question: 'How many?', answer: 'There are 3.' };
		const stops = ['<|im_end|>', '<|endoftext|>'];
		const clean = classifyRules({ ...base, user_turn: 'Why three, not four?', stop_tokens: stops });
		const trailing = classifyRules({
			...base,
			user_turn: 'Why three, not four?<|im_end|>\n<|endoftext|>',
			stop_tokens: stops
		});
		const inside = classifyRules({
			...base,
			user_turn: 'Why three?<|im_end|> Not four?',
			stop_tokens: stops
		});
		expect(trailing).toEqual(clean);
		expect(inside.label).toBe('malformed_artifact');
	});

	it('stays fast and linear on very long turns and answers', () => {
		const question = 'A farmer has 12 cows. How many legs? '.repeat(50);
		const answer = 'Each cow has 4 legs, so 12 * 4 = 48 legs. '.repeat(5_000);
		const turn = 'Why do cows have four legs and not five? '.repeat(5_000) + 'ok';
		// CPU time, not wall time: a loaded machine stretches the wall clock, not the work.
		const { value: decision, ms } = cpuTimed(() =>
			classifyRules({ question, answer, user_turn: turn })
		);
		expect(ms).toBeLessThan(200);
		expect(decision.label).toBe('degenerate');
	});

	it('stays fast on long texts with no punctuation at all', () => {
		const words = Array.from({ length: 3_000 }, (_, i) => `w${(i * 7919) % 1000}`).join(' ');
		const ms = cpuMs(() =>
			classifyRules({ question: words, answer: words, user_turn: `${words} why?` })
		);
		expect(ms).toBeLessThan(100);
	});

	it('averages well under the 0.5 ms/record budget on realistic records', () => {
		const inputs = FILE.cases.map(inputOf);
		for (const input of inputs) classifyRules(input); // warm the JIT and the source cache
		const rounds = 50;
		const ms = cpuMs(() => {
			for (let r = 0; r < rounds; r++) for (const input of inputs) classifyRules(input);
		});
		const perRecordMs = ms / (rounds * inputs.length);
		// The budget is 0.5 ms for all per-record overhead; the rules should take a small part of it.
		expect(perRecordMs).toBeLessThan(0.25);
	});
});

/** Questions a real user might ask about an answer, built from the answer's own numbers and words. */
function genuineQuestions(answer: string): string[] {
	const numbers = answer.match(/\d+(?:\.\d+)?/g) ?? ['2'];
	const final = numbers[numbers.length - 1];
	const first = numbers[0];
	const lines = answer.split('\n').filter((l) => l.trim() && !l.startsWith('####'));
	const step = lines[0] ?? answer;
	return [
		`Wait, why did you use ${first} there?`,
		`Where does the ${first} in the first step come from?`,
		`You said "${step.trim()}" Why is that?`,
		`I got ${Number(final) + 1} instead of ${final}. Which one is right?`,
		`So the answer is ${final}? Can you double-check the second step?`,
		`Thanks! What would change if every number were doubled?`,
		`Can you explain the step "${step.trim()}" in simpler words?`
	];
}

/** Small seeded PRNG so the fuzz test is reproducible. */
function mulberry32(seed: number): () => number {
	let a = seed;
	return () => {
		a = (a + 0x6d2b79f5) | 0;
		let t = Math.imul(a ^ (a >>> 15), 1 | a);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
