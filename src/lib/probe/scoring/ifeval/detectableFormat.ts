/** detectable_format:* — bullets, highlights, sections, JSON, titles, fixed answers. */
import { intArg, stringArg } from './args.ts';
import { escapeRegExp, LINE_END, LINE_START } from './text.ts';
import type { InstructionTable } from './types.ts';

// "* item" (but not "**bold**") and "- item" lines. Like the reference, `[^*]` may be a newline
// and a "---" rule counts as a dash bullet.
const STAR_BULLET = new RegExp(`${LINE_START}\\s*\\*[^*][^\\n]*${LINE_END}`, 'g');
const DASH_BULLET = new RegExp(`${LINE_START}\\s*-[^\\n]*${LINE_END}`, 'g');
const HIGHLIGHT = /\*[^\n*]*\*/g;
const DOUBLE_HIGHLIGHT = /\*\*[^\n*]*\*\*/g;
const TITLE = /<<[^\n]+>>/g;
const CONSTRAINED_OPTIONS = ['My answer is yes.', 'My answer is no.', 'My answer is maybe.'];
const JSON_FENCE_OPENINGS = ['```json', '```Json', '```JSON', '```'];

function countMatches(text: string, pattern: RegExp): number {
	return text.match(pattern)?.length ?? 0;
}

/** "*a*" and "**a**" each count once; "**" alone or "* *" do not count. */
function countHighlights(response: string): number {
	const single = (response.match(HIGHLIGHT) ?? []).filter((h) =>
		h.replace(/^\*+|\*+$/g, '').trim()
	);
	const double = (response.match(DOUBLE_HIGHLIGHT) ?? []).filter((h) => h.slice(2, -2).trim());
	return single.length + double.length;
}

/** The reference strips each fence prefix in turn (Python `removeprefix`), then one "```". */
function unfenceJson(response: string): string {
	let text = response.trim();
	for (const opening of JSON_FENCE_OPENINGS) {
		if (text.startsWith(opening)) text = text.slice(opening.length);
	}
	if (text.endsWith('```')) text = text.slice(0, -3);
	return text.trim();
}

function isJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		// Python's json.loads also accepts NaN/Infinity literals; JSON.parse does not.
		return false;
	}
}

export const FORMAT_INSTRUCTIONS: InstructionTable = {
	'detectable_format:number_bullet_lists': (kwargs) => {
		const expected = intArg(kwargs, 'num_bullets');
		return (response) =>
			countMatches(response, STAR_BULLET) + countMatches(response, DASH_BULLET) === expected;
	},
	'detectable_format:constrained_response': () => (response) => {
		const text = response.trim();
		return CONSTRAINED_OPTIONS.some((option) => text.includes(option));
	},
	'detectable_format:number_highlighted_sections': (kwargs) => {
		const minimum = intArg(kwargs, 'num_highlights');
		return (response) => countHighlights(response) >= minimum;
	},
	'detectable_format:multiple_sections': (kwargs) => {
		const splitter = stringArg(kwargs, 'section_spliter').trim();
		const minimum = intArg(kwargs, 'num_sections');
		const pattern = new RegExp(`\\s?${escapeRegExp(splitter)}\\s?\\d+\\s?`, 'g');
		// re.split gives one piece more than there are splitters: sections = splitters found.
		return (response) => countMatches(response, pattern) >= minimum;
	},
	'detectable_format:json_format': () => (response) => isJson(unfenceJson(response)),
	'detectable_format:title': () => (response) =>
		(response.match(TITLE) ?? []).some((title) =>
			title.replace(/^<+/, '').replace(/>+$/, '').trim()
		)
};
