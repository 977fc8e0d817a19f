/**
 * The rules and the judge must agree on which label wins when several apply, above all on template
 * markup: gpt-oss's analysis channel is an assistant-turn restatement even when it reads as
 * planning. Each case names the label that wins and the label it also reads as; the rules must give
 * the winner, and the judge prompt must state a precedence in which the winner's step comes first.
 */
import { describe, expect, it } from 'vitest';
import { JUDGE_PROMPT, precedenceSection } from '../../../src/lib/probe/judge.ts';
import { PRECEDENCE, type TurnLabel } from '../../../src/lib/probe/labels.ts';
import { classifyRules } from '../../../src/lib/probe/rules.ts';

const QUESTION =
	'A train travels 180 miles in 3 hours. How far does it go in 5 hours at that speed?';
const ANSWER =
	'The speed is 180 / 3 = 60 miles per hour. In 5 hours it travels 60 * 5 = 300 miles. Answer: 300';

interface Case {
	turn: string;
	/** The label the rules give and the judge's precedence puts first. */
	wins: TurnLabel;
	/** The label the turn would also fit, which must come later in the precedence (if any). */
	over?: TurnLabel;
}

const CASES: Record<string, Case> = {
	'analysis channel planning the next message': {
		turn: '<|channel|>analysis<|message|>We need to respond to the user with a follow-up question.',
		wins: 'assistant_restatement',
		over: 'meta_planning'
	},
	'analysis channel that narrates the user': {
		turn: '<|channel|>analysis<|message|>The user wants to know the distance. I should ask a short follow-up question.',
		wins: 'assistant_restatement',
		over: 'meta_planning'
	},
	'analysis channel continuing the solution (the paper’s leak)': {
		turn: '<|channel|>analysis<|message|>We need to ensure the final answer line is exactly "Answer: 300".',
		wins: 'assistant_restatement',
		over: 'malformed_artifact'
	},
	'assistant header then a new start of the assistant reply': {
		turn: '<|start|>assistant<|channel|>final<|message|>Let me know if you have any other questions about trains.',
		wins: 'assistant_restatement',
		over: 'malformed_artifact'
	},
	'Qwen assistant header then planning': {
		turn: '<|im_start|>assistant\nOkay, the user is asking about the train. I should ask the user whether they want km.',
		wins: 'assistant_restatement',
		over: 'meta_planning'
	},
	'a follow-up that ends in template tokens stays an artifact': {
		turn: 'Why multiply by 5?<|im_end|>\n<|im_start|>assistant\nBecause it travels 5 hours.',
		wins: 'malformed_artifact',
		over: 'genuine_followup'
	},
	'a bare channel header with nothing after it is an artifact': {
		// The markup step needs words after the header: with none, only the artifact is left.
		turn: '<|channel|>final<|message|>',
		wins: 'malformed_artifact'
	},
	'planning behind a user role label is an artifact before meta-planning': {
		turn: 'User: Okay, the user is asking about trains. I should ask a follow-up question.',
		wins: 'malformed_artifact',
		over: 'meta_planning'
	},
	'a final-channel question is read past its header, so no rule calls it an artifact': {
		turn: '<|channel|>final<|message|>Why did you divide 180 by 3 before multiplying by 5?',
		wins: 'genuine_followup'
	},
	'a loop inside the analysis channel is degenerate first': {
		turn: '<|channel|>analysis<|message|>' + 'We need to answer. '.repeat(12),
		wins: 'degenerate',
		over: 'assistant_restatement'
	}
};

/** The first precedence step of a label (the markup step for assistant_restatement). */
const firstStep = (label: TurnLabel) => PRECEDENCE.findIndex((s) => s.label === label);

describe('precedence on harmony markup: rules and judge agree', () => {
	it.each(Object.entries(CASES))('%s', (_name, c) => {
		const decision = classifyRules({ question: QUESTION, answer: ANSWER, user_turn: c.turn });
		// A follow-up is never the rules' call: they leave it undecided, for the judge.
		const rules = c.wins === 'genuine_followup' ? 'undecided' : c.wins;
		expect(decision.label, decision.reason).toBe(rules);
		expect(decision.verdict).toBe(rules === 'undecided' ? 'undecided' : 'not_genuine');
		if (c.over) expect(firstStep(c.wins)).toBeLessThan(firstStep(c.over));
	});

	it('the judge prompt states the precedence the rules follow, step by step', () => {
		expect(JUDGE_PROMPT.system).toContain(
			precedenceSection().replace(/<(?=[|｜/a-z_])/gi, '<\u200b')
		);
		const lines = precedenceSection().split('\n');
		expect(lines).toHaveLength(PRECEDENCE.length);
		PRECEDENCE.forEach((step, i) =>
			expect(lines[i]).toMatch(new RegExp(`^${i + 1}\\. ${step.label}`))
		);
		// The markup step sits before malformed_artifact and meta_planning, as in the rules.
		const markup = PRECEDENCE.findIndex((s) => s.label === 'assistant_restatement' && s.when);
		expect(markup).toBeGreaterThan(firstStep('degenerate'));
		expect(markup).toBeLessThan(firstStep('malformed_artifact'));
		expect(markup).toBeLessThan(firstStep('meta_planning'));
		expect(lines[markup]).toMatch(/even when they read as planning/);
		// Only the analysis channel is the assistant speaking; a final-channel header is no artifact.
		expect(lines[markup]).toContain('<|channel|>analysis<|message|>');
		expect(lines[markup]).not.toContain('final');
		expect(lines[firstStep('malformed_artifact')]).toContain('<|channel|>final<|message|>');
	});

	it('a turn no rule decides stays undecided, with no verdict, never a follow-up', () => {
		for (const turn of [
			'Write a haiku about the ocean.',
			'What is the capital of France?',
			// A gpt-oss leak with its markup stripped by the server: plain text, no rule applies.
			'analysisWe need to make sure the final answer line is there.'
		]) {
			const d = classifyRules({ question: QUESTION, answer: ANSWER, user_turn: turn });
			expect([d.label, d.verdict], turn).toEqual(['undecided', 'undecided']);
		}
	});
});
