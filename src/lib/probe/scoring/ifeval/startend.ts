/** startend:* — how the reply ends, or what wraps it. */
import { stringArg } from './args.ts';
import type { InstructionTable } from './types.ts';

export const STARTEND_INSTRUCTIONS: InstructionTable = {
	'startend:end_checker': (kwargs) => {
		const phrase = stringArg(kwargs, 'end_phrase').trim().toLowerCase();
		// Trailing whitespace and wrapping double quotes are forgiven, case is not compared.
		return (response) =>
			response
				.trim()
				.replace(/^"+|"+$/g, '')
				.toLowerCase()
				.endsWith(phrase);
	},
	'startend:quotation': () => (response) => {
		const text = response.trim();
		return text.length > 1 && text.startsWith('"') && text.endsWith('"');
	}
};
