import { describe, expect, it } from 'vitest';
import { drawSettingsFrom } from '../../../src/lib/annotate/draw.ts';
import {
	agreementReport,
	categoryTitle,
	defaultPair,
	labelerTitle,
	machineAgreement,
	repsFor
} from '../../../src/lib/annotate/report.ts';
import {
	collectLabelings,
	collectVerdicts,
	orderLabelings,
	pairwiseAgreement
} from '../../../src/lib/stats/agreement.ts';
import type { Annotation } from '../../../src/lib/probe/exchange.ts';
import { makeRecord } from '../../helpers/factories.ts';

const records = ['a', 'b', 'c'].map((k, i) =>
	makeRecord({
		key: k,
		judge_label: i === 0 ? 'degenerate' : 'genuine_followup',
		rule_label: i === 0 ? 'degenerate' : 'undecided'
	})
);
const note = (annotator: string, key: string): Annotation => ({
	run_id: 'run-1',
	key,
	annotator,
	label: 'genuine_followup',
	created_at: '2026-01-01T00:00:00.000Z'
});

describe('agreementReport', () => {
	it('includes hybrid, orders humans first, and lists annotators', () => {
		const r = agreementReport(records, [note('bo', 'a'), note('ana', 'b')], { reps: 20 });
		expect(r.annotators).toEqual(['ana', 'bo']);
		expect(r.pairs.map((p) => p.id)).toEqual([
			'human:ana|judge',
			'human:ana|hybrid',
			'human:ana|rules',
			'human:bo|judge',
			'human:bo|hybrid',
			'human:bo|rules',
			'judge|hybrid',
			'judge|rules',
			'hybrid|rules'
		]);
		expect(r.modes.full.map((m) => m.mode)).toEqual(['rules', 'llm', 'hybrid']);
	});

	it('gives exactly pairwiseAgreement over all labelers, with the machine pairs cached', () => {
		const notes = [note('bo', 'a'), note('ana', 'b'), note('ana', 'c'), note('bo', 'c')];
		const all = orderLabelings(collectLabelings(records, notes, { hybrid: true }));
		const verdicts = orderLabelings(collectVerdicts(records, notes, { hybrid: true }));
		const expected = pairwiseAgreement(all, verdicts, { reps: 30 });
		const machine = machineAgreement(records, { reps: 30 });
		const got = agreementReport(records, notes, { reps: 30 }, machine).pairs;
		expect(got.map(({ id: _id, ...p }) => p)).toEqual(expected);
	});

	it('spends fewer resamples on pairs over very many items', () => {
		expect(repsFor(50)).toBe(1000);
		expect(repsFor(4000)).toBe(500);
		expect(repsFor(100_000)).toBe(200);
	});

	it('shows a human against the judge first, or the machines when nobody labeled', () => {
		const r = agreementReport(records, [note('ana', 'b')], { reps: 10 });
		expect(defaultPair(r.pairs)?.id).toBe('human:ana|judge');
		expect(defaultPair(agreementReport(records, [], { reps: 10 }).pairs)?.id).toBe('judge|hybrid');
		expect(defaultPair([])).toBe(undefined);
	});
});

describe('names for people', () => {
	it.each([
		['human:ana', 'ana'],
		['judge', 'LLM judge'],
		['hybrid', 'hybrid (rules, then judge)'],
		['rules', 'rules']
	])('calls %s "%s"', (name, title) => expect(labelerTitle(name)).toBe(title));

	it('titles categories', () => {
		expect(categoryTitle('meta_planning')).toBe('Meta-planning');
		expect(categoryTitle('not_genuine')).toBe('Not genuine');
	});
});

describe('drawSettingsFrom', () => {
	it.each<[Record<string, string>, { size: number; seed: number }]>([
		[{}, { size: 30, seed: 0 }],
		[
			{ n: '12', seed: '7' },
			{ size: 12, seed: 7 }
		],
		[
			{ n: '0', seed: 'x' },
			{ size: 30, seed: 0 }
		],
		[
			{ n: '2.5', seed: '-3' },
			{ size: 30, seed: -3 }
		]
	])('reads %j', (params, expected) => expect(drawSettingsFrom(params)).toEqual(expected));
});
