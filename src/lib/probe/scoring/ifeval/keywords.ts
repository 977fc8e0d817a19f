/** keywords:* — which words appear, and how often. */
import {
	compare,
	IfevalArgumentError,
	intArg,
	relationArg,
	stringArg,
	stringListArg
} from './args.ts';
import { escapeRegExp } from './text.ts';
import type { InstructionTable } from './types.ts';

// The reference hands keywords to `re` unescaped; every keyword in IFEval is plain words, so we
// escape them and match literally. Matching is case-insensitive and, except for forbidden
// words, not limited to whole words ("cat" is found in "category"), as in the reference.

/** Python's Unicode `\b` (JavaScript's `\b` only knows ASCII letters). */
const WORD_BOUNDARY_BEFORE = '(?<![\\p{L}\\p{N}_])';
const WORD_BOUNDARY_AFTER = '(?![\\p{L}\\p{N}_])';

export const KEYWORD_INSTRUCTIONS: InstructionTable = {
	'keywords:existence': (kwargs) => {
		const patterns = stringListArg(kwargs, 'keywords').map(
			(keyword) => new RegExp(escapeRegExp(keyword), 'iu')
		);
		return (response) => patterns.every((pattern) => pattern.test(response));
	},
	'keywords:frequency': (kwargs) => {
		const pattern = new RegExp(escapeRegExp(stringArg(kwargs, 'keyword').trim()), 'giu');
		const frequency = intArg(kwargs, 'frequency');
		const relation = relationArg(kwargs, 'relation');
		return (response) => compare(response.match(pattern)?.length ?? 0, relation, frequency);
	},
	'keywords:forbidden_words': (kwargs) => {
		const patterns = stringListArg(kwargs, 'forbidden_words').map(
			(word) => new RegExp(WORD_BOUNDARY_BEFORE + escapeRegExp(word) + WORD_BOUNDARY_AFTER, 'iu')
		);
		return (response) => !patterns.some((pattern) => pattern.test(response));
	},
	'keywords:letter_frequency': (kwargs) => {
		const letter = stringArg(kwargs, 'letter').trim().toLowerCase();
		if ([...letter].length !== 1) {
			throw new IfevalArgumentError(`letter must be a single character, got ${letter}`);
		}
		const frequency = intArg(kwargs, 'let_frequency');
		const relation = relationArg(kwargs, 'let_relation');
		return (response) => {
			const occurrences = [...response.toLowerCase()].filter((c) => c === letter).length;
			return compare(occurrences, relation, frequency);
		};
	}
};
