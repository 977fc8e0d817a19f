/** change_case:* — all-caps or all-lowercase English, or how many words are in capitals. */
import { compare, intArg, relationArg } from './args.ts';
import { detectLanguage } from './detectLanguage.ts';
import { isLowerPy, isUpperPy, nltkWordTokens } from './text.ts';
import type { InstructionTable } from './types.ts';

/** English per the detector; text without letters counts as English, as in the reference. */
function isEnglish(response: string): boolean {
	const language = detectLanguage(response);
	return language === null || language === 'en';
}

export const CHANGE_CASE_INSTRUCTIONS: InstructionTable = {
	'change_case:capital_word_frequency': (kwargs, nlp) => {
		const frequency = intArg(kwargs, 'capital_frequency');
		const relation = relationArg(kwargs, 'capital_relation');
		// The reference counts NLTK word_tokenize tokens; without its data, our approximation.
		const tokens = nlp ? (text: string) => nlp.wordTokenize(text) : nltkWordTokens;
		return (response) => compare(tokens(response).filter(isUpperPy).length, relation, frequency);
	},
	'change_case:english_capital': () => (response) => isUpperPy(response) && isEnglish(response),
	'change_case:english_lowercase': () => (response) => isLowerPy(response) && isEnglish(response)
};
