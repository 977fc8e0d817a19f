/**
 * Our IFBench checkers against the reference implementation's decisions (allenai/IFBench
 * ifbench/instructions.py), recorded by tests/fixtures/ifbench-reference/make_golden.py on our
 * own responses and kwargs. All 58 instruction types have cases, strict and loose. The 18 that
 * need NLTK's English data and syllapy run on the part of that data the reference consulted
 * (nltk-subset/, in the upstream file formats; the script proves the part suffices).
 * A recorded 2 means the reference's check raised (csv.Error, or IndexError on an empty CSV cell)
 * instead of deciding: our checker says "not followed" there.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	evaluateIfeval,
	IFBENCH_INSTRUCTIONS,
	IFBENCH_NLP_INSTRUCTIONS,
	NlpUnavailableError,
	UnknownInstructionError,
	type Kwargs
} from '../../../../../src/lib/probe/scoring/ifeval/index.ts';
import { scoreAnswer } from '../../../../../src/lib/probe/scoring/index.ts';
import { nlpFromFixture } from '../../../../helpers/englishNlp.ts';

interface Golden {
	responses: string[];
	cases: { id: string; kwargs: Kwargs; strict: number[]; loose: number[] }[];
}

const GOLDEN = JSON.parse(
	readFileSync(
		new URL('../../../../fixtures/ifbench-reference/ifbench-reference.json', import.meta.url),
		'utf8'
	)
) as Golden;

const NLP = nlpFromFixture(
	new URL('../../../../fixtures/ifbench-reference/nltk-subset/', import.meta.url)
);
const ALL_IDS = [...Object.keys(IFBENCH_INSTRUCTIONS), ...Object.keys(IFBENCH_NLP_INSTRUCTIONS)];

/** The reference's check raised instead of deciding. */
const RAISED = 2;

describe('IFBench checkers agree with the reference', () => {
	it('the reference raised on only the 4 recorded CSV decisions (2 responses, strict and loose)', () => {
		const raised = GOLDEN.cases.flatMap((c) =>
			[...c.strict, ...c.loose].filter((v) => v === RAISED).map(() => c.id)
		);
		expect(raised.sort()).toEqual([
			'custom:csv_city',
			'custom:csv_city',
			'custom:csv_quotes',
			'custom:csv_quotes'
		]);
	});

	it('covers all 58 instruction types, with passing and failing responses', () => {
		const ids = new Set(GOLDEN.cases.map((c) => c.id));
		expect(ids.size).toBe(58);
		expect([...ids].sort()).toEqual([...ALL_IDS].sort());
		for (const id of ids) {
			const decisions = GOLDEN.cases.filter((c) => c.id === id).flatMap((c) => c.loose);
			// A type whose cases all pass (or all fail) would check little.
			expect(decisions, id).toContain(1);
			expect(decisions, id).toContain(0);
		}
	});

	for (const c of GOLDEN.cases) {
		it(`${c.id} ${JSON.stringify(c.kwargs)}`, () => {
			const mismatches: string[] = [];
			const expected = (code: number) => (code === RAISED ? 0 : code);
			GOLDEN.responses.forEach((response, i) => {
				const got = evaluateIfeval([c.id], [c.kwargs], response, NLP);
				if (
					Number(got.strict) !== expected(c.strict[i]) ||
					Number(got.loose) !== expected(c.loose[i])
				) {
					mismatches.push(
						`response ${i} ${JSON.stringify(response)}: ours strict ${got.strict} loose ` +
							`${got.loose}, reference strict ${c.strict[i]} loose ${c.loose[i]}`
					);
				}
			});
			expect(mismatches).toEqual([]);
		});
	}
});

describe('IFBench instructions without NLTK data', () => {
	const item = {
		id: 'ifbench-1',
		task: 'ifeval' as const,
		prompt: 'p',
		instruction_ids: ['words:consonants', 'words:odd_even_syllables'],
		kwargs: [{}, {}]
	};

	it('are unscored (null), not wrong, and the detail says which one and why', () => {
		const result = scoreAnswer(item, 'Strong brown crabs.', {
			unavailable: 'raw.githubusercontent.com could not be reached'
		});
		expect(result.correct).toBeNull();
		expect(result.detail).toMatch(
			/words:odd_even_syllables needs NLTK's English data, which is not loaded \(raw\.githubusercontent\.com could not be reached\): unscored/
		);
		expect(() => evaluateIfeval(item.instruction_ids, item.kwargs, 'x')).toThrow(
			NlpUnavailableError
		);
	});

	it('are scored once the data is there', () => {
		const syllables = { ...item, instruction_ids: ['words:odd_even_syllables'], kwargs: [{}] };
		// syllapy: cat 1, apple 2, dog 1, water 2 alternate; banana 3 breaks it.
		expect(scoreAnswer(syllables, 'Cat, apple! dog water.', NLP).correct).toBe(true);
		expect(scoreAnswer(syllables, 'cat apple dog banana', NLP).correct).toBe(false);
	});

	it('an id in neither IFEval nor IFBench is unscored with "unknown"', () => {
		expect(() => evaluateIfeval(['words:made_up'], [{}], 'x')).toThrow(UnknownInstructionError);
		const result = scoreAnswer(
			{ id: 'x', task: 'ifeval', prompt: 'p', instruction_ids: ['words:made_up'], kwargs: [{}] },
			'x'
		);
		expect(result.correct).toBeNull();
		expect(result.detail).toMatch(/unknown IFEval instruction: words:made_up/);
	});

	it('the text-only and NLP lists are disjoint and make the 58 IFBench test ids', () => {
		const nlpIds = Object.keys(IFBENCH_NLP_INSTRUCTIONS);
		expect(nlpIds).toHaveLength(18);
		expect(Object.keys(IFBENCH_INSTRUCTIONS).filter((id) => nlpIds.includes(id))).toEqual([]);
		expect(new Set(ALL_IDS).size).toBe(58);
	});

	it('bad kwargs make the item unscored with the reason, not a crash', () => {
		const result = scoreAnswer(
			{
				id: 'y',
				task: 'ifeval',
				prompt: 'p',
				instruction_ids: ['count:word_count_range'],
				kwargs: [{ min_words: 'ten', max_words: 20 }]
			},
			'some words'
		);
		expect(result.correct).toBeNull();
		expect(result.detail).toMatch(/min_words must be a non-negative integer/);
	});
});
