import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../../src/cli/lineIndex.ts';

describe('LineIndex', () => {
	it('keeps the latest line per key and run, and says when a key was stored again', () => {
		const index = new LineIndex();
		expect(index.set('r1', 'a', null, 0, 10)).toBe(false);
		expect(index.set('r2', 'a', 'genuine_followup', 11, 20)).toBe(false);
		expect(index.set('r1', 'a', 'genuine_followup', 21, 30)).toBe(true);
		expect(index.size).toBe(2);
		expect(index.get('r1', 'a')).toEqual({
			key: 'a',
			label: 'genuine_followup',
			start: 21,
			end: 30
		});
		expect(index.get('r2', 'b')).toBeUndefined();
		expect(index.get('r3', 'a')).toBeUndefined();
	});

	it('grows past its first arrays and lists a run in the order keys first came', () => {
		const index = new LineIndex();
		for (let i = 0; i < 5000; i++)
			index.set('r', `k${i}`, i % 2 ? 'degenerate' : null, i * 10, i * 10 + 9);
		const entries = [...index.entries('r')];
		expect(entries).toHaveLength(5000);
		expect(entries[4999]).toEqual({ key: 'k4999', label: 'degenerate', start: 49990, end: 49999 });
		expect(entries[0].label).toBeNull();
		expect([...index.entries('other')]).toEqual([]);
	});

	it('moves lines to where a rewrite put them, leaving the others', () => {
		const index = new LineIndex();
		index.set('r', 'a', null, 100, 150);
		index.set('r', 'b', null, 200, 230);
		expect(index.starts()).toEqual(new Set([100, 200]));
		index.relocate(new Map([[200, 0]]));
		expect(index.get('r', 'b')).toMatchObject({ start: 0, end: 30 });
		expect(index.get('r', 'a')).toMatchObject({ start: 100, end: 150 });
	});
});
