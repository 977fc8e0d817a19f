/**
 * The CLI's `agreement` report: κ of the binary verdict first (the paper's validated decision),
 * then the categories', each on the records both labelers gave one.
 */
import { describe, expect, it } from 'vitest';
import { agreementText } from '../../../src/cli/report.ts';
import type { Annotation } from '../../../src/lib/probe/exchange.ts';
import type { Label, Verdict } from '../../../src/lib/probe/types.ts';
import { makeRecord } from '../../helpers/factories.ts';

const G: Label = 'genuine_followup';
const D: Label = 'degenerate';

/*
 * Eight turns. The judge: G genuine on 0–3, D on 4–7 (item 7 written "genuine": a conflict, counted
 * not genuine). ana: G on 0–5 with the verdicts g g n n n n (items 2–3 plausible but ungrounded),
 * D on 6–7.
 *   verdicts, rows ana [genuine, not_genuine], columns judge: [[2, 0], [2, 4]]: po = 6/8,
 *   marginals ana 2/6, judge 4/4, pe = (2·4 + 6·4)/64 = 0.5, κ = (0.75 − 0.5)/0.5 = 0.50.
 *   categories [G, D]: ana G6 D2, judge G4 D4, agreeing on 0–3 and 6–7: po = 6/8, pe =
 *   (6·4 + 2·4)/64 = 0.5, κ = 0.50 as well; raw agreement 75%.
 */
const judge: [Label, Verdict][] = [
	[G, 'genuine'],
	[G, 'genuine'],
	[G, 'genuine'],
	[G, 'genuine'],
	[D, 'not_genuine'],
	[D, 'not_genuine'],
	[D, 'not_genuine'],
	[D, 'genuine']
];
const records = judge.map(([label, verdict], i) =>
	makeRecord({ key: `k${i}`, item_id: `i${i}`, judge_label: label, label, verdict })
);
const ana: Annotation[] = records.map((r, i) => ({
	run_id: r.run_id,
	key: r.key,
	annotator: 'ana',
	label: i < 6 ? G : D,
	verdict: i < 2 ? 'genuine' : 'not_genuine',
	created_at: `2026-01-01T00:00:0${i}.000Z`
}));

describe('agreementText', () => {
	it('reports the verdict κ before the categories κ, computed by hand', () => {
		const text = agreementText(records, ana);
		const [head, , ...rows] = text.split('\n');
		expect(head.indexOf('genuine vs not')).toBeGreaterThan(-1);
		expect(head.indexOf('genuine vs not')).toBeLessThan(head.indexOf('all labels'));
		const row = rows.find((r) => r.startsWith('judge vs human:ana')) ?? '';
		const cells = row.split(/\s{2,}/);
		expect(cells[1]).toBe('8');
		expect(cells[2]).toMatch(/^0\.500 \[/);
		expect(cells[3]).toBe('8');
		expect(cells[4]).toMatch(/^0\.500 \[/);
	});

	it('leaves labels given before verdicts were asked out of the verdict κ only', () => {
		const old = ana.map(({ verdict: _v, ...a }) => a);
		const row =
			agreementText(records, old)
				.split('\n')
				.find((r) => r.startsWith('judge vs human:ana')) ?? '';
		const cells = row.split(/\s{2,}/);
		expect([cells[1], cells[3]]).toEqual(['0', '8']);
		expect(cells[2]).toMatch(/^—/);
	});
});
