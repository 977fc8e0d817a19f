import { describe, expect, it } from 'vitest';
import { modeAdvice, modeScores, type ModeScore } from '../../../src/lib/annotate/modes.ts';
import type { Label } from '../../../src/lib/probe/types.ts';
import { cohenKappa } from '../../../src/lib/stats/kappa.ts';
import type { Labelings } from '../../../src/lib/stats/agreement.ts';

const G: Label = 'genuine_followup';
const P: Label = 'prompt_restatement';
const A: Label = 'assistant_restatement';
const D: Label = 'degenerate';

const KEYS = Array.from({ length: 10 }, (_, i) => `k${i}`);
const labels = (ls: Label[], keys = KEYS) => new Map(ls.map((l, i) => [keys[i], l]));

// ana is the reference; judge matches her on 8 of 10 (the worked example of agreement.test.ts,
// κ = 0.52/0.72), rules on 10 of 10 (κ = 1), hybrid on 5 of 10.
const ANA: Label[] = [G, G, G, G, P, P, A, A, D, D];
const JUDGE_L: Label[] = [G, G, G, P, P, P, A, G, D, D];
const RULES_L: Label[] = [...ANA];
const HYBRID_L: Label[] = [G, P, A, D, P, G, D, A, G, D];

function labelings(extra: [string, Map<string, Label>][] = []): Labelings {
	return new Map([
		['rules', labels(RULES_L)],
		['judge', labels(JUDGE_L)],
		['hybrid', labels(HYBRID_L)],
		['human:ana', labels(ANA)],
		...extra
	]);
}

describe('modeScores', () => {
	it('scores each mode with the same κ as cohenKappa when there is one annotator', () => {
		const scores = modeScores(labelings(), 'full', { reps: 200 });
		expect(scores.map((s) => s.mode)).toEqual(['rules', 'llm', 'hybrid']);
		expect(scores[1].kappa).toBeCloseTo(0.52 / 0.72, 12);
		expect(scores[0]).toMatchObject({ kappa: 1, lo: 1, hi: 1, items: 10, n: 10 });
		const direct = cohenKappa(HYBRID_L, ANA);
		expect(scores[2].kappa).toBeCloseTo(direct.kappa, 12);
		for (const s of scores) {
			expect(s.lo).toBeLessThanOrEqual(s.kappa);
			expect(s.hi).toBeGreaterThanOrEqual(s.kappa);
		}
	});

	it('pools several annotators: one pair per human label', () => {
		// bo labels k0–k4 exactly like the judge: judge agrees with 8 of ana's 10 and 5 of bo's 5.
		const bo = labels(JUDGE_L.slice(0, 5));
		const [, judge] = modeScores(labelings([['human:bo', bo]]), 'full', { reps: 100 });
		expect(judge.items).toBe(10);
		expect(judge.n).toBe(15);
		const a = [...JUDGE_L, ...JUDGE_L.slice(0, 5)];
		const b = [...ANA, ...JUDGE_L.slice(0, 5)];
		expect(judge.kappa).toBeCloseTo(cohenKappa(a, b).kappa, 12);
	});

	it('compares modes only on items every mode labeled', () => {
		const partialJudge = labels(JUDGE_L.slice(0, 4));
		const l = labelings();
		l.set('judge', partialJudge);
		expect(modeScores(l, 'full', { reps: 10 }).map((s) => s.items)).toEqual([4, 4, 4]);
	});

	it('scores the verdicts on the binary scale, as given (not derived from a category)', () => {
		// ana: genuine on k0–k2; the judge on k0, k2 and k7. Rows ana, columns judge: [[2, 1], [1, 6]],
		// po = 0.8, pe = (3·3 + 7·7)/100 = 0.58, κ = 0.22/0.42.
		const g = (keys: number[]) =>
			new Map(KEYS.map((k, i) => [k, keys.includes(i) ? 'genuine' : 'not_genuine']));
		const verdicts: Labelings<string> = new Map([
			['judge', g([0, 2, 7])],
			['human:ana', g([0, 1, 2])]
		]);
		const [judge] = modeScores(verdicts, 'binary', { reps: 50 });
		expect(judge.mode).toBe('llm');
		expect(judge.kappa).toBeCloseTo(0.22 / 0.42, 12);
	});

	it('is empty without human labels, and skips modes that labeled nothing', () => {
		const l = labelings();
		l.delete('human:ana');
		expect(modeScores(l)).toEqual([]);
		const rulesOnly: Labelings = new Map([
			['rules', labels(RULES_L)],
			['human:ana', labels(ANA)]
		]);
		expect(modeScores(rulesOnly, 'full', { reps: 10 }).map((s) => s.mode)).toEqual(['rules']);
	});
});

const score = (mode: ModeScore['mode'], kappa: number, lo: number, hi: number): ModeScore => ({
	mode,
	labeler: mode,
	title: { rules: 'rules-only', llm: 'LLM-only', hybrid: 'hybrid' }[mode],
	items: 40,
	n: 40,
	kappa,
	lo,
	hi
});

describe('modeAdvice', () => {
	it.each<[string, ModeScore[], RegExp]>([
		[
			'names a clear winner',
			[
				score('rules', 0.3, 0.1, 0.5),
				score('llm', 0.8, 0.7, 0.9),
				score('hybrid', 0.6, 0.45, 0.68)
			],
			/^Trust the LLM-only labels for this data: .*κ = 0\.80, 95% CI 0\.70 to 0\.90 on 40 items\), clearly above the hybrid/
		],
		[
			'says when the intervals overlap',
			[score('rules', 0.3, 0.1, 0.5), score('llm', 0.8, 0.6, 0.9), score('hybrid', 0.7, 0.5, 0.85)],
			/^The LLM-only labels agree best .* overlaps the hybrid labels' .* not clear yet/
		],
		[
			'breaks a tie toward the cheaper mode',
			[score('llm', 0.7, 0.6, 0.8), score('rules', 0.7, 0.6, 0.8)],
			/^The rules-only labels agree best/
		],
		[
			'says when only one mode exists',
			[score('rules', 0.5, 0.3, 0.7)],
			/^Only the rules-only labels/
		],
		['asks for labels first', [], /^Label some items first/],
		[
			'gives no advice from a κ over too few items',
			[
				{ ...score('rules', 0, 0, 0), items: 1, n: 1 },
				{ ...score('llm', 1, 1, 1), items: 1, n: 1 }
			],
			/^No advice yet: 1 item is too few for κ to mean anything .* label at least 20/
		]
	])('%s', (_name, scores, expected) => {
		expect(modeAdvice(scores)).toMatch(expected);
	});
});
