/**
 * The answer edits, applied to the assistant answer before the probe renders it:
 * none (as generated), truncate (the answer stops early, at a word boundary) and append (a question
 * to the user is tacked on). Pure string functions, so every engine and the CLI perturb alike.
 */
import type { Perturbation } from './types.ts';

export interface PerturbParams {
	/** Share of the answer's characters (code points) to keep, in (0, 1]. */
	truncate_fraction: number;
	/** Text added after the answer, separated by a blank line. */
	append_text: string;
}

/**
 * The paper names truncation and appending. "What do you think?" is the question it appends, as
 * one summary of the paper gives it; the 0.5 truncation fraction is this app's default, not a
 * value taken from the paper.
 */
export const DEFAULT_PERTURB_PARAMS: PerturbParams = {
	truncate_fraction: 0.5,
	append_text: 'What do you think?'
};

/**
 * Always a blank line: answers are usually multi-line (GSM8K working ends with "#### 18"), and a
 * paragraph of its own keeps the appended question from reading as part of the last line.
 */
export const APPEND_SEPARATOR = '\n\n';

/**
 * @throws RangeError when truncate_fraction is outside (0, 1] or append_text is blank.
 */
export function perturbAnswer(answer: string, kind: Perturbation, p: PerturbParams): string {
	switch (kind) {
		case 'none':
			return answer;
		case 'truncate':
			return truncateAtWord(answer, p.truncate_fraction);
		case 'append':
			return appendToAnswer(answer, p.append_text);
		default: {
			const unknown: never = kind;
			throw new RangeError(`Unknown perturbation ${JSON.stringify(unknown)}`);
		}
	}
}

/**
 * The truncate edit. Keep the first `fraction` of the code points, cut back to the last word boundary at or before
 * that point, without trailing whitespace. Word boundaries come from Intl.Segmenter, so text without
 * spaces (Chinese, Japanese) is cut between words too. A cut never splits a word, number ("18.50")
 * or emoji; when the first word alone is longer than the cut, the first word is kept, so a
 * non-empty answer never becomes empty. An answer with no word boundary at all is kept whole.
 * @throws RangeError when fraction is outside (0, 1].
 */
export function truncateAtWord(answer: string, fraction: number): string {
	if (!(fraction > 0 && fraction <= 1)) {
		throw new RangeError(`truncate_fraction must be in (0, 1], got ${fraction}`);
	}
	if (fraction === 1 || answer.trim() === '') return answer;
	const codePoints = Array.from(answer);
	const target = codePoints.slice(0, Math.floor(codePoints.length * fraction)).join('').length;
	const cuts = wordCuts(answer).filter((at) => answer.slice(0, at).trim() !== '');
	const before = cuts.filter((at) => at <= target);
	const at = before.length > 0 ? before[before.length - 1] : cuts[0];
	return at === undefined ? answer : answer.slice(0, at).trimEnd();
}

/**
 * Positions (UTF-16 offsets) where a cut ends a word: next to whitespace, or between two word-like
 * segments that touch (languages written without spaces). Not between "3" and "/4" or "muffins"
 * and ",": cutting there would leave a fragment of one visual token.
 */
function wordCuts(text: string): number[] {
	const segments = Array.from(wordSegmenter().segment(text));
	const cuts: number[] = [];
	for (let i = 1; i < segments.length; i++) {
		const prev = segments[i - 1];
		const next = segments[i];
		const bySpace = prev.segment.trim() === '' || next.segment.trim() === '';
		if (bySpace || (prev.isWordLike && next.isWordLike)) cuts.push(next.index);
	}
	return cuts;
}

let segmenter: Intl.Segmenter | undefined;

/** Created on first use (nothing runs at import) and reused: construction loads ICU data. */
function wordSegmenter(): Intl.Segmenter {
	segmenter ??= new Intl.Segmenter('en', { granularity: 'word' });
	return segmenter;
}

function appendToAnswer(answer: string, text: string): string {
	if (text.trim() === '') throw new RangeError('append_text must not be blank');
	const body = answer.trimEnd();
	return body === '' ? text : body + APPEND_SEPARATOR + text;
}
