import { describe, expect, it } from 'vitest';
import {
	compareConditions,
	conditionKey,
	labelDistribution,
	RunningTally,
	summarize,
	tally,
	wilson
} from '../../../src/lib/stats/aggregate.ts';
import { followupClusterCI, pairedDifference } from '../../../src/lib/stats/clustered.ts';
import { LABELS } from '../../../src/lib/probe/types.ts';
import type { Label, ProbeRecord } from '../../../src/lib/probe/types.ts';
import { seededShuffle } from '../../../src/lib/probe/random.ts';
import { cpuTimed } from '../../helpers/cpuTime.ts';
import { makeRecord, makeSyntheticRun } from '../../helpers/factories.ts';
import { rated } from '../../helpers/rate.ts';

function labelled(labels: (Label | null)[], overrides: Partial<ProbeRecord> = {}): ProbeRecord[] {
	return labels.map((label, i) => makeRecord({ item_id: `item-${i}`, label, ...overrides }));
}

describe('conditionKey', () => {
	it('is temperature|perturbation, the tail of a record key', () => {
		expect(conditionKey({ temperature: 0.7, perturbation: 'truncate' })).toBe('0.7|truncate');
		const r = makeRecord({ temperature: 1, perturbation: 'append', item_id: 'x', sample: 2 });
		expect(r.key.endsWith(`|${conditionKey(r)}|2`)).toBe(true);
	});
});

describe('labelDistribution', () => {
	it('counts every label, zeros included, and skips pending records', () => {
		const dist = labelDistribution(
			labelled(['genuine_followup', 'genuine_followup', 'degenerate', null, 'judge_error'])
		);
		expect(Object.keys(dist)).toEqual([...LABELS]);
		expect(dist.genuine_followup).toBe(2);
		expect(dist.degenerate).toBe(1);
		expect(dist.judge_error).toBe(1);
		expect(dist.meta_planning).toBe(0);
		expect(Object.values(dist).reduce((a, b) => a + b, 0)).toBe(4);
	});
});

describe('summarize', () => {
	it('groups by temperature × perturbation, sorted by temperature then paper order', () => {
		const records = [
			makeRecord({ temperature: 1, perturbation: 'none' }),
			makeRecord({ temperature: 0, perturbation: 'append' }),
			makeRecord({ temperature: 0, perturbation: 'none' }),
			makeRecord({ temperature: 0.5, perturbation: 'truncate' }),
			makeRecord({ temperature: 0, perturbation: 'truncate' })
		];
		const keys = summarize(records).map((s) => `${s.temperature}|${s.perturbation}`);
		expect(keys).toEqual(['0|none', '0|truncate', '0|append', '0.5|truncate', '1|none']);
	});

	it('does not depend on record order', () => {
		const run = makeSyntheticRun({
			seed: 1,
			items: 20,
			samples: 2,
			temperatures: [0, 1],
			perturbations: ['none', 'append'],
			pending: 0.1
		});
		expect(summarize(seededShuffle(run, 5))).toEqual(summarize(run));
	});

	it('counts follow-ups over labeled records, keeping judge_error in n and pending out', () => {
		const [s] = summarize(
			labelled([
				'genuine_followup',
				'genuine_followup',
				'prompt_restatement',
				'judge_error',
				null,
				null
			])
		);
		expect(s.n).toBe(6);
		expect(s.judged).toBe(4);
		expect(s.pending).toBe(2);
		expect(s.judge_errors).toBe(1);
		expect(s.followup).toEqual(wilson(2, 4));
		expect(s.labels.prompt_restatement).toBe(1);
	});

	it('reports a NaN rate with the vacuous interval while nothing is judged', () => {
		const [s] = summarize(labelled([null, null]));
		expect(rated(s.followup).p).toBeNaN();
		expect([rated(s.followup).lo, rated(s.followup).hi]).toEqual([0, 1]);
		expect(s.pending).toBe(2);
	});

	it('counts accuracy once per item and leaves unscored items out', () => {
		const records = [
			// item a: correct, three samples → counts once
			...[0, 1, 2].map((sample) => makeRecord({ item_id: 'a', sample, correct: true })),
			...[0, 1, 2].map((sample) => makeRecord({ item_id: 'b', sample, correct: false })),
			makeRecord({ item_id: 'c', correct: null })
		];
		const [s] = summarize(records);
		expect(s.accuracy).toEqual(wilson(1, 2));
		expect(s.n).toBe(7);
	});

	it('never counts an item as correct when its records disagree', () => {
		const records = [
			makeRecord({ item_id: 'a', sample: 0, correct: true }),
			makeRecord({ item_id: 'a', sample: 1, correct: false })
		];
		expect(summarize(records)[0].accuracy.k).toBe(0);
		expect(summarize(records.slice().reverse())[0].accuracy.k).toBe(0);
	});

	it('keeps the label counts consistent with n, judged and follow-ups in every condition', () => {
		const run = makeSyntheticRun({
			seed: 3,
			items: 50,
			samples: 3,
			temperatures: [0, 0.7, 1],
			perturbations: ['none', 'truncate', 'append'],
			pending: 0.2
		});
		const summaries = summarize(run);
		expect(summaries).toHaveLength(9);
		expect(summaries.reduce((a, s) => a + s.n, 0)).toBe(run.length);
		for (const s of summaries) {
			const total = Object.values(s.labels).reduce((a, b) => a + b, 0);
			expect(total).toBe(s.judged);
			expect(s.judged + s.pending).toBe(s.n);
			expect(rated(s.followup).k).toBe(s.labels.genuine_followup);
			expect(rated(s.followup).n).toBe(s.judged);
			expect(s.accuracy.n).toBe(50);
		}
	});

	it('recovers the follow-up rates a synthetic run was drawn with', () => {
		const rates: Record<string, number> = { none: 0.1, truncate: 0.4, append: 0.7 };
		const run = makeSyntheticRun({
			seed: 8,
			items: 400,
			samples: 2,
			temperatures: [0.5],
			perturbations: ['none', 'truncate', 'append'],
			followup: (_t, p) => rates[p]
		});
		for (const s of summarize(run)) {
			expect(rated(s.followup).lo).toBeLessThan(rates[s.perturbation]);
			expect(rated(s.followup).hi).toBeGreaterThan(rates[s.perturbation]);
		}
	});

	it('summarizes 20,000 records in under 200 ms', () => {
		const run = makeSyntheticRun({
			seed: 11,
			items: 834,
			samples: 4,
			temperatures: [0, 0.5, 1],
			perturbations: ['none', 'truncate'],
			pending: 0.05
		});
		expect(run.length).toBeGreaterThanOrEqual(20_000);
		summarize(run); // warm the JIT so the measurement is the steady state a user sees
		// CPU time: a loaded machine stretches the wall clock, not the work.
		const { value: summaries, ms } = cpuTimed(() => summarize(run));
		expect(summaries).toHaveLength(6);
		expect(ms).toBeLessThan(200);
		// Making 20,000 records and two summaries took 9.2 s of wall time at load average 13-18 on
		// 2 cores, past Vitest's 5 s default; the budget above is the test's point.
	}, 30_000);
});

describe('RunningTally', () => {
	const none = { unscored: new Set<string>(), unprobed: new Set<string>() };

	it('takes a record back out as if it had never been counted, item accuracy included', () => {
		const kept = [
			makeRecord({ item_id: 'a', sample: 0, correct: true }),
			makeRecord({ item_id: 'a', sample: 1, correct: true, label: 'degenerate' }),
			makeRecord({ item_id: 'b', correct: null, label: null, label_source: null })
		];
		// The one wrong record of item a makes the item wrong; taking it out makes it right again.
		const wrong = makeRecord({ item_id: 'a', sample: 2, correct: false, verdict: 'genuine' });
		const conflict = makeRecord({ item_id: 'c', label: 'prompt_restatement', verdict: 'genuine' });
		const t = new RunningTally();
		for (const r of [...kept, wrong, conflict]) t.add(r, none);
		expect(t.tally().accuracy).toMatchObject({ k: 1, n: 2 });
		expect(t.tally().verdict_conflicts).toBe(1);
		t.remove(wrong, none);
		t.remove(conflict, none);
		expect(t.tally()).toEqual(tally(kept));
		expect(t.tally().accuracy).toMatchObject({ k: 1, n: 1 });
	});

	it('takes a left-out record out of what it was left out of', () => {
		const ex = { unscored: new Set(['a']), unprobed: new Set(['a']) };
		const r = makeRecord({ item_id: 'a', correct: false });
		const t = new RunningTally();
		t.add(r, ex);
		expect(t.tally()).toMatchObject({ n: 1, cut_reasoning: 1, accuracy: { n: 0 } });
		t.remove(r, ex);
		expect(t.tally()).toEqual(tally([]));
	});
});

describe('compareConditions', () => {
	it('orders perturbations as the paper does, not alphabetically', () => {
		const sorted = (['append', 'none', 'truncate'] as const)
			.map((perturbation) => ({ temperature: 0, perturbation }))
			.sort(compareConditions)
			.map((c) => c.perturbation);
		expect(sorted).toEqual(['none', 'truncate', 'append']);
	});
});

describe('pairedDifference', () => {
	const none = { temperature: 0.7, perturbation: 'none' } as const;
	const append = { temperature: 0.7, perturbation: 'append' } as const;

	it('computes b − a over (item, sample) pairs', () => {
		const records = [
			makeRecord({ ...none, item_id: 'x', sample: 0, label: 'degenerate' }),
			makeRecord({ ...append, item_id: 'x', sample: 0, label: 'genuine_followup' }),
			makeRecord({ ...none, item_id: 'x', sample: 1, label: 'genuine_followup' }),
			makeRecord({ ...append, item_id: 'x', sample: 1, label: 'genuine_followup' }),
			makeRecord({ ...none, item_id: 'y', sample: 0, label: 'genuine_followup' }),
			makeRecord({ ...append, item_id: 'y', sample: 0, label: 'meta_planning' }),
			makeRecord({ ...none, item_id: 'z', sample: 0, label: 'degenerate' }),
			makeRecord({ ...append, item_id: 'z', sample: 0, label: 'genuine_followup' }),
			// unpaired: pending in b, or missing in a
			makeRecord({ ...none, item_id: 'w', sample: 0, label: 'degenerate' }),
			makeRecord({ ...append, item_id: 'w', sample: 0, label: null }),
			makeRecord({ ...append, item_id: 'v', sample: 0, label: 'genuine_followup' })
		];
		const d = pairedDifference(records, none, append, { seed: 1, reps: 500 });
		// pair diffs: x0 +1, x1 0, y0 −1, z0 +1 → mean 1/4
		expect(d.n_pairs).toBe(4);
		expect(d.n_items).toBe(3);
		expect(d.diff).toBeCloseTo(0.25, 12);
		expect(d.lo).toBeLessThanOrEqual(d.diff);
		expect(d.hi).toBeGreaterThanOrEqual(d.diff);
	});

	it('is exactly the difference of the pooled rates when every record is paired', () => {
		const run = makeSyntheticRun({
			seed: 21,
			items: 60,
			samples: 3,
			temperatures: [0.7],
			perturbations: ['none', 'append'],
			followup: (_t, p) => (p === 'append' ? 0.5 : 0.2)
		});
		const [sNone, sAppend] = summarize(run);
		const d = pairedDifference(run, none, append, { seed: 2 });
		expect(d.n_pairs).toBe(180);
		expect(d.diff).toBeCloseTo(rated(sAppend.followup).p - rated(sNone.followup).p, 12);
		expect(d.lo).toBeGreaterThan(0);
	});

	it('is antisymmetric in a and b', () => {
		const run = makeSyntheticRun({
			seed: 4,
			items: 40,
			samples: 2,
			temperatures: [0.7],
			perturbations: ['none', 'append']
		});
		const ab = pairedDifference(run, none, append, { seed: 9, reps: 300 });
		const ba = pairedDifference(run, append, none, { seed: 9, reps: 300 });
		expect(ba.diff).toBeCloseTo(-ab.diff, 12);
		expect(ba.lo).toBeCloseTo(-ab.hi, 12);
		expect(ba.hi).toBeCloseTo(-ab.lo, 12);
	});

	it('gives 0 with a CI containing 0 for identical conditions, across many seeds', () => {
		for (let seed = 0; seed < 25; seed++) {
			const run = makeSyntheticRun({
				seed,
				items: 30,
				samples: 2,
				temperatures: [0.7],
				perturbations: ['none'],
				pending: 0.1
			});
			const d = pairedDifference(run, none, none, { seed, reps: 200 });
			expect(d.diff).toBe(0);
			expect(d.lo).toBeLessThanOrEqual(0);
			expect(d.hi).toBeGreaterThanOrEqual(0);
		}
	});

	it('is NaN when no pair exists', () => {
		const d = pairedDifference([makeRecord({ ...none })], none, append, { seed: 1 });
		expect(d.n_pairs).toBe(0);
		expect(d.diff).toBeNaN();
	});

	it('is wider than an independent-records interval when samples of an item agree', () => {
		// Each item's samples all share a label: 4 samples carry the information of 1 item.
		const records: ProbeRecord[] = [];
		for (let i = 0; i < 40; i++) {
			const la: Label = i % 4 === 0 ? 'genuine_followup' : 'degenerate';
			const lb: Label = i % 2 === 0 ? 'genuine_followup' : 'degenerate';
			for (let sample = 0; sample < 4; sample++) {
				records.push(makeRecord({ ...none, item_id: `i${i}`, sample, label: la }));
				records.push(makeRecord({ ...append, item_id: `i${i}`, sample, label: lb }));
			}
		}
		const clustered = pairedDifference(records, none, append, { seed: 3 });
		const perPair = pairedDifference(
			records.map((r) => ({ ...r, item_id: `${r.item_id}/${r.sample}` })),
			none,
			append,
			{ seed: 3 }
		);
		expect(clustered.diff).toBeCloseTo(perPair.diff, 12);
		expect(clustered.hi - clustered.lo).toBeGreaterThan(1.5 * (perPair.hi - perPair.lo));
	});
});

describe('followupClusterCI', () => {
	it('has the pooled rate as estimate and covers it', () => {
		const run = makeSyntheticRun({
			seed: 6,
			items: 80,
			samples: 3,
			temperatures: [1],
			perturbations: ['none'],
			pending: 0.1
		});
		const [s] = summarize(run);
		const ci = followupClusterCI(run, s, { seed: 1 });
		expect(ci.estimate).toBeCloseTo(rated(s.followup).p, 12);
		expect(ci.lo).toBeLessThan(rated(s.followup).p);
		expect(ci.hi).toBeGreaterThan(rated(s.followup).p);
		expect(ci.n_items).toBe(80);
	});
});
