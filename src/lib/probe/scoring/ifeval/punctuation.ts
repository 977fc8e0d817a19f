/** punctuation:* — no commas (ASCII "," only; "，" and "،" pass, as in the reference). */
import type { InstructionTable } from './types.ts';

export const PUNCTUATION_INSTRUCTIONS: InstructionTable = {
	'punctuation:no_comma': () => (response) => !response.includes(',')
};
