import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../../src/lib/probe/sample.ts';
import { demoItems } from '../../../src/lib/datasets/tasks/demo.ts';
import { normalizeGsm8kRow } from '../../../src/lib/datasets/tasks/gsm8k.ts';
import type { DatasetItem } from '../../../src/lib/probe/types.ts';
import { gsm8kLines } from '../datasets/hfFixtureRows.ts';

const GSM8K: DatasetItem[] = gsm8kLines().map((row, i) => normalizeGsm8kRow({ ...row }, i));
const ids = (items: DatasetItem[]) => items.map((it) => it.id);

describe('sampleItems', () => {
	it('draws the same items in the same order for the same seed', () => {
		expect(ids(sampleItems(GSM8K, 50, 7))).toEqual(ids(sampleItems(GSM8K, 50, 7)));
	});

	it('draws different items for different seeds', () => {
		expect(ids(sampleItems(GSM8K, 20, 1))).not.toEqual(ids(sampleItems(GSM8K, 20, 2)));
	});

	it('never repeats an item and only returns items it was given', () => {
		const sample = sampleItems(GSM8K, 500, 3);
		expect(new Set(ids(sample)).size).toBe(500);
		const known = new Set(ids(GSM8K));
		expect(sample.every((it) => known.has(it.id))).toBe(true);
	});

	it('has the prefix property: a larger sample starts with the smaller one', () => {
		const big = ids(sampleItems(GSM8K, 300, 11));
		for (const n of [1, 10, 100, 299]) {
			expect(ids(sampleItems(GSM8K, n, 11))).toEqual(big.slice(0, n));
		}
	});

	it('does not depend on the order the items arrive in', () => {
		const reversed = [...GSM8K].reverse();
		expect(ids(sampleItems(reversed, 40, 5))).toEqual(ids(sampleItems(GSM8K, 40, 5)));
	});

	it('returns every item, shuffled, when n exceeds the dataset', () => {
		const demo = demoItems();
		const all = sampleItems(demo, 100, 9);
		expect(all).toHaveLength(20);
		expect([...ids(all)].sort()).toEqual([...ids(demo)].sort());
		expect(ids(all)).not.toEqual([...ids(demo)].sort());
	});

	it('returns nothing for n = 0 or an empty dataset', () => {
		expect(sampleItems(GSM8K, 0, 1)).toEqual([]);
		expect(sampleItems([], 10, 1)).toEqual([]);
	});

	it.each([-1, 2.5, Number.NaN, Number.POSITIVE_INFINITY])('rejects sample size %s', (n) => {
		expect(() => sampleItems(GSM8K, n, 1)).toThrow(RangeError);
	});

	it('leaves the input array untouched', () => {
		const demo = demoItems();
		const before = ids(demo);
		sampleItems(demo, 10, 4);
		expect(ids(demo)).toEqual(before);
	});

	it('gives every item about the same chance of being drawn', () => {
		const demo = demoItems();
		const counts = new Map<string, number>();
		const SEEDS = 2000;
		for (let seed = 0; seed < SEEDS; seed++) {
			for (const it of sampleItems(demo, 5, seed)) counts.set(it.id, (counts.get(it.id) ?? 0) + 1);
		}
		// Expected 2000·5/20 = 500 each; binomial sd ≈ 19, so ±100 is > 5 sd.
		for (const id of ids(demo)) {
			expect(counts.get(id), id).toBeGreaterThan(400);
			expect(counts.get(id), id).toBeLessThan(600);
		}
	});

	it('keeps drawing the recorded sample for seed 42 (saved runs depend on it)', () => {
		// Recorded when sampling was written and cross-checked with an independent Python port of
		// hashSeed + mulberry32 + front Fisher–Yates over the id-sorted demo set.
		expect(ids(sampleItems(demoItems(), 5, 42))).toEqual(GOLDEN_DEMO_SEED_42);
	});
});

const GOLDEN_DEMO_SEED_42 = [
	'demo-math-14',
	'demo-chat-04',
	'demo-math-11',
	'demo-math-04',
	'demo-chat-03'
];
