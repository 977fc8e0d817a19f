/** combination:* — two answers in one reply, or the prompt repeated before the answer. */
import { stringArg } from './args.ts';
import type { InstructionTable } from './types.ts';

const RESPONSE_SEPARATOR = '******';

/** Exactly two different non-blank parts around "******"; blank parts only at the ends. */
function twoResponses(response: string): boolean {
	const parts = response.split(RESPONSE_SEPARATOR);
	const valid: string[] = [];
	for (const [index, part] of parts.entries()) {
		if (part.trim() !== '') valid.push(part.trim());
		else if (index !== 0 && index !== parts.length - 1) return false;
	}
	return valid.length === 2 && valid[0] !== valid[1];
}

export const COMBINATION_INSTRUCTIONS: InstructionTable = {
	'combination:two_responses': () => twoResponses,
	'combination:repeat_prompt': (kwargs) => {
		const prompt = stringArg(kwargs, 'prompt_to_repeat').trim().toLowerCase();
		return (response) => response.trim().toLowerCase().startsWith(prompt);
	}
};
