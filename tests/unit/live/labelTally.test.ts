/**
 * The live "Labels so far" counts as the results do: the same records, fed to the tally as the
 * store receives them and to the results table as the store holds them, give the same numbers.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_TALLY, LabelTally } from '../../../src/lib/live/labelTally.ts';
import { mulberry32, randomInt, type Rng } from '../../../src/lib/probe/random.ts';
import { LABELS, type AnswerRecord, type ProbeRecord } from '../../../src/lib/probe/types.ts';
import { answerFacts, resultsTable } from '../../../src/lib/results/resultsTable.ts';
import { cheapestBatchCpuMs } from '../../helpers/cpuTime.ts';
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
		t.answer(answer);
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

	it('counts a key stored again under another item under its last item, as the store keeps it', () => {
		const cut = { answer_finish_reason: 'length' as const, answer: '' };
		const first = judged('a', { key: 'k', ...cut });
		const moved = judged('b', { key: 'k' });
		const puts = [judged('a'), first, moved];
		const live = tallied(puts).snapshot();
		expect(live).toEqual(resultsTable(stored(puts), []).overall);
		// Item a is no longer cut once its cut record went to b: both turns count.
		expect(live).toMatchObject({ n: 2, cut_reasoning: 0, followup: { k: 2, n: 2 } });
	});
});

type Answer = Pick<AnswerRecord, 'item_id' | 'finish_reason' | 'answer'>;

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[randomInt(rng, xs.length)];

/** A record as a run may store it: any label, verdict, source, score and answer end. */
function randomRecord(rng: Rng, items: number): ProbeRecord {
	const label = rng() < 0.2 ? null : pick(rng, LABELS);
	return makeRecord({
		item_id: `item-${randomInt(rng, items)}`,
		temperature: pick(rng, [0, 1]),
		perturbation: pick(rng, ['none', 'truncate'] as const),
		sample: randomInt(rng, 2),
		label,
		label_source: label === null ? null : pick(rng, ['rules', 'judge'] as const),
		verdict: label === null ? null : pick(rng, ['genuine', 'not_genuine', null] as const),
		correct: pick(rng, [true, false, null]),
		answer_finish_reason: pick(rng, ['stop', 'length', undefined] as const),
		answer: pick(rng, ['', 'She sold 72 clips.'])
	});
}

function randomAnswer(rng: Rng, items: number): Answer {
	return {
		item_id: `item-${randomInt(rng, items)}`,
		finish_reason: pick(rng, ['stop', 'length'] as const),
		answer: pick(rng, ['', '#### 72'])
	};
}

describe('LabelTally keeps counting as the results table does, record by record', () => {
	it.each([1, 2, 3, 4])('matches the table after every put and answer (seed %i)', (seed) => {
		const rng = mulberry32(seed);
		const items = 6;
		const t = new LabelTally();
		const puts: ProbeRecord[] = [];
		const answers: Answer[] = [];
		for (let step = 0; step < 300; step++) {
			if (rng() < 0.1) {
				const a = randomAnswer(rng, items);
				answers.push(a);
				t.answer(a);
			} else {
				// Most puts store a key again: judged, relabelled, or with another answer end.
				const r = randomRecord(rng, items);
				puts.push(r);
				t.add(r);
			}
			const expected = resultsTable(stored(puts), answers.map(answerFacts)).overall;
			expect(t.snapshot(), `step ${step}`).toEqual(expected);
			expect(t.stored).toBe(stored(puts).length);
		}
	});

	it('hands out a snapshot that later puts do not change', () => {
		const t = tallied([judged('a')]);
		const before = t.snapshot();
		const copy = structuredClone(before);
		t.add(judged('b', { label: 'degenerate', verdict: 'not_genuine' }));
		expect(before).toEqual(copy);
	});
});

describe('LabelTally commits without walking the run', () => {
	/** A run's records: 24 per item (3 temperatures × 8 samples), some items' answers cut. */
	function runRecord(i: number): ProbeRecord {
		const item = Math.floor(i / 24);
		return judged(`item-${item}`, {
			temperature: [0, 0.7, 1][i % 3],
			sample: Math.floor(i / 3) % 8,
			answer_finish_reason: item % 17 === 0 ? 'length' : 'stop',
			answer: item % 34 === 0 ? '' : 'x',
			label: i % 5 === 0 ? 'degenerate' : 'genuine_followup',
			verdict: i % 5 === 0 ? 'not_genuine' : 'genuine'
		});
	}

	function filled(n: number): { t: LabelTally; records: ProbeRecord[] } {
		const records = Array.from({ length: n }, (_, i) => runRecord(i));
		const t = new LabelTally();
		for (const r of records) t.add(r);
		return { t, records };
	}

	it('costs the same CPU per commit at 2,000 and 20,000 records', () => {
		const small = filled(2_000);
		const large = filled(20_000);
		expect(large.t.snapshot()).toEqual(resultsTable(large.records, []).overall);
		// A commit as the run makes one: a record stored again (now judged), then a snapshot.
		const commit = (run: typeof small) => (i: number) => {
			run.t.add(run.records[(i * 7) % run.records.length]);
			run.t.snapshot();
		};
		// Taken in turns, so both sizes meet the machine's load alike.
		let smallMs = Infinity;
		let largeMs = Infinity;
		for (let round = 0; round < 5; round++) {
			smallMs = Math.min(smallMs, cheapestBatchCpuMs(commit(small), 4, 200));
			largeMs = Math.min(largeMs, cheapestBatchCpuMs(commit(large), 4, 200));
		}
		// Counting every record on each commit made the larger run's ten times as costly (1.4 ms
		// at 10,000 records); a flat cost stays well under three times, with room for noise.
		expect(largeMs / smallMs).toBeLessThan(3);
	}, 30_000);
});
