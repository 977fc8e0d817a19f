import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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
		expect(entries[4999]).toEqual({ label: 'degenerate', start: 49990, end: 49999 });
		expect(index.get('r', 'k1234')).toEqual({ label: null, start: 12340, end: 12349 });
		expect(entries[0].label).toBeNull();
		expect([...index.entries('other')]).toEqual([]);
	});

	it('moves lines to where a rewrite put them, leaving the others', () => {
		const index = new LineIndex();
		index.set('r', 'b', null, 200, 230);
		index.set('r', 'a', null, 100, 150);
		expect([...index.sortedStarts()]).toEqual([100, 200]);
		index.relocate(new Float64Array([200]), new Float64Array([0]));
		expect(index.get('r', 'b')).toMatchObject({ start: 0, end: 30 });
		expect(index.get('r', 'a')).toMatchObject({ start: 100, end: 150 });
	});

	it('holds 300,000 keys in a fixed number of bytes each, none lost', async () => {
		// What the index keeps, not what building it left for the collector: the key strings made
		// in the loop and the arrays each doubling replaced are garbage, and when the collector gets
		// to them depends on the machine's load (CI once read 280 bytes a key without collecting).
		// A collection frees a dropped array's memory later, off the main thread: read after it has
		// had the time (in the full suite, one collection alone once left 107 bytes a key).
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		const heap = async () => {
			for (let i = 0; i < 3; i++) {
				gc();
				await new Promise((r) => setTimeout(r, 20));
			}
			const { heapUsed, arrayBuffers } = process.memoryUsage();
			return heapUsed + arrayBuffers;
		};
		// A run's shape: a few thousand items times a hundred conditions. The index interns each
		// item once, as the dataset does; what grows with the records is the arrays alone.
		const items = 3000;
		const key = (i: number) => `item-${i % items}|0.7|none|${Math.floor(i / items)}`;
		const index = new LineIndex();
		const before = await heap();
		const n = 300_000;
		for (let i = 0; i < n; i++) index.set('run', key(i), null, i, i + 1);
		const bytesPerKey = ((await heap()) - before) / n;
		expect(index.size).toBe(n);
		// A Map of the key strings took ~380 bytes a key; the arrays here take ~45 to ~90 (they
		// grow by doubling, so up to half of their slots are empty).
		expect(bytesPerKey).toBeLessThan(100);
		for (const i of [0, 1, 4096, 277_777, n - 1])
			expect(index.get('run', key(i))).toMatchObject({ start: i });
		expect(index.get('run', key(n))).toBeUndefined();
	});
});
