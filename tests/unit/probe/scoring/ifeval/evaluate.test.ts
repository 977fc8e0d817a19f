import { describe, expect, it } from 'vitest';
import {
	evaluateIfeval,
	looseVariants
} from '../../../../../src/lib/probe/scoring/ifeval/index.ts';

describe('looseVariants', () => {
	it('builds the eight variants of the paper: first/last/both lines removed, each also without "*"', () => {
		expect(looseVariants('Sure:\n**Body** text\nBye')).toEqual([
			'Sure:\n**Body** text\nBye',
			'**Body** text\nBye',
			'Sure:\n**Body** text',
			'**Body** text',
			'Sure:\nBody text\nBye',
			'Body text\nBye',
			'Sure:\nBody text',
			'Body text'
		]);
	});
});

describe('evaluateIfeval strict vs loose', () => {
	it('forgives a chatty first line in loose mode only', () => {
		const result = evaluateIfeval(['startend:quotation'], [{}], 'Here you go:\n"Hello world."');
		expect(result.strict).toBe(false);
		expect(result.loose).toBe(true);
	});

	it('forgives a trailing sign-off line in loose mode only', () => {
		const result = evaluateIfeval(
			['detectable_format:json_format'],
			[{}],
			'{"name": "Ada"}\nHope this helps!'
		);
		expect([result.strict, result.loose]).toEqual([false, true]);
	});

	it('forgives markdown bold around an end phrase in loose mode only', () => {
		const result = evaluateIfeval(
			['startend:end_checker'],
			[{ end_phrase: 'Peace!' }],
			'We are done here. **Peace!**'
		);
		expect([result.strict, result.loose]).toEqual([false, true]);
	});

	it('forgives a comma that only sits in the first line in loose mode only', () => {
		const result = evaluateIfeval(
			['punctuation:no_comma'],
			[{}],
			'Sure, here it is:\nNo commas below'
		);
		expect([result.strict, result.loose]).toEqual([false, true]);
	});

	it('fails both when the body itself breaks the instruction', () => {
		const result = evaluateIfeval(['punctuation:no_comma'], [{}], 'Intro\nOne, two, three\nEnd');
		expect([result.strict, result.loose]).toEqual([false, false]);
	});

	it('passes both when the response follows the instruction as written', () => {
		const result = evaluateIfeval(['startend:quotation'], [{}], '"All quoted."');
		expect([result.strict, result.loose]).toEqual([true, true]);
	});

	it('lets loose mode break an instruction that only strict mode satisfied, per instruction', () => {
		// Removing "*" can only matter for the check that reads it; other checks are unaffected.
		const result = evaluateIfeval(
			['detectable_format:number_highlighted_sections', 'punctuation:no_comma'],
			[{ num_highlights: 1 }, {}],
			'Here is *one* highlight'
		);
		expect(result.per_instruction).toEqual([
			{ id: 'detectable_format:number_highlighted_sections', strict: true, loose: true },
			{ id: 'punctuation:no_comma', strict: true, loose: true }
		]);
	});

	it('requires every instruction for the prompt-level verdicts', () => {
		const result = evaluateIfeval(
			['punctuation:no_comma', 'change_case:english_lowercase'],
			[{}, {}],
			'no commas but One capital'
		);
		expect(result.per_instruction.map((r) => r.strict)).toEqual([true, false]);
		expect(result.strict).toBe(false);
		expect(result.loose).toBe(false);
	});

	it('fails every instruction for a blank response, even ones blank text would satisfy', () => {
		const result = evaluateIfeval(['punctuation:no_comma'], [{}], '   \n  ');
		expect([result.strict, result.loose]).toEqual([false, false]);
	});

	it('treats a missing kwargs entry as no arguments', () => {
		expect(evaluateIfeval(['punctuation:no_comma'], [], 'fine').strict).toBe(true);
	});
});
