import { describe, expect, it } from 'vitest';
import type { Annotation } from '../../../src/lib/probe/exchange.ts';
import { LABELS } from '../../../src/lib/probe/types.ts';
import type { Label, ProbeRecord, RuleLabel } from '../../../src/lib/probe/types.ts';
import {
	collectLabelings,
	compareLabelers,
	disagreements,
	hybridLabel,
	orderLabelings,
	pairId,
	pairwiseAgreement
} from '../../../src/lib/stats/agreement.ts';
import { makeRecord } from '../../helpers/factories.ts';

const G: Label = 'genuine_followup';
const P: Label = 'prompt_restatement';
const A: Label = 'assistant_restatement';
const D: Label = 'degenerate';

/**
 * Ten items labeled by two annotators (the worked example every test below refers to):
 *
 *   item   1 2 3 4 5 6 7 8 9 10
 *   ana    G G G G P P A A D D
 *   bo     G G G P P P A G D D
 *
 * Full taxonomy: they agree on 8 of 10, po = 0.8. Marginals ana G4 P2 A2 D2, bo G4 P3 A1 D2, so
 * pe = (4·4 + 2·3 + 2·1 + 2·2)/10² = 28/100 = 0.28 and κ = (0.8 − 0.28)/(1 − 0.28) = 0.52/0.72
 * = 0.72222.
 * Binary (genuine vs not): ana genuine on 1–4, bo on 1–3 and 8; they agree on 8 of 10, po = 0.8;
 * each says genuine 4/10, so pe = 0.4·0.4 + 0.6·0.6 = 0.52 and κ = 0.28/0.48 = 0.58333.
 */
const ANA: Label[] = [G, G, G, G, P, P, A, A, D, D];
const BO: Label[] = [G, G, G, P, P, P, A, G, D, D];
const KEYS = ANA.map((_, i) => `item-${String(i + 1).padStart(2, '0')}|0|none|0`);

function records(judge: (Label | null)[] = [], rules: RuleLabel[] = []): ProbeRecord[] {
	return KEYS.map((key, i) =>
		makeRecord({
			key,
			item_id: key.split('|')[0],
			judge_label: judge[i] ?? null,
			rule_label: rules[i] ?? 'undecided'
		})
	);
}

let clock = 0;
function annotate(annotator: string, labels: Label[], keys = KEYS): Annotation[] {
	return labels.map((label, i) => ({
		run_id: 'run-1',
		key: keys[i],
		annotator,
		label,
		created_at: new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString()
	}));
}

const pairOf = (pairs: ReturnType<typeof pairwiseAgreement>, a: string, b: string) =>
	pairs.find((p) => p.a === a && p.b === b);

describe('pairwiseAgreement on the worked 10-item example', () => {
	const labelings = collectLabelings(records(), [...annotate('ana', ANA), ...annotate('bo', BO)]);
	const pairs = pairwiseAgreement(labelings, { reps: 500 });
	const human = pairOf(pairs, 'human:ana', 'human:bo');

	it('gives a human–human κ computed by hand', () => {
		expect(human?.full.n).toBe(10);
		expect(human?.full.po).toBeCloseTo(0.8, 12);
		expect(human?.full.pe).toBeCloseTo(0.28, 12);
		expect(human?.full.kappa).toBeCloseTo(0.52 / 0.72, 12);
		expect(human?.binary.po).toBeCloseTo(0.8, 12);
		expect(human?.binary.pe).toBeCloseTo(0.52, 12);
		expect(human?.binary.kappa).toBeCloseTo(0.28 / 0.48, 12);
	});

	it('gives the confusion matrix by hand, rows ana and columns bo in LABELS order', () => {
		// Nobody here is undecided, so it is no category of this pair.
		const shown: readonly Label[] = LABELS.filter((l) => l !== 'undecided');
		const expected = shown.map(() => shown.map(() => 0));
		const at = (l: Label) => shown.indexOf(l);
		expected[at(G)][at(G)] = 3;
		expected[at(G)][at(P)] = 1;
		expected[at(P)][at(P)] = 2;
		expected[at(A)][at(A)] = 1;
		expected[at(A)][at(G)] = 1;
		expected[at(D)][at(D)] = 2;
		expect(human?.full.matrix).toEqual(expected);
		// Binary rows/cols [genuine, not_genuine]: ana G & bo G = 3, ana G & bo not = 1 (item 4),
		// ana not & bo G = 1 (item 8), both not = 5.
		expect(human?.binary.matrix).toEqual([
			[3, 1],
			[1, 5]
		]);
	});

	it('gives per-label precision and recall with ana as the reference', () => {
		const row = (l: Label) => human?.full.per_label.find((x) => x.label === l);
		// G: bo called 4 items G, 3 of them ana's G; ana had 4 G, bo found 3.
		expect(row(G)).toMatchObject({ precision: 0.75, recall: 0.75, support: 4 });
		// P: bo called 3 items P, 2 of them ana's P; ana had 2 P, bo found both.
		expect(row(P)?.precision).toBeCloseTo(2 / 3, 12);
		expect(row(P)).toMatchObject({ recall: 1, support: 2 });
		// A: bo called 1 item A, correctly; ana had 2 A, bo found 1.
		expect(row(A)).toMatchObject({ precision: 1, recall: 0.5, support: 2 });
	});

	it('brackets κ with a reproducible bootstrap interval', () => {
		const k = human?.full;
		expect(k?.lo).toBeLessThanOrEqual(k?.kappa ?? Number.NaN);
		expect(k?.hi).toBeGreaterThanOrEqual(k?.kappa ?? Number.NaN);
		expect(k?.hi).toBeLessThanOrEqual(1);
		// Ten items cannot pin κ down: the interval is wide.
		expect((k?.hi ?? 0) - (k?.lo ?? 0)).toBeGreaterThan(0.2);
		const again = pairOf(pairwiseAgreement(labelings, { reps: 500 }), 'human:ana', 'human:bo');
		expect([again?.full.lo, again?.full.hi]).toEqual([k?.lo, k?.hi]);
	});

	it('gives the interval [1, 1] for perfect agreement: every resample agrees perfectly', () => {
		const same = collectLabelings(records(), [...annotate('ana', ANA), ...annotate('cy', ANA)]);
		const p = pairOf(pairwiseAgreement(same, { reps: 200 }), 'human:ana', 'human:cy');
		expect([p?.full.kappa, p?.full.lo, p?.full.hi]).toEqual([1, 1, 1]);
	});
});

describe('human–human agreement on overlapping items', () => {
	it('compares two annotators only on the items both labeled', () => {
		// ana labels all ten; bo labels items 3–10 only: the pair has n = 8.
		const labelings = collectLabelings(records(), [
			...annotate('ana', ANA),
			...annotate('bo', BO.slice(2), KEYS.slice(2))
		]);
		const p = pairOf(pairwiseAgreement(labelings, { reps: 50 }), 'human:ana', 'human:bo');
		// Items 3–10: ana G G P P A A D D, bo G P P P A G D D → 6 of 8 agree. Marginals ana G2 P2
		// A2 D2, bo G2 P3 A1 D2: pe = (4 + 6 + 2 + 4)/64 = 0.25, κ = (0.75 − 0.25)/0.75 = 2/3.
		expect(p?.full.n).toBe(8);
		expect(p?.full.kappa).toBeCloseTo(2 / 3, 12);
	});

	it('counts only an annotator’s newest label on a relabeled item', () => {
		const first = [...annotate('ana', ANA), ...annotate('bo', BO)];
		const relabel = annotate('bo', [G], [KEYS[3]]); // later: bo changes item 4 from P to G
		// Passed first, so only created_at (not array order) can make it win.
		const labelings = collectLabelings(records(), [...relabel, ...first]);
		expect(labelings.get('human:bo')?.get(KEYS[3])).toBe(G);
		const p = pairOf(pairwiseAgreement(labelings, { reps: 50 }), 'human:ana', 'human:bo');
		expect(p?.full.po).toBeCloseTo(0.9, 12);
	});

	it('has no pair for annotators without a common item', () => {
		const labelings = collectLabelings(records(), [
			...annotate('ana', ANA.slice(0, 5), KEYS.slice(0, 5)),
			...annotate('bo', BO.slice(5), KEYS.slice(5))
		]);
		expect(pairOf(pairwiseAgreement(labelings, { reps: 10 }), 'human:ana', 'human:bo')).toBe(
			undefined
		);
	});
});

describe('the hybrid labeler', () => {
	it.each<[string, RuleLabel, Label | null, Label | undefined]>([
		['takes a decided rule', 'degenerate', 'genuine_followup', 'degenerate'],
		['falls back to the judge when the rules are undecided', 'undecided', P, P],
		['has no label when undecided and not judged yet', 'undecided', null, undefined]
	])('%s', (_name, rule, judge, expected) => {
		expect(hybridLabel(makeRecord({ rule_label: rule, judge_label: judge }))).toBe(expected);
	});

	it('is added only on request, and only when the judge labeled something', () => {
		const judged = records(BO, ['undecided', 'undecided', 'undecided', 'prompt_restatement']);
		expect(collectLabelings(judged).has('hybrid')).toBe(false);
		const hybrid = collectLabelings(judged, [], { hybrid: true }).get('hybrid');
		expect([...(hybrid?.values() ?? [])]).toEqual([G, G, G, P, P, P, A, G, D, D]);
		expect(collectLabelings(records(), [], { hybrid: true }).has('hybrid')).toBe(false);
	});

	it('scores against a human like the label it copies', () => {
		// Rules decide items 9–10 (degenerate, matching ana); the judge is bo's labels. Hybrid equals
		// bo everywhere, so its agreement with ana equals bo's.
		const rules: RuleLabel[] = [...KEYS.slice(0, 8).map((): RuleLabel => 'undecided'), D, D];
		const labelings = collectLabelings(records(BO, rules), annotate('ana', ANA), {
			hybrid: true
		});
		const pairs = pairwiseAgreement(orderLabelings(labelings), { reps: 50 });
		expect(pairOf(pairs, 'human:ana', 'hybrid')?.full.kappa).toBeCloseTo(0.52 / 0.72, 12);
		expect(pairOf(pairs, 'human:ana', 'judge')?.full.kappa).toBeCloseTo(0.52 / 0.72, 12);
	});
});

describe('the rules labeler', () => {
	it('keeps undecided turns undecided, so they agree with nobody instead of passing for follow-ups', () => {
		const rules: RuleLabel[] = [...KEYS.slice(0, 8).map((): RuleLabel => 'undecided'), D, D];
		const labelings = collectLabelings(records(BO, rules), annotate('ana', ANA));
		expect([...(labelings.get('rules')?.values() ?? [])]).toEqual(rules);
		const pair = pairOf(
			pairwiseAgreement(orderLabelings(labelings), { reps: 20 }),
			'human:ana',
			'rules'
		);
		// Only items 9–10 agree (degenerate): ana's four follow-ups are no match for "undecided".
		expect(pair?.full.po).toBeCloseTo(0.2, 12);
		expect(pair?.binary.po).toBeCloseTo(0.2, 12);
	});
});

describe('labeler order, pair ids and disagreements', () => {
	it('puts humans first, then judge, hybrid, rules', () => {
		const names = ['rules', 'hybrid', 'human:bo', 'judge', 'human:ana'];
		expect(names.sort(compareLabelers)).toEqual([
			'human:ana',
			'human:bo',
			'judge',
			'hybrid',
			'rules'
		]);
		expect(pairId('judge', 'human:ana')).toBe('human:ana|judge');
		expect(pairId('rules', 'judge')).toBe('judge|rules');
	});

	it('makes every pair with a human use the human as the reference (a)', () => {
		const labelings = collectLabelings(records(BO), annotate('ana', ANA), { hybrid: true });
		const pairs = pairwiseAgreement(orderLabelings(labelings), { reps: 10 });
		expect(pairs.map((p) => pairId(p.a, p.b))).toEqual(
			pairs.map((p) => `${p.a}|${p.b}`) // already in reference order
		);
		expect(pairs.map((p) => `${p.a}|${p.b}`)).toEqual([
			'human:ana|judge',
			'human:ana|hybrid',
			'human:ana|rules',
			'judge|hybrid',
			'judge|rules',
			'hybrid|rules'
		]);
	});

	it('lists the items a pair labeled differently, in full or binary terms', () => {
		const labelings = collectLabelings(records(), [...annotate('ana', ANA), ...annotate('bo', BO)]);
		expect(disagreements(labelings, 'human:ana', 'human:bo')).toEqual([
			{ key: KEYS[3], a: G, b: P },
			{ key: KEYS[7], a: A, b: G }
		]);
		// Both disagreements cross the genuine line; a P-vs-A one would not.
		expect(disagreements(labelings, 'human:ana', 'human:bo', true)).toHaveLength(2);
		const restatements = collectLabelings(records(), [
			...annotate('ana', [P], [KEYS[0]]),
			...annotate('bo', [A], [KEYS[0]])
		]);
		expect(disagreements(restatements, 'human:ana', 'human:bo', true)).toEqual([]);
	});
});
