/** detectable_content:* — placeholders and a postscript. */
import { intArg, stringArg } from './args.ts';
import { escapeRegExp } from './text.ts';
import type { InstructionTable } from './types.ts';

/** "[name]", "[address]": shortest bracket pairs within one line. */
const PLACEHOLDER = /\[[^\n]*?\]/g;

/**
 * The reference searches anywhere, not only at a line start, case-insensitively, and allows one
 * whitespace inside the marker ("P. S.", "p.p.s").
 */
function postscriptPattern(marker: string): RegExp {
	if (marker === 'P.P.S') return /p\.\s?p\.\s?s/i;
	if (marker === 'P.S.') return /p\.\s?s\./i;
	return new RegExp(escapeRegExp(marker.toLowerCase()), 'i');
}

export const CONTENT_INSTRUCTIONS: InstructionTable = {
	'detectable_content:number_placeholders': (kwargs) => {
		const minimum = intArg(kwargs, 'num_placeholders');
		return (response) => (response.match(PLACEHOLDER)?.length ?? 0) >= minimum;
	},
	'detectable_content:postscript': (kwargs) => {
		const pattern = postscriptPattern(stringArg(kwargs, 'postscript_marker').trim());
		return (response) => pattern.test(response);
	}
};
