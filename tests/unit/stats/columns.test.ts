import { describe, expect, it } from 'vitest';
import { columnsOf, valueAt } from '../../../src/lib/stats/columns.ts';

interface Row {
	label: string | null;
	t: number;
	ref?: string | null;
}

const rows: Row[] = [
	{ label: 'a', t: 0 },
	{ label: null, t: 1, ref: null },
	{ label: 'a', t: 0, ref: 'tie' },
	{ label: 'b', t: 1 }
];

describe('columnsOf', () => {
	it('keeps each distinct value once, in first-seen order, and one typed index per row', () => {
		const c = columnsOf(rows, ['label', 't'] as const);
		expect(c.label.values).toEqual(['a', null, 'b']);
		expect(c.label.index).toBeInstanceOf(Uint32Array);
		expect([...c.label.index]).toEqual([0, 1, 0, 2]);
		expect(c.t.values).toEqual([0, 1]);
		expect(rows.map((_, i) => valueAt(c.t, i))).toEqual([0, 1, 0, 1]);
	});

	it('keeps an absent value apart from null, or maps it through valueOf', () => {
		const plain = columnsOf(rows, ['ref'] as const);
		expect(rows.map((_, i) => valueAt(plain.ref, i))).toEqual([undefined, null, 'tie', undefined]);
		const marked = columnsOf(rows, ['ref'] as const, (r, f) => (f in r ? r[f] : 'none'));
		expect(marked.ref.values).toEqual(['none', null, 'tie']);
	});

	it('reads an index that came back from JSON as plain numbers', () => {
		const c = columnsOf(rows, ['label'] as const);
		const json = JSON.parse(
			JSON.stringify({ values: c.label.values, index: Array.from(c.label.index) })
		) as { values: unknown[]; index: number[] };
		expect(rows.map((_, i) => valueAt(json, i))).toEqual(rows.map((r) => r.label));
	});

	it('gives empty columns for no rows', () => {
		expect(columnsOf([] as Row[], ['t'] as const)).toEqual({
			t: { values: [], index: new Uint32Array(0) }
		});
	});
});
