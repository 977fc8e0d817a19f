import { describe, expect, it } from 'vitest';
import { hash64, KeyTable } from '../../../src/lib/probe/keyTable.ts';

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

	it('hashes the key, not its length or its first characters alone', () => {
		expect(hash64('ab')).not.toEqual(hash64('ba'));
		expect(hash64('run\u0000a')).not.toEqual(hash64('run\u0000b'));
		expect(hash64('')).toEqual(hash64(''));
		expect(hash64('ünïcode ✓')).not.toEqual(hash64('unicode ✓'));
	});
});
