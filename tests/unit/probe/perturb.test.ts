import { describe, expect, it } from 'vitest';
import {
	DEFAULT_PERTURB_PARAMS,
	perturbAnswer,
	truncateAtWord,
	type PerturbParams
} from '../../../src/lib/probe/perturb.ts';
import type { Perturbation } from '../../../src/lib/probe/types.ts';

const params = (overrides: Partial<PerturbParams> = {}): PerturbParams => ({
	...DEFAULT_PERTURB_PARAMS,
	...overrides
});

const GSM8K_ANSWER =
	'Janet sells 16 - 3 - 4 = 9 duck eggs a day.\nShe makes 9 * 2 = $18.50 every day at the café.\n#### 18';

describe('perturbAnswer none', () => {
	it('returns the answer exactly, whitespace included', () => {
		expect(perturbAnswer('  The answer is 18.\n', 'none', params())).toBe('  The answer is 18.\n');
	});

	it('ignores the other edits’ parameters', () => {
		const odd = params({ truncate_fraction: 0, append_text: '' });
		expect(perturbAnswer('A.', 'none', odd)).toBe('A.');
	});
});

describe('truncate', () => {
	it.each([
		['one two three four', 0.5, 'one two'],
		['one two three four', 0.6, 'one two'],
		['one two three four', 1, 'one two three four'],
		['alpha beta', 0.01, 'alpha'],
		['a  b  c  d', 0.5, 'a  b'],
		['héllo wörld ünïcode ok', 0.5, 'héllo wörld'],
		['😀 😀 😀 😀', 0.5, '😀 😀'],
		['我们今天去公园散步吧', 0.5, '我们今天去'],
		['cafe\u0301 au lait', 0.3, 'cafe\u0301'],
		['It costs $18.50 today', 0.6, 'It costs'],
		["I don't know why", 0.25, 'I'],
		['Step one.\nStep two.\n#### 6', 0.5, 'Step one.'],
		['  hello world', 0.1, '  hello'],
		['supercalifragilistic', 0.3, 'supercalifragilistic'],
		['supercalifragilisticexpialidocious is long', 0.2, 'supercalifragilisticexpialidocious'],
		['   ', 0.5, '   '],
		['\n\t', 0.5, '\n\t'],
		['', 0.5, '']
	])('cuts %j at fraction %d to %j', (answer, fraction, expected) => {
		expect(perturbAnswer(answer, 'truncate', params({ truncate_fraction: fraction }))).toBe(
			expected
		);
	});

	it('keeps everything, trailing whitespace included, at fraction 1', () => {
		expect(truncateAtWord('Line one.\n#### 3\n', 1)).toBe('Line one.\n#### 3\n');
	});

	it('is a non-empty prefix that ends at a word and grows with the fraction', () => {
		let previous = 0;
		for (let step = 1; step <= 40; step++) {
			const cut = truncateAtWord(GSM8K_ANSWER, step / 40);
			expect(GSM8K_ANSWER.startsWith(cut)).toBe(true);
			expect(cut.trim()).not.toBe('');
			const next = GSM8K_ANSWER.charAt(cut.length);
			expect(next === '' || /\s/.test(next)).toBe(true);
			expect(cut.length).toBeGreaterThanOrEqual(previous);
			previous = cut.length;
		}
		expect(previous).toBe(GSM8K_ANSWER.length);
	});

	it('never keeps more code points than the fraction once the first word fits', () => {
		const points = Array.from(GSM8K_ANSWER).length;
		for (const f of [0.1, 0.25, 0.5, 0.75, 0.9]) {
			expect(Array.from(truncateAtWord(GSM8K_ANSWER, f)).length).toBeLessThanOrEqual(
				Math.floor(points * f)
			);
		}
	});

	it('does not split a surrogate pair or a number', () => {
		for (let step = 1; step < 20; step++) {
			const cut = truncateAtWord('pay $18.50 now 🙂🙂 ok', step / 20);
			expect(cut).not.toMatch(/[\uD800-\uDBFF]$/);
			expect(cut).not.toMatch(/\$18\.?5?$|\$1$/);
		}
	});

	it.each([0, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
		'rejects fraction %d',
		(fraction) => {
			expect(() => truncateAtWord('a b', fraction)).toThrow(RangeError);
			expect(() =>
				perturbAnswer('a b', 'truncate', params({ truncate_fraction: fraction }))
			).toThrow(/truncate_fraction must be in \(0, 1\]/);
		}
	);
});

describe('append', () => {
	it.each([
		['The answer is 18.', 'The answer is 18.\n\nWhat do you think?'],
		['The answer is 18.\n', 'The answer is 18.\n\nWhat do you think?'],
		['Step one.\n#### 6\n\n\n', 'Step one.\n#### 6\n\nWhat do you think?'],
		['  indented answer', '  indented answer\n\nWhat do you think?'],
		['', 'What do you think?'],
		[' \n ', 'What do you think?']
	])('separates %j from the question by one blank line', (answer, expected) => {
		expect(perturbAnswer(answer, 'append', params())).toBe(expected);
	});

	it('uses the configured text verbatim', () => {
		expect(perturbAnswer('42.', 'append', params({ append_text: 'Any questions? ' }))).toBe(
			'42.\n\nAny questions? '
		);
	});

	it.each(['', '   ', '\n'])('rejects blank append_text %j', (append_text) => {
		expect(() => perturbAnswer('A.', 'append', params({ append_text }))).toThrow(RangeError);
	});
});

it('rejects an unknown perturbation', () => {
	expect(() => perturbAnswer('A.', 'shuffle' as Perturbation, params())).toThrow(
		/Unknown perturbation "shuffle"/
	);
});
