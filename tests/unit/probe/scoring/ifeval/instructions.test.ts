import { describe, expect, it } from 'vitest';
import {
	buildCheck,
	evaluateIfeval,
	IfevalArgumentError,
	INSTRUCTIONS,
	UnknownInstructionError
} from '../../../../../src/lib/probe/scoring/ifeval/index.ts';
import type { Kwargs } from '../../../../../src/lib/probe/scoring/ifeval/index.ts';
import { readJsonl } from '../../../../helpers/fixtures.ts';
import { INSTRUCTION_CASES } from './cases.ts';

interface IfevalRow {
	key: number;
	prompt: string;
	instruction_id_list: string[];
	kwargs: Kwargs[];
}

const ROWS = readJsonl<IfevalRow>('ifeval/input_data.jsonl');
const FIXTURE_IDS = [...new Set(ROWS.flatMap((row) => row.instruction_id_list))].sort();

const FOLLOWING = INSTRUCTION_CASES.flatMap((c) =>
	c.follows.map((response) => ({ ...c, response }))
);
const BREAKING = INSTRUCTION_CASES.flatMap((c) => c.breaks.map((response) => ({ ...c, response })));

describe('IFEval instructions (strict check)', () => {
	it.each(FOLLOWING)('$id $kwargs follows $response', ({ id, kwargs, response }) => {
		expect(buildCheck(id, kwargs)(response)).toBe(true);
	});

	it.each(BREAKING)('$id $kwargs breaks $response', ({ id, kwargs, response }) => {
		expect(buildCheck(id, kwargs)(response)).toBe(false);
	});
});

describe('IFEval registry against the fixture', () => {
	it('knows exactly the 25 instruction ids the fixture uses', () => {
		expect(FIXTURE_IDS).toHaveLength(25);
		expect(Object.keys(INSTRUCTIONS).sort()).toEqual(FIXTURE_IDS);
	});

	it('has a following and a breaking hand-written response for every fixture id', () => {
		const withBoth = new Set(
			INSTRUCTION_CASES.filter((c) => c.follows.length > 0 && c.breaks.length > 0).map((c) => c.id)
		);
		expect(FIXTURE_IDS.filter((id) => !withBoth.has(id))).toEqual([]);
	});

	it('accepts the kwargs of all 541 fixture prompts', () => {
		expect(ROWS).toHaveLength(541);
		const rejected = ROWS.filter((row) => {
			try {
				evaluateIfeval(row.instruction_id_list, row.kwargs, 'A dummy response.\nSecond line.');
				return false;
			} catch {
				return true;
			}
		}).map((row) => row.key);
		expect(rejected).toEqual([]);
	});

	it('scores a fixture prompt that repeats itself as following repeat_prompt', () => {
		const row = ROWS.find((r) => r.instruction_id_list.includes('combination:repeat_prompt'));
		const index = row?.instruction_id_list.indexOf('combination:repeat_prompt') ?? -1;
		const prompt = String(row?.kwargs[index].prompt_to_repeat);
		expect(
			buildCheck('combination:repeat_prompt', { prompt_to_repeat: prompt })(`${prompt}\nOK`)
		).toBe(true);
	});
});

describe('IFEval kwargs validation', () => {
	it('rejects an unknown instruction id', () => {
		expect(() => buildCheck('multi-turn:constrained_start', {})).toThrow(UnknownInstructionError);
		expect(() => buildCheck('toString', {})).toThrow(UnknownInstructionError);
	});

	it.each([
		['length_constraints:number_words', { num_words: 5 }],
		['length_constraints:number_words', { num_words: 5, relation: 'at most' }],
		['length_constraints:number_words', { num_words: '5', relation: 'at least' }],
		['keywords:existence', { keywords: [] }],
		['keywords:letter_frequency', { letter: 'ab', let_frequency: 1, let_relation: 'at least' }],
		[
			'length_constraints:nth_paragraph_first_word',
			{ num_paragraphs: 2, nth_paragraph: 3, first_word: 'x' }
		],
		['detectable_content:postscript', {}]
	])('rejects %s with %j', (id, kwargs) => {
		expect(() => buildCheck(id, kwargs)).toThrow(IfevalArgumentError);
	});
});
