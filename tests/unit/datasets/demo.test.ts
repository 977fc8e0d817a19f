import { describe, expect, it } from 'vitest';
import { demoItems } from '../../../src/lib/datasets/tasks/demo.ts';
import { BARE_NUMBER, itemProblems } from '../../../src/lib/datasets/items.ts';
import { gsm8kLines } from './hfFixtureRows.ts';

/**
 * Each math item's answer, worked out again here from the problem statement. A typo in the JSON
 * gold (or in a problem's numbers) makes this disagree.
 */
const WORKED: Record<string, number> = {
	'demo-math-01': 3 * 12 - 7,
	'demo-math-02': (45 + 38) * 2,
	'demo-math-03': 11 * 4 - 29,
	'demo-math-04': 270 / 18,
	'demo-math-05': 6 * 9 * 5,
	'demo-math-06': (240 - 60) / 15,
	'demo-math-07': Math.ceil(28 / 8),
	'demo-math-08': 20 - (4 * 3 + 2 * 1.5),
	'demo-math-09': 500 - 500 * 0.4,
	'demo-math-10': 120 - 120 / 3 - 120 / 4,
	'demo-math-11': 13 * 60 + 45 - (9 * 60 + 15),
	// Nora = 3·Ben and (3·Ben + 4) + (Ben + 4) = 32, so Ben = 6.
	'demo-math-12': 3 * ((32 - 8) / 4),
	// cows + chickens = 20 and 4·cows + 2·chickens = 56, so 2·cows = 56 − 40.
	'demo-math-13': (56 - 2 * 20) / 2,
	'demo-math-14': 7.5 / 3
};

function shingles(text: string, n: number): Set<string> {
	const words = text.toLowerCase().match(/[a-z0-9$.%]+/g) ?? [];
	const out = new Set<string>();
	for (let i = 0; i + n <= words.length; i++) out.add(words.slice(i, i + n).join(' '));
	return out;
}

describe('demo items', () => {
	const items = demoItems();

	it('has 14 math problems and 6 open conversation prompts, all valid items', () => {
		expect(items).toHaveLength(20);
		expect(items.filter((it) => it.task === 'gsm8k')).toHaveLength(14);
		expect(items.filter((it) => it.task === 'none')).toHaveLength(6);
		for (const item of items) expect(itemProblems(item), item.id).toEqual([]);
	});

	it('has unique ids', () => {
		expect(new Set(items.map((it) => it.id)).size).toBe(items.length);
	});

	it('gives every math item a bare-number gold', () => {
		for (const item of items.filter((it) => it.task === 'gsm8k')) {
			expect(item.gold, item.id).toMatch(BARE_NUMBER);
			expect(Number.isFinite(Number(item.gold)), item.id).toBe(true);
		}
	});

	it('every math gold equals the answer worked out independently', () => {
		const math = items.filter((it) => it.task === 'gsm8k');
		expect(Object.keys(WORKED).sort()).toEqual(math.map((it) => it.id).sort());
		for (const item of math) expect(Number(item.gold), item.id).toBe(WORKED[item.id]);
	});

	it('conversation prompts carry no gold and ask something', () => {
		for (const item of items.filter((it) => it.task === 'none')) {
			expect(item.gold, item.id).toBeUndefined();
			expect(item.prompt.trim().endsWith('?'), item.id).toBe(true);
		}
	});

	it('shares no 8-word run with any GSM8K test question (written for this app, not copied)', () => {
		const gsm = new Set(gsm8kLines().flatMap((l) => [...shingles(l.question, 8)]));
		for (const item of items) {
			const overlap = [...shingles(item.prompt, 8)].filter((s) => gsm.has(s));
			expect(overlap, item.id).toEqual([]);
		}
	});

	it('returns a fresh copy each call, so callers cannot corrupt the built-in set', () => {
		const first = demoItems();
		first[0].prompt = 'changed';
		first.pop();
		const second = demoItems();
		expect(second).toHaveLength(20);
		expect(second[0].prompt).not.toBe('changed');
	});
});
