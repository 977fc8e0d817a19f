/**
 * Strict and loose IFEval scoring (Zhou et al. 2023, section 2.2).
 *
 * Strict checks the response as written. Loose forgives formatting noise around an answer: an
 * instruction passes if any of eight variants passes — the response, without its first line,
 * without its last line, without both, and each of those four with every "*" removed. Blank
 * responses and blank variants never pass.
 */
import type { Kwargs } from './args.ts';
import { buildCheck, type NlpSupport } from './registry.ts';
import type { Check } from './types.ts';

export interface InstructionResult {
	id: string;
	strict: boolean;
	loose: boolean;
}

export interface IfevalResult {
	/** Every instruction followed as written (IFEval's prompt-level strict accuracy, Zhou et al. 2023). */
	strict: boolean;
	/** Every instruction followed by at least one loose variant. */
	loose: boolean;
	per_instruction: InstructionResult[];
}

/** The eight loose variants, the response itself first. */
export function looseVariants(response: string): string[] {
	const lines = response.split('\n');
	const withoutFirst = lines.slice(1).join('\n').trim();
	const withoutLast = lines.slice(0, -1).join('\n').trim();
	const withoutBoth = lines.slice(1, -1).join('\n').trim();
	const trimmed = [response, withoutFirst, withoutLast, withoutBoth];
	return [...trimmed, ...trimmed.map((variant) => variant.replaceAll('*', ''))];
}

function passes(check: Check, response: string): boolean {
	return response.trim() !== '' && check(response);
}

/**
 * Scores one response against an item's instructions. `kwargs[i]` belongs to
 * `instructionIds[i]`; a missing entry means no arguments. `nlp` is needed by the IFBench
 * instructions that split sentences or tag words (IFBENCH_NLP_INSTRUCTIONS).
 * @throws UnknownInstructionError for an id this scorer does not know.
 * @throws NlpUnavailableError for an instruction that needs `nlp` when it is missing.
 * @throws IfevalArgumentError when an instruction's kwargs are missing or malformed.
 */
export function evaluateIfeval(
	instructionIds: readonly string[],
	kwargs: readonly Kwargs[],
	response: string,
	nlp?: NlpSupport
): IfevalResult {
	const variants = looseVariants(response);
	const per_instruction = instructionIds.map((id, index) => {
		const check = buildCheck(id, kwargs[index] ?? {}, nlp);
		return {
			id,
			strict: passes(check, response),
			loose: variants.some((variant) => passes(check, variant))
		};
	});
	return {
		strict: per_instruction.every((result) => result.strict),
		loose: per_instruction.every((result) => result.loose),
		per_instruction
	};
}
