import { describe, expect, it } from 'vitest';
import { conditionSentence, overallSentence } from '../../../src/lib/results/plainWords.ts';
import type { ConditionSummary } from '../../../src/lib/stats/aggregate.ts';
import { wilson } from '../../../src/lib/stats/interval.ts';
import { kappaWarning, rateWarning } from '../../../src/lib/stats/smallSample.ts';

function summary(
	temperature: number,
	perturbation: ConditionSummary['perturbation'],
	k: number,
	n: number,
	acc: [number, number] = [0, 0]
): ConditionSummary {
	return {
		temperature,
		perturbation,
		n,
		accuracy: wilson(acc[0], acc[1]),
		followup: wilson(k, n),
		judged: n,
		pending: 0,
		undecided: 0,
		cut_reasoning: 0,
		judge_errors: 0,
		verdict_conflicts: 0,
		labels: {} as ConditionSummary['labels']
	};
}

describe('one plain sentence per result', () => {
	it.each<[string, ConditionSummary, string]>([
		[
			'warns that 6 turns cannot pin a rate down',
			summary(1, 'none', 3, 6),
			'At T=1, unperturbed: 50% genuine follow-ups (3 of 6 turns), 95% CI 19–81%: 6 turns are too few to pin it down: the true rate could be anywhere from 19% to 81%.'
		],
		[
			'says a zero is not proof of none',
			summary(0, 'truncate', 0, 10),
			'At T=0 with the answer perturbed (truncate): 0% genuine follow-ups (0 of 10 turns), 95% CI 0–28%: none seen, but with 10 turns the true rate could still be up to 28%.'
		],
		[
			'states a well-measured rate plainly',
			summary(1, 'none', 120, 400),
			'At T=1, unperturbed: 30% genuine follow-ups (120 of 400 turns), 95% CI 26–35%.'
		],
		[
			'says when nothing is counted yet',
			summary(1, 'append', 0, 0),
			'At T=1 with the answer perturbed (append): no turns with a verdict yet.'
		]
	])('%s', (_name, s, expected) => {
		expect(conditionSentence(s)).toBe(expected);
	});

	it('puts accuracy beside the follow-up rate for the whole run', () => {
		expect(overallSentence(summary(0, 'none', 120, 400, [180, 200]))).toBe(
			'Over the whole run: 30% genuine follow-ups (120 of 400 turns), 95% CI 26–35%; the answers were right on 90% of the items (180 of 200 items), 95% CI 85–93%.'
		);
	});

	it('uses the singular for one turn', () => {
		expect(rateWarning(wilson(1, 1))).toBe(
			'1 turn is too few to pin it down: the true rate could be anywhere from 21% to 100%'
		);
	});

	it('refuses to let κ over a handful of items mean anything, and accepts 20', () => {
		expect(kappaWarning(1)).toMatch(/^1 item is too few for κ to mean anything/);
		expect(kappaWarning(19)).toMatch(/^19 items are too few/);
		expect(kappaWarning(20)).toBeNull();
	});
});
