import { describe, expect, it } from 'vitest';
import { LABELS, type Label } from '../../../src/lib/probe/types.ts';
import {
	LABEL_INFO,
	binaryLabel,
	GENUINE_CRITERIA,
	isGenuine,
	isVerdictConflict,
	recordVerdict,
	verdictOf
} from '../../../src/lib/probe/labels.ts';

const infos = LABELS.map((label) => LABEL_INFO[label]);

describe('LABEL_INFO', () => {
	it('describes exactly the labels in LABELS, each under its own key', () => {
		expect(Object.keys(LABEL_INFO).sort()).toEqual([...LABELS].sort());
		for (const label of LABELS) expect(LABEL_INFO[label].label).toBe(label);
	});

	it('gives every label a title, a definition and a positive and a negative example', () => {
		for (const info of infos) {
			expect(info.title.trim(), info.label).not.toBe('');
			expect(info.definition.length, info.label).toBeGreaterThan(80);
			expect(info.positive.length, info.label).toBeGreaterThan(20);
			// Negative examples are close calls that say what they are instead.
			expect(info.negative, info.label).toMatch(/is NOT/);
		}
	});

	it('names a different label in every negative example, so reviewers see where it goes instead', () => {
		for (const info of infos.filter((i) => i.label !== 'judge_error')) {
			const named = LABELS.filter((l) => l !== info.label && info.negative.includes(`(${l})`));
			expect(named, info.label).toHaveLength(1);
		}
	});

	it('assigns a distinct single-character keyboard shortcut to every label', () => {
		const keys = infos.map((i) => i.key);
		for (const key of keys) expect(key).toHaveLength(1);
		expect(new Set(keys).size).toBe(LABELS.length);
	});

	it('mentions the markup the rules look for in the malformed_artifact definition', () => {
		for (const token of ['<|im_start|>', '<|eot_id|>', '<start_of_turn>', '<think>', 'User:']) {
			expect(LABEL_INFO.malformed_artifact.definition).toContain(token);
		}
	});
});

describe('binary view', () => {
	it('counts only genuine_followup as genuine', () => {
		expect(LABELS.filter(isGenuine)).toEqual(['genuine_followup']);
	});

	const expected = (l: Label) =>
		l === 'genuine_followup' ? 'genuine' : l === 'undecided' ? 'undecided' : 'not_genuine';
	it.each(LABELS.map((l) => [l, expected(l)] as const))('maps %s to %s', (label, verdict) => {
		expect(binaryLabel(label)).toBe(verdict);
		expect(verdictOf(label)).toBe(verdict);
	});

	it('reads a record’s own verdict, else its label’s (records stored before verdicts), else none', () => {
		expect(recordVerdict({ label: 'genuine_followup', verdict: 'not_genuine' })).toBe(
			'not_genuine'
		);
		expect(recordVerdict({ label: 'genuine_followup' })).toBe('genuine');
		expect(recordVerdict({ label: 'judge_error', verdict: null })).toBe('not_genuine');
		expect(recordVerdict({ label: 'undecided' })).toBe('undecided');
		expect(recordVerdict({ label: null, verdict: null })).toBeNull();
	});

	it('counts a failure category with a genuine verdict as a conflict, not genuine', () => {
		expect(isVerdictConflict({ label: 'degenerate', verdict: 'genuine' })).toBe(true);
		expect(recordVerdict({ label: 'degenerate', verdict: 'genuine' })).toBe('not_genuine');
		expect(isVerdictConflict({ label: 'prompt_restatement', verdict: 'genuine' })).toBe(true);
		// A plausible but ungrounded turn is no conflict: the category and the verdict differ by design.
		expect(isVerdictConflict({ label: 'genuine_followup', verdict: 'not_genuine' })).toBe(false);
		expect(isVerdictConflict({ label: 'genuine_followup', verdict: 'genuine' })).toBe(false);
		expect(isVerdictConflict({ label: 'degenerate', verdict: 'not_genuine' })).toBe(false);
		expect(isVerdictConflict({ label: 'degenerate' })).toBe(false);
		expect(isVerdictConflict({ label: null, verdict: 'genuine' })).toBe(false);
	});

	it('writes the authors’ three criteria and a new task as ungrounded into the definitions', () => {
		expect(GENUINE_CRITERIA).toHaveLength(3);
		expect(GENUINE_CRITERIA[0]).toMatch(/concrete element/);
		expect(GENUINE_CRITERIA[2]).toMatch(/new task/);
		expect(LABEL_INFO.genuine_followup.definition).toMatch(/verdict/);
		expect(LABEL_INFO.genuine_followup.positive).toMatch(/new task \(verdict not_genuine\)/);
	});
});

describe('paper names', () => {
	it('titles the categories as the paper does, keeping the stored ids', () => {
		expect(
			Object.fromEntries(
				(
					[
						'prompt_restatement',
						'assistant_restatement',
						'malformed_artifact',
						'meta_planning',
						'degenerate',
						'genuine_followup'
					] as const
				).map((l) => [l, LABEL_INFO[l].title])
			)
		).toEqual({
			prompt_restatement: 'Previous-turn restatement',
			assistant_restatement: 'Assistant-turn restatement',
			malformed_artifact: 'Malformed artifact',
			meta_planning: 'Meta-planning',
			degenerate: 'Degenerate short output',
			genuine_followup: 'Plausible follow-up'
		});
		for (const label of LABELS) expect(LABEL_INFO[label].label).toBe(label);
	});
});
