/** language:response_language — the whole reply is in one given language. */
import { stringArg } from './args.ts';
import { detectLanguage } from './detectLanguage.ts';
import type { InstructionTable } from './types.ts';

export const LANGUAGE_INSTRUCTIONS: InstructionTable = {
	'language:response_language': (kwargs) => {
		const language = stringArg(kwargs, 'language');
		return (response) => {
			const detected = detectLanguage(response);
			// langdetect raises on text without letters and the reference counts that as followed.
			return detected === null || detected === language;
		};
	}
};
