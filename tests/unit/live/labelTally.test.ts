/**
 * The live "Labels so far" counts as the results do: the same records, fed to the tally as the
 * store receives them and to the results table as the store holds them, give the same numbers.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_TALLY, LabelTally } from '../../../src/lib/live/labelTally.ts';
import type { ProbeRecord } from '../../../src/lib/probe/types.ts';
import { answerFacts, resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { makeRecord } from '../../helpers/factories.ts';

/** The records as the store holds them after the puts: the last put of each key. */
function stored(puts: readonly ProbeRecord[]): ProbeRecord[] {
	return [...new Map(puts.map((r) => [r.key, r])).values()];
}

const judged = (item: string, over: Partial<ProbeRecord> = {}) =>
	makeRecord({ item_id: item, answer_finish_reason: 'stop', verdict: 'genuine', ...over });

/** A judged run's puts: every way a turn counts, or does not, in the results' rate. */
function judgedRun(): ProbeRecord[] {
	const pending = judged('twice', { label: null, label_source: null, verdict: null });
	return [
		judged('grounded'),
		// A failure category judged genuine: stored as written, counted as not genuine.
		judged('conflict', { label: 'prompt_restatement', verdict: 'genuine' }),
		judged('degenerate', { label: 'degenerate', verdict: 'not_genuine' }),
		// Hybrid labelling: no rule applied and the judge was not asked yet: out of the rate.
		judged('undecided', { label: 'undecided', label_source: 'rules', verdict: null }),
		// The answer hit the limit before any visible text: its probes are out of the rate.
		judged('cut', { answer_finish_reason: 'length', answer: '', perturbed_answer: '' }),
		// Stored when generated, then again when judged: counted once, as judged.
		pending,
		{ ...pending, label: 'genuine_followup', label_source: 'judge', verdict: 'genuine' }
	];
}

function tallied(puts: readonly ProbeRecord[]) {
	const t = new LabelTally();
	for (const r of puts) t.add(r);
	return t;
}

describe('LabelTally counts as the results table does', () => {
	it('gives the results’ rate: genuine verdicts of decided turns, conflicts not genuine, cuts left out', () => {
		const puts = judgedRun();
		const live = tallied(puts).snapshot();
		const results = resultsTable(stored(puts), []).overall;
		expect(live).toEqual(results);
		// grounded and twice of grounded, conflict, degenerate, twice; not 4 follow-up
		// categories of 6 decided turns, as counting categories with the cut probe in would.
		expect(live.followup).toMatchObject({ k: 2, n: 4 });
		expect(live.verdict_conflicts).toBe(1);
		expect(live.undecided).toBe(1);
		expect(live.cut_reasoning).toBe(1);
		expect(live.judged).toBe(6);
		expect(live.pending).toBe(0);
	});

	it('counts a record still waiting for its judgment as pending, then once when judged', () => {
		const puts = judgedRun();
		const t = tallied(puts.slice(0, -1));
		expect(t.stored).toBe(6);
		expect(t.snapshot()).toEqual(resultsTable(stored(puts.slice(0, -1)), []).overall);
		expect(t.snapshot().pending).toBe(1);
		t.add(puts[puts.length - 1]);
		expect(t.stored).toBe(6);
		expect(t.snapshot().pending).toBe(0);
	});

	it('leaves out the probes of an answer the answers say was cut, when its records do not say', () => {
		// A record made before records kept their answer's end: only the answer knows.
		const old = judged('old', { answer_finish_reason: undefined, answer: '' });
		const answer = { item_id: 'old', finish_reason: 'length' as const, answer: '' };
		const t = tallied([judged('grounded'), old]);
		expect(t.snapshot().followup).toMatchObject({ k: 2, n: 2 });
		t.answer(answerFacts(answer));
		const live = t.snapshot();
		expect(live).toEqual(resultsTable([judged('grounded'), old], [answerFacts(answer)]).overall);
		expect(live.followup).toMatchObject({ k: 1, n: 1 });
		expect(live.cut_reasoning).toBe(1);
	});

	it('states no rate for a run labelled by the rules alone, as the results do', () => {
		const rules = { label_source: 'rules' as const, judge_label: null, verdict: null };
		const puts = [
			judged('a', { ...rules, label: 'undecided' }),
			judged('b', { ...rules, label: 'degenerate', verdict: 'not_genuine' }),
			judged('c', { ...rules, label: 'undecided' })
		];
		const live = tallied(puts).snapshot();
		expect(live).toEqual(resultsTable(stored(puts), []).overall);
		expect(live.followup).toBeNull();
		expect(live.labels).toMatchObject({ undecided: 2, degenerate: 1 });
	});

	it('starts empty, with no turn labelled', () => {
		expect(new LabelTally().snapshot()).toEqual(EMPTY_TALLY);
		expect(EMPTY_TALLY).toMatchObject({ n: 0, judged: 0, pending: 0 });
	});
});
