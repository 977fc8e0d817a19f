/**
 * The answer edits, applied to the assistant answer before the probe renders it:
 * none (as generated), truncate (the answer stops early, at a word boundary), append (a question
 * to the user is tacked on), and the review's controls: neutral and contradict (the answer replaced
 * by a neutral or a contradicting statement) and header_only (no conversation at all, see
 * `keepsConversation`). Pure string functions, so every engine and the CLI perturb alike.
 */
import { CHOICE_LETTERS, extractChoice } from './scoring/choice.ts';
import { extractGsm8kAnswer, sameNumber } from './scoring/gsm8k.ts';
import type { DatasetItem, Perturbation } from './types.ts';

export interface PerturbParams {
	/** Share of the answer's characters (code points) to keep, in (0, 1]. */
	truncate_fraction: number;
	/** Text added after the answer, separated by a blank line. */
	append_text: string;
}

/**
 * The paper names truncation and appending. "What do you think?" is the example of a generic
 * question one summary of the paper gives (002, "such as"); the 0.5 truncation fraction is this
 * app's default, not a value taken from the paper.
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
 * The neutral control replaces the answer "with a neutral ... statement" (../shared/paper/001_*.txt,
 * the review's simulated author reply to the referee's §4 point, not the paper); no text is given,
 * so this sentence is this app's choice: it acknowledges the question without answering it or
 * inviting a reply.
 */
export const NEUTRAL_TEXT = 'Thank you for your message. I have read it.';

/**
 * The contradict control for a task without a gold answer (IFEval, open conversations): a
 * confident statement against whatever was asked. This app's wording, as is CONTRADICT_WITH.
 */
export const CONTRADICT_TEXT =
	'No. What you are asking for is wrong, and the opposite is true. I am certain of it.';

/** A confident wrong final answer, for tasks scored against a gold answer. This app's wording. */
export const CONTRADICT_WITH = (wrong: string) =>
	`I checked this carefully. I am certain the final answer is ${wrong}.`;

/**
 * Whether the probe prompt keeps the question and the (edited) answer. header_only is the review's
 * user-role fluency control, "prompts containing only the user-role token" (001_*.txt, same place):
 * the template's rendering of an empty conversation, then the bare user header.
 */
export function keepsConversation(kind: Perturbation): boolean {
	return kind !== 'header_only';
}

/** What contradict needs of the item: its scoring kind and gold answer. */
export type ContradictItem = Pick<DatasetItem, 'task' | 'gold' | 'choices'>;

/**
 * @param item The item answered; contradict states a wrong answer to it when it has a gold one.
 * @throws RangeError when truncate_fraction is outside (0, 1] or append_text is blank.
 */
export function perturbAnswer(
	answer: string,
	kind: Perturbation,
	p: PerturbParams,
	item?: ContradictItem
): string {
	switch (kind) {
		case 'none':
			return answer;
		case 'truncate':
			return truncateAtWord(answer, p.truncate_fraction);
		case 'append':
			return appendToAnswer(answer, p.append_text);
		case 'neutral':
			return NEUTRAL_TEXT;
		case 'contradict':
			return contradiction(answer, item);
		case 'header_only':
			return '';
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

/**
 * A statement that contradicts the answer. GSM8K: a number that is neither the gold answer nor the
 * model's, stated confidently (twice the gold, else gold + 1, else gold + 2); multiple choice: the
 * first option letter that is neither; otherwise CONTRADICT_TEXT.
 */
export function contradiction(answer: string, item?: ContradictItem): string {
	const wrong = item ? wrongAnswer(answer, item) : null;
	return wrong === null ? CONTRADICT_TEXT : CONTRADICT_WITH(wrong);
}

function wrongAnswer(answer: string, item: ContradictItem): string | null {
	if (item.gold === undefined) return null;
	if (item.task === 'gsm8k') {
		const gold = extractGsm8kAnswer(item.gold);
		if (gold === null) return null;
		const given = extractGsm8kAnswer(answer);
		const g = Number(gold);
		const taken = (x: string) => sameNumber(x, gold) || (given !== null && sameNumber(x, given));
		return (
			[2 * g, g + 1, g + 2].map((x) => String(Number(x.toFixed(6)))).find((x) => !taken(x)) ?? null
		);
	}
	if (item.task === 'multiple_choice') {
		const count = item.choices?.length ?? 4;
		const gold = extractChoice(item.gold, CHOICE_LETTERS.length);
		const given = extractChoice(answer, count);
		const letter = [...CHOICE_LETTERS.slice(0, count)].find((l) => l !== gold && l !== given);
		return letter === undefined || gold === null ? null : `(${letter})`;
	}
	return null;
}
