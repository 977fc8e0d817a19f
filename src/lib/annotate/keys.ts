/**
 * The annotation view's keyboard: one key per human choice (a category with its verdict), u or
 * Ctrl+Z to undo, s to skip, ? for the label guide. Pure, so the mapping is tested without a DOM.
 */
import { LABEL_INFO } from '../probe/labels.ts';
import { LABELS, type HumanVerdict, type Label } from '../probe/types.ts';

/**
 * judge_error says the judge failed and undecided that nobody was asked; neither is a property of
 * the turn a human could see.
 */
export const HUMAN_LABELS: readonly Label[] = LABELS.filter(
	(l) => l !== 'judge_error' && l !== 'undecided'
);

/** One button of the label pad: the category and the verdict a human gives together. */
export interface HumanChoice {
	label: Label;
	verdict: HumanVerdict;
	key: string;
	title: string;
}

/**
 * The plausible follow-up that is not grounded (an unrelated new request, a generic reply): its
 * own key, since the verdict is decided apart from the category (GENUINE_CRITERIA).
 */
export const UNGROUNDED_KEY = '0';

/**
 * What a human can give: a failure category (not genuine by definition), or a plausible follow-up
 * with either verdict. The verdict is the paper's validated decision, so every label carries one.
 */
export const HUMAN_CHOICES: readonly HumanChoice[] = HUMAN_LABELS.flatMap((label) => {
	const { key, title } = LABEL_INFO[label];
	if (LABEL_INFO[label].genuine !== true) {
		return [{ label, verdict: 'not_genuine' as const, key, title }];
	}
	return [
		{ label, verdict: 'genuine' as const, key, title: `${title}: genuine` },
		{
			label,
			verdict: 'not_genuine' as const,
			key: UNGROUNDED_KEY,
			title: `${title}: not genuine (ungrounded, generic or a new task)`
		}
	];
});

export type KeyAction =
	| { type: 'label'; label: Label; verdict: HumanVerdict }
	| { type: 'undo' }
	| { type: 'skip' }
	| { type: 'help' }
	| { type: 'close' };

/** The parts of a KeyboardEvent the mapping reads. */
export interface KeyPress {
	key: string;
	ctrlKey?: boolean;
	metaKey?: boolean;
	altKey?: boolean;
	shiftKey?: boolean;
	/** A held key auto-repeats: it must not label the next five items too. */
	repeat?: boolean;
}

const BY_KEY = new Map(HUMAN_CHOICES.map((c) => [c.key, c]));

/** The action for a key press, or null when the key is not ours (let the browser have it). */
export function keyAction(e: KeyPress): KeyAction | null {
	if (e.repeat || e.altKey) return null;
	const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
	// Ctrl+Shift+Z is redo elsewhere: not ours.
	if (e.ctrlKey || e.metaKey) return key === 'z' && !e.shiftKey ? { type: 'undo' } : null;
	const choice = BY_KEY.get(key);
	if (choice !== undefined) return { type: 'label', label: choice.label, verdict: choice.verdict };
	if (key === 'u') return { type: 'undo' };
	if (key === 's') return { type: 'skip' };
	if (key === '?') return { type: 'help' };
	if (key === 'Escape') return { type: 'close' };
	return null;
}
