import { describe, expect, it } from 'vitest';
import type { Annotation } from '../../../src/lib/probe/exchange.ts';
import { LABELS } from '../../../src/lib/probe/types.ts';
import type {
	HumanVerdict,
	Label,
	ProbeRecord,
	RuleLabel,
	Verdict
} from '../../../src/lib/probe/types.ts';
import {
	collectLabelings,
	collectVerdicts,
	compareLabelers,
	disagreements,
	hybridLabel,
	orderLabelings,
	pairId,
	pairwiseAgreement,
	type Labelings
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

/** The judge's records: its label counts, with the verdict it wrote (else its label's own). */
function records(
	judge: (Label | null)[] = [],
	rules: RuleLabel[] = [],
	verdicts: (Verdict | undefined)[] = []
): ProbeRecord[] {
	return KEYS.map((key, i) => {
		const label = judge[i] ?? null;
		return makeRecord({
			key,
			item_id: key.split('|')[0],
			judge_label: label,
			rule_label: rules[i] ?? 'undecided',
			...(label === null
				? {}
				: {
						label,
						label_source: 'judge' as const,
						verdict: verdicts[i] ?? (label === G ? 'genuine' : 'not_genuine')
					})
		});
	});
}

/** A human's verdict with the label, as the label pad gives them: G genuine unless told. */
const verdictFor = (label: Label): HumanVerdict => (label === G ? 'genuine' : 'not_genuine');

let clock = 0;
function annotate(
	annotator: string,
	labels: Label[],
	keys = KEYS,
	verdicts: (HumanVerdict | null)[] = []
): Annotation[] {
	return labels.map((label, i) => {
		// null: a label given before verdicts were asked (no verdict field at all).
		const verdict = verdicts[i] === undefined ? verdictFor(label) : verdicts[i];
		return {
			run_id: 'run-1',
			key: keys[i],
			annotator,
			label,
			...(verdict === null ? {} : { verdict }),
			created_at: new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString()
		};
	});
}

/** pairwiseAgreement over the categories and the verdicts of the same records and labels. */
function agree(
	recs: ProbeRecord[],
	notes: Annotation[],
	opts: { reps: number; hybrid?: boolean }
): ReturnType<typeof pairwiseAgreement> {
	const labelings = orderLabelings(collectLabelings(recs, notes, { hybrid: opts.hybrid }));
	const verdicts = orderLabelings(collectVerdicts(recs, notes, { hybrid: opts.hybrid }));
	return pairwiseAgreement(labelings, verdicts, { reps: opts.reps });
}

const pairOf = (pairs: ReturnType<typeof pairwiseAgreement>, a: string, b: string) =>
	pairs.find((p) => p.a === a && p.b === b);

describe('pairwiseAgreement on the worked 10-item example', () => {
	const notes = [...annotate('ana', ANA), ...annotate('bo', BO)];
	const pairs = agree(records(), notes, { reps: 500 });
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
		const again = pairOf(agree(records(), notes, { reps: 500 }), 'human:ana', 'human:bo');
		expect([again?.full.lo, again?.full.hi]).toEqual([k?.lo, k?.hi]);
	});

	it('gives the interval [1, 1] for perfect agreement: every resample agrees perfectly', () => {
		const same = [...annotate('ana', ANA), ...annotate('cy', ANA)];
		const p = pairOf(agree(records(), same, { reps: 200 }), 'human:ana', 'human:cy');
		expect([p?.full.kappa, p?.full.lo, p?.full.hi]).toEqual([1, 1, 1]);
	});
});

describe('human–human agreement on overlapping items', () => {
	it('compares two annotators only on the items both labeled', () => {
		// ana labels all ten; bo labels items 3–10 only: the pair has n = 8.
		const notes = [...annotate('ana', ANA), ...annotate('bo', BO.slice(2), KEYS.slice(2))];
		const p = pairOf(agree(records(), notes, { reps: 50 }), 'human:ana', 'human:bo');
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
		const p = pairOf(
			agree(records(), [...relabel, ...first], { reps: 50 }),
			'human:ana',
			'human:bo'
		);
		expect(p?.full.po).toBeCloseTo(0.9, 12);
	});

	it('has no pair for annotators without a common item', () => {
		const notes = [
			...annotate('ana', ANA.slice(0, 5), KEYS.slice(0, 5)),
			...annotate('bo', BO.slice(5), KEYS.slice(5))
		];
		expect(pairOf(agree(records(), notes, { reps: 10 }), 'human:ana', 'human:bo')).toBe(undefined);
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
		const pairs = agree(records(BO, rules), annotate('ana', ANA), { reps: 50, hybrid: true });
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
			agree(records(BO, rules), annotate('ana', ANA), { reps: 20 }),
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
		const pairs = agree(records(BO), annotate('ana', ANA), { reps: 10, hybrid: true });
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
		const notes = [...annotate('ana', ANA), ...annotate('bo', BO)];
		const labelings = collectLabelings(records(), notes);
		expect(disagreements(labelings, 'human:ana', 'human:bo')).toEqual([
			{ key: KEYS[3], a: G, b: P },
			{ key: KEYS[7], a: A, b: G }
		]);
		// Both disagreements cross the genuine line; a P-vs-A one would not.
		const verdicts: Labelings<Verdict> = collectVerdicts(records(), notes);
		expect(disagreements(verdicts, 'human:ana', 'human:bo')).toHaveLength(2);
		const restatements = [...annotate('ana', [P], [KEYS[0]]), ...annotate('bo', [A], [KEYS[0]])];
		expect(
			disagreements(collectVerdicts(records(), restatements), 'human:ana', 'human:bo')
		).toEqual([]);
	});
});

describe('the verdict, agreed on apart from the category', () => {
	/*
	 * ana's categories are ANA, the judge's BO (so the category κ is the worked example's 0.72222),
	 * but the verdicts are given apart:
	 *
	 *   item          1 2 3 4 5 6 7 8 9 10
	 *   ana verdict   g g g n n n n n n n     (item 4: a plausible follow-up, ungrounded)
	 *   judge verdict g n g n n n n g n g*    (item 2: plausible, ungrounded; * a degenerate
	 *                                          turn judged genuine: a conflict, counted not genuine)
	 *
	 * Rows ana [genuine, not_genuine], columns judge: both genuine on 1 and 3 (2), ana only on 2
	 * (1), judge only on 8 (1), neither on the other 6. po = 8/10; marginals 3/7 and 3/7, so
	 * pe = (3·3 + 7·7)/100 = 0.58 and κ = (0.8 − 0.58)/(1 − 0.58) = 0.22/0.42 = 0.52381.
	 */
	const judgeVerdicts: Verdict[] = ['genuine', 'not_genuine', 'genuine', 'not_genuine'];
	judgeVerdicts[7] = 'genuine';
	judgeVerdicts[9] = 'genuine';
	const anaVerdicts: HumanVerdict[] = ['genuine', 'genuine', 'genuine', 'not_genuine'];
	const recs = records(BO, [], judgeVerdicts);
	const pair = pairOf(
		agree(recs, annotate('ana', ANA, KEYS, anaVerdicts), { reps: 50 }),
		'human:ana',
		'judge'
	);

	it('gives the binary κ of the verdicts by hand, not the one the categories imply', () => {
		expect(pair?.binary.matrix).toEqual([
			[2, 1],
			[1, 6]
		]);
		expect(pair?.binary.po).toBeCloseTo(0.8, 12);
		expect(pair?.binary.pe).toBeCloseTo(0.58, 12);
		expect(pair?.binary.kappa).toBeCloseTo(0.22 / 0.42, 12);
		// The categories are the worked example's: their κ is unchanged by the verdicts.
		expect(pair?.full.kappa).toBeCloseTo(0.52 / 0.72, 12);
	});

	it("counts the judge's conflict as not genuine, as the rate does", () => {
		expect(collectVerdicts(recs).get('judge')?.get(KEYS[9])).toBe('not_genuine');
	});

	it('reads a label given before verdicts were asked as no verdict, never guessed', () => {
		const old = annotate(
			'bo',
			BO,
			KEYS,
			BO.map(() => null)
		);
		const p = pairOf(
			agree(records(), [...annotate('ana', ANA), ...old], { reps: 20 }),
			'human:ana',
			'human:bo'
		);
		expect(p?.full.n).toBe(10);
		expect(p?.binary.n).toBe(0);
		expect(Number.isNaN(p?.binary.kappa)).toBe(true);
		expect(collectVerdicts(records(), old).has('human:bo')).toBe(false);
	});

	it('lets a newer label replace an older verdict, with or without one of its own', () => {
		const first = annotate('bo', [G, G], KEYS.slice(0, 2));
		const later = annotate('bo', [G, G], KEYS.slice(0, 2), [null, 'not_genuine']);
		const bo = collectVerdicts(records(), [...later, ...first]).get('human:bo');
		expect(bo?.has(KEYS[0])).toBe(false);
		expect(bo?.get(KEYS[1])).toBe('not_genuine');
	});
});
