/**
 * One plain sentence per result, for people who do not read confidence intervals: the same
 * numbers as the results table (resultsTable.ts), with what they can and cannot tell. The results
 * view and the CLI's `summarize` both print these.
 */
import { count } from '../display/plural.ts';
import { LABEL_INFO } from '../probe/labels.ts';
import type { Label } from '../probe/types.ts';
import type { ConditionSummary, Tally } from '../stats/aggregate.ts';
import type { Rate } from '../stats/interval.ts';
import { rateWarning } from '../stats/smallSample.ts';
import type { ResultsTable } from './resultsTable.ts';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Why a group with undecided turns states no genuine-follow-up rate (aggregate.ts Tally.followup):
 * one sentence, the same in the results view, the study view, the overlay and `summarize`.
 */
export const NO_RATE_REASON =
	'No genuine-follow-up rate: the rules only recognise failure modes and never call a turn genuine, so every turn they could not call a failure is undecided, and a rate over the rest would be 0% by construction. Its label shares and undecided share are shown instead; a judge (LLM or hybrid mode) gives the rate.';

/** "no rate (rules only)", where a rate would stand in a table cell. */
export const NO_RATE = 'no rate (rules only)';

function measured(r: Rate | null, what: string, unit: string): string {
	if (r === null) return `no genuine-follow-up rate (rules only)`;
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
	const shares = t.followup === null ? ` ${failureShares(t)}.` : '';
	return `Over the whole run: ${measured(t.followup, 'genuine follow-ups', 'turns')}; ${accuracy}.${shares}`;
}

/**
 * What the rules saw, as shares of the labelled turns: "Of 12 labelled turns, 42% undecided, 33%
 * Degenerate short output, 25% Previous-turn restatement" (largest first, zero shares left out).
 */
export function failureShares(t: Pick<Tally, 'labels'>): string {
	const entries = Object.entries(t.labels) as [Label, number][];
	const total = entries.reduce((sum, [, n]) => sum + n, 0);
	if (total === 0) return 'No turn labelled yet';
	const parts = entries
		.filter(([, n]) => n > 0)
		.sort((a, b) => b[1] - a[1])
		.map(
			([label, n]) =>
				`${pct(n / total)} ${label === 'undecided' ? 'undecided' : LABEL_INFO[label].title}`
		);
	return `Of ${count(total, 'labelled turn')}, ${parts.join(', ')}`;
}

/** Every sentence of a results table: the run first, then each condition in table order. */
export function tableSentences(t: ResultsTable): string[] {
	return [overallSentence(t.overall), ...t.conditions.map(conditionSentence)];
}
