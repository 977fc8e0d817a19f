/**
 * One plain sentence per result, for people who do not read confidence intervals: the same
 * numbers as the results table (resultsTable.ts), with what they can and cannot tell. The results
 * view and the CLI's `summarize` both print these.
 */
import type { ConditionSummary, Tally } from '../stats/aggregate.ts';
import type { Rate } from '../stats/interval.ts';
import { rateWarning } from '../stats/smallSample.ts';
import type { ResultsTable } from './resultsTable.ts';

const pct = (x: number) => `${Math.round(x * 100)}%`;

function measured(r: Rate, what: string, unit: string): string {
	if (r.n === 0) return `no ${unit} with a verdict yet`;
	const base = `${pct(r.p)} ${what} (${r.k} of ${r.n} ${unit}), 95% CI ${Math.round(r.lo * 100)}–${pct(r.hi)}`;
	const warning = rateWarning(r, unit);
	return warning ? `${base}: ${warning}` : base;
}

function condition(s: Pick<ConditionSummary, 'temperature' | 'perturbation'>): string {
	return s.perturbation === 'none'
		? `At T=${s.temperature}, unperturbed`
		: `At T=${s.temperature} with the answer perturbed (${s.perturbation})`;
}

/** "At T=1, unperturbed: 50% genuine follow-ups (3 of 6 turns), 95% CI 19–81%: 6 turns are …". */
export function conditionSentence(s: ConditionSummary): string {
	return `${condition(s)}: ${measured(s.followup, 'genuine follow-ups', 'turns')}.`;
}

/** The whole run: the follow-up rate, and accuracy beside it, since the two are different things. */
export function overallSentence(t: Tally): string {
	const accuracy =
		t.accuracy.n === 0
			? 'no answer was scored'
			: `the answers were right on ${measured(t.accuracy, 'of the items', 'items')}`;
	return `Over the whole run: ${measured(t.followup, 'genuine follow-ups', 'turns')}; ${accuracy}.`;
}

/** Every sentence of a results table: the run first, then each condition in table order. */
export function tableSentences(t: ResultsTable): string[] {
	return [overallSentence(t.overall), ...t.conditions.map(conditionSentence)];
}
