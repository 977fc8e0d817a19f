import { describe, expect, it } from 'vitest';
import { KeyTable, mixCodes } from '../../../src/lib/probe/keyTable.ts';

describe('KeyTable', () => {
	it('gives each new key the next index and an old key its own', () => {
		const t = new KeyTable();
		expect(t.add('a|0.7|none|0')).toBe(0);
		expect(t.add('b|0.7|none|0')).toBe(1);
		expect(t.add('a|0.7|none|0')).toBe(0);
		expect(t.size).toBe(2);
		expect(t.indexOf('b|0.7|none|0')).toBe(1);
		expect(t.indexOf('c|0.7|none|0')).toBe(-1);
		expect(t.has('a|0.7|none|0')).toBe(true);
		expect(t.has('')).toBe(false);
	});

	it('keeps every index through its rehashes, and tells 100,000 near-identical keys apart', () => {
		const t = new KeyTable();
		const n = 100_000;
		const key = (i: number) => `gsm8k-${i}|${(i % 11) / 10}|truncate|${i % 5}`;
		let wrong = 0;
		for (let i = 0; i < n; i++) if (t.add(key(i)) !== i) wrong++;
		for (let i = 0; i < n; i++) if (t.indexOf(key(i)) !== i) wrong++;
		expect(wrong).toBe(0);
		expect(t.size).toBe(n);
		expect(t.indexOf(key(n))).toBe(-1);
	});

	it('stays exact when every key hashes alike: a shared hash never makes two keys one', () => {
		// The hash only says where a search starts; keys are compared by their interned parts.
		const t = new KeyTable(() => 7);
		const keys = [
			'a|0.7|none|0',
			'a|0.7|none|1',
			'b|0.7|none|0',
			'a|0.7|truncate|0',
			'a|b|0.7|none|0', // an item id with a "|" of its own
			'a|b|0.7|none',
			'run\u0000a|0.7|none|0',
			'no-bars',
			'',
			'|',
			'|||',
			'||||'
		];
		keys.forEach((k, i) => expect(t.add(k)).toBe(i));
		// Past a rehash: 3,000 more keys in the one chain.
		for (let i = 0; i < 3000; i++) expect(t.add(`x${i % 60}|${i}|none|0`)).toBe(keys.length + i);
		keys.forEach((k, i) => expect(t.indexOf(k)).toBe(i));
		for (let i = 0; i < 3000; i++)
			expect(t.indexOf(`x${i % 60}|${i}|none|0`)).toBe(keys.length + i);
		expect(t.indexOf('a|0.7|none|2')).toBe(-1);
		expect(t.indexOf('c|0.7|none|0')).toBe(-1);
		expect(t.indexOf('a|0.7|none')).toBe(-1);
		expect(t.size).toBe(keys.length + 3000);
	});

	it('tells apart keys whose parts were all seen, but never together', () => {
		const t = new KeyTable();
		t.add('a|0.7|none|0');
		t.add('b|1|truncate|4');
		expect(t.indexOf('a|1|truncate|4')).toBe(-1);
		expect(t.indexOf('b|0.7|none|0')).toBe(-1);
		expect(t.size).toBe(2);
	});

	it('spreads neighbouring codes over the cells', () => {
		const cells = new Set<number>();
		for (let head = 0; head < 64; head++)
			for (let tail = 0; tail < 64; tail++) cells.add(mixCodes(head, tail) & 8191);
		// 4,096 pairs into 8,192 cells: a random spread fills ~3,200; a weak mix far fewer.
		expect(cells.size).toBeGreaterThan(3000);
	});
});
