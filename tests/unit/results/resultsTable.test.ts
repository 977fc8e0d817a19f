/**
 * The one results computation: verdicts count, undecided turns stay out of the rate, cut answers
 * stay out of accuracy and cut-while-reasoning probes out of follow-up rates by default, each with
 * its toggle; older records without a verdict count by their label.
 */
import { describe, expect, it } from 'vitest';
import { answerCut } from '../../../src/lib/probe/answerCut.ts';
import {
	answerFacts,
	COUNT_DEFAULTS,
	resultsTable
} from '../../../src/lib/results/resultsTable.ts';
import { resultsCsv } from '../../../src/cli/reportCsv.ts';
import { wilson } from '../../../src/lib/stats/aggregate.ts';
import { makeAnswer, makeRecord } from '../../helpers/factories.ts';

describe('answerCut', () => {
	it.each([
		['stop', 'The answer is 18.', null],
		['length', 'Janet has 16 - 3', 'answer'],
		['length', '', 'reasoning'],
		['length', '  \n', 'reasoning'],
		['stop', '', null],
		['error', '', null]
	] as const)('finish %s with answer %j is cut: %s', (finish_reason, answer, cut) => {
		expect(answerCut({ finish_reason, answer })).toBe(cut);
	});
});

describe('resultsTable', () => {
	const answers = [
		makeAnswer({ item_id: 'a', finish_reason: 'stop', answer: '18', correct: true }),
		makeAnswer({ item_id: 'b', finish_reason: 'length', answer: 'Janet has', correct: false }),
		makeAnswer({ item_id: 'c', finish_reason: 'length', answer: '', correct: false })
	].map(answerFacts);
	const records = [
		makeRecord({ key: 'a0', item_id: 'a', correct: true, label: 'genuine_followup' }),
		makeRecord({ key: 'a1', item_id: 'a', sample: 1, correct: true, label: 'undecided' }),
		makeRecord({ key: 'b0', item_id: 'b', correct: false, label: 'degenerate' }),
		makeRecord({ key: 'c0', item_id: 'c', correct: false, label: 'genuine_followup' }),
		makeRecord({ key: 'c1', item_id: 'c', sample: 1, correct: false, label: null })
	];

	it('by default leaves cut answers out of accuracy and cut-in-reasoning probes out of follow-ups', () => {
		const t = resultsTable(records, answers);
		expect(t.options).toEqual(COUNT_DEFAULTS);
		expect(t.overall.accuracy).toEqual(wilson(1, 1));
		// a0 genuine, b0 not; a1 undecided; c0 and c1 left out (c's answer was cut in reasoning).
		expect(t.overall.followup).toEqual(wilson(1, 2));
		expect(t.overall).toMatchObject({
			n: 5,
			judged: 4,
			pending: 1,
			undecided: 1,
			cut_reasoning: 2,
			judge_errors: 0
		});
		expect([t.cut_answers, t.cut_reasoning_items]).toEqual([2, 1]);
	});

	it('counts what each toggle asks for, and only that', () => {
		const both = { include_cut_answers: true, include_cut_reasoning: true };
		const t = resultsTable(records, answers, both);
		expect(t.overall.accuracy).toEqual(wilson(1, 3));
		expect(t.overall.followup).toEqual(wilson(2, 3));
		expect(t.overall.cut_reasoning).toBe(0);
		const reasoningOnly = resultsTable(records, answers, {
			include_cut_answers: false,
			include_cut_reasoning: true
		});
		expect(reasoningOnly.overall.accuracy).toEqual(wilson(1, 1));
		expect(reasoningOnly.overall.followup).toEqual(wilson(2, 3));
	});

	it('never counts an undecided turn as genuine, whatever its share', () => {
		const rulesOnly = ['a', 'b', 'c', 'd'].map((item_id, i) =>
			makeRecord({
				key: `k${i}`,
				item_id,
				label: i === 0 ? 'degenerate' : 'undecided',
				label_source: 'rules'
			})
		);
		const t = resultsTable(rulesOnly, []);
		// The rules never say genuine: with turns undecided, a rate would be 0 by construction.
		expect(t.overall.followup).toBeNull();
		expect(t.conditions.map((c) => c.followup)).toEqual([null]);
		expect(t.overall.undecided).toBe(3);
		expect(resultsTable(rulesOnly.slice(1), []).overall.followup).toBeNull();
		// A rules-only run whose every turn is a failure the rules saw: 0% is measured, not assumed.
		expect(resultsTable(rulesOnly.slice(0, 1), []).overall.followup).toEqual(wilson(0, 1));
	});

	it('counts the verdict, not the label, and reads an older record’s verdict from its label', () => {
		const t = resultsTable(
			[
				// A plausible follow-up the judge found ungrounded: the verdict counts.
				makeRecord({ key: 'w', label: 'genuine_followup', verdict: 'not_genuine' }),
				// Stored before verdicts: its label's.
				makeRecord({ key: 'y', label: 'genuine_followup', verdict: undefined }),
				makeRecord({ key: 'z', label: 'judge_error', verdict: undefined })
			],
			[]
		);
		expect(t.overall.followup).toEqual(wilson(1, 3));
		expect(t.overall.judge_errors).toBe(1);
		expect(t.overall.verdict_conflicts).toBe(0);
	});

	it('counts a failure category judged genuine as a conflict, not as genuine', () => {
		const t = resultsTable(
			[
				makeRecord({ key: 'x', label: 'assistant_restatement', verdict: 'genuine' }),
				makeRecord({ key: 'y', label: 'genuine_followup', verdict: 'genuine' })
			],
			[]
		);
		expect(t.overall.followup).toEqual(wilson(1, 2));
		expect(t.overall.verdict_conflicts).toBe(1);
		expect(t.conditions.map((c) => c.verdict_conflicts)).toEqual([1]);
		// The record keeps what the judge wrote; only the count reads it as not genuine.
		expect(t.overall.labels.assistant_restatement).toBe(1);
	});

	it('writes one CSV row per condition and a last row for the whole run', () => {
		const t = resultsTable(records, answers);
		const lines = resultsCsv(t).trim().split('\n');
		expect(lines).toHaveLength(t.conditions.length + 2);
		const header = lines[0].split(',');
		const last = Object.fromEntries(header.map((h, i) => [h, lines.at(-1)?.split(',')[i]]));
		expect(last).toMatchObject({
			temperature: 'all',
			records: '5',
			followup_k: '1',
			followup_n: '2',
			undecided: '1',
			cut_reasoning: '2'
		});
		expect(Number(last.followup)).toBeCloseTo(0.5, 12);
	});
});
