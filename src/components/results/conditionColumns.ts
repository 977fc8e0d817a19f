/**
 * The columns the results table and the study table share: a condition, its accuracy and its
 * genuine follow-ups, each rate beside its 95% Wilson interval and its counts.
 */
import type { ConditionSummary } from '$lib/stats/aggregate';
import type { Column } from '../dataTable';
import { interval, percent } from './format';
import { NO_RATE } from '$lib/results/plainWords';

/**
 * A count that should be zero, shown in red when it is not. Secondary: in the row's "More" fold,
 * which turns red too when one of its counts is not zero.
 */
export function countColumn<T>(head: string, count: (row: T) => number): Column<T> {
	return {
		head,
		num: true,
		secondary: true,
		class: (r) => (count(r) > 0 ? 'warn' : ''),
		value: count
	};
}

/**
 * On a phone's cards the condition comes first, then the follow-up rate (the `rate` cells).
 * `rateTestid` names the follow-up rate's cells where a test reads them; `countsFolded` puts the
 * counts behind the rates (turns, items, genuine / with verdict) in each row's "More" fold, where
 * a table has more columns of its own (the study's model and paired effect).
 */
export function conditionColumns<T extends ConditionSummary>(
	rateTestid?: string,
	{ countsFolded = false }: { countsFolded?: boolean } = {}
): Column<T>[] {
	const secondary = countsFolded || undefined;
	return [
		{ head: 'Temperature', cardOrder: -2, value: (s) => s.temperature },
		{ head: 'Perturbation', cardOrder: -2, value: (s) => s.perturbation },
		{ head: 'Turns', num: true, secondary, value: (s) => s.n },
		{ head: 'Accuracy', num: true, value: (s) => percent(s.accuracy.p) },
		{
			head: '95% CI',
			label: 'Accuracy 95% CI',
			num: true,
			class: 'muted',
			value: (s) => interval(s.accuracy)
		},
		{ head: 'Items', num: true, secondary, value: (s) => `${s.accuracy.k}/${s.accuracy.n}` },
		{
			head: 'Follow-ups',
			num: true,
			class: 'strong rate',
			cardOrder: -1,
			testid: rateTestid,
			value: (s) => (s.followup ? percent(s.followup.p) : NO_RATE)
		},
		{
			head: '95% CI',
			label: 'Follow-ups 95% CI',
			num: true,
			class: 'muted rate',
			cardOrder: -1,
			value: (s) => (s.followup ? interval(s.followup) : '—')
		},
		{
			head: 'Genuine / with verdict',
			num: true,
			secondary,
			class: 'rate',
			cardOrder: -1,
			value: (s) => (s.followup ? `${s.followup.k}/${s.followup.n}` : '—')
		}
	];
}
