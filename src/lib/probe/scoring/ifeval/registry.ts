/** Every IFEval instruction id we can check, mapped to its builder. */
import { AppError } from '../../../errors/appError.ts';
import type { Kwargs } from './args.ts';
import { CHANGE_CASE_INSTRUCTIONS } from './changeCase.ts';
import { COMBINATION_INSTRUCTIONS } from './combination.ts';
import { CONTENT_INSTRUCTIONS } from './detectableContent.ts';
import { FORMAT_INSTRUCTIONS } from './detectableFormat.ts';
import type { NlpSupport } from '../nlp.ts';
import { IFBENCH_INSTRUCTIONS } from './ifbench.ts';
import { IFBENCH_NLP_INSTRUCTIONS } from './ifbenchNlp.ts';
import { KEYWORD_INSTRUCTIONS } from './keywords.ts';
import { LANGUAGE_INSTRUCTIONS } from './language.ts';
import { LENGTH_INSTRUCTIONS } from './lengthConstraints.ts';
import { PUNCTUATION_INSTRUCTIONS } from './punctuation.ts';
import { STARTEND_INSTRUCTIONS } from './startend.ts';
import type { Check, InstructionTable } from './types.ts';

/** The 25 instructions of the released IFEval set (the reference's INSTRUCTION_DICT). */
export const INSTRUCTIONS: InstructionTable = {
	...KEYWORD_INSTRUCTIONS,
	...LANGUAGE_INSTRUCTIONS,
	...LENGTH_INSTRUCTIONS,
	...CONTENT_INSTRUCTIONS,
	...FORMAT_INSTRUCTIONS,
	...COMBINATION_INSTRUCTIONS,
	...STARTEND_INSTRUCTIONS,
	...CHANGE_CASE_INSTRUCTIONS,
	...PUNCTUATION_INSTRUCTIONS
};

/** The item names an instruction this scorer does not know; the item is left unscored. */
export class UnknownInstructionError extends AppError {
	constructor(readonly instructionId: string) {
		super(`unknown IFEval instruction: ${instructionId}`, { code: 'unknown_instruction' });
		this.name = 'UnknownInstructionError';
	}
}

/**
 * The instruction needs NLTK's English data (IFBENCH_NLP_INSTRUCTIONS) and the run has none: the
 * item is left unscored, with the reason the data could not be had when there is one.
 */
export class NlpUnavailableError extends AppError {
	constructor(
		readonly instructionId: string,
		reason?: string
	) {
		super(
			`IFBench instruction ${instructionId} needs NLTK's English data, which is not loaded` +
				(reason ? ` (${reason})` : '') +
				': unscored',
			{ code: 'nlp_unavailable' }
		);
		this.name = 'NlpUnavailableError';
	}
}

export type { NlpSupport };

/** Whether `instructionId` needs NLTK's English data to be checked. */
export function needsNlp(instructionId: string): boolean {
	return Object.hasOwn(IFBENCH_NLP_INSTRUCTIONS, instructionId);
}

/** IFEval instructions that the reference checks with NLTK and we approximate without its data. */
const SHARPENED_BY_NLP = new Set([
	'length_constraints:number_sentences',
	'change_case:capital_word_frequency'
]);

/** Whether checking `instructionId` needs, or is made exact by, NLTK's English data. */
export function usesNlp(instructionId: string): boolean {
	return needsNlp(instructionId) || SHARPENED_BY_NLP.has(instructionId);
}

/**
 * The check for one instruction with its kwargs.
 * @throws UnknownInstructionError for an id outside {@link INSTRUCTIONS} and IFBench's sets.
 * @throws NlpUnavailableError for an instruction that needs `nlp` when it is missing.
 * @throws IfevalArgumentError when its kwargs are missing or malformed.
 */
export function buildCheck(instructionId: string, kwargs: Kwargs, nlp?: NlpSupport): Check {
	if (needsNlp(instructionId)) {
		if (nlp === undefined || 'unavailable' in nlp) {
			throw new NlpUnavailableError(instructionId, nlp?.unavailable);
		}
		return IFBENCH_NLP_INSTRUCTIONS[instructionId](kwargs, nlp);
	}
	const build = Object.hasOwn(INSTRUCTIONS, instructionId)
		? INSTRUCTIONS[instructionId]
		: Object.hasOwn(IFBENCH_INSTRUCTIONS, instructionId)
			? IFBENCH_INSTRUCTIONS[instructionId]
			: null;
	if (!build) throw new UnknownInstructionError(instructionId);
	return build(kwargs, nlp && !('unavailable' in nlp) ? nlp : undefined);
}
