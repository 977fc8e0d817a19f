/**
 * The annotation view's keyboard: one key per human label (LABEL_INFO[label].key), u or Ctrl+Z to
 * undo, s to skip, ? for the label guide. Pure, so the mapping is tested without a DOM.
 */
import { LABEL_INFO } from '../probe/labels.ts';
import { LABELS, type Label } from '../probe/types.ts';

/**
 * judge_error says the judge failed and undecided that nobody was asked; neither is a property of
 * the turn a human could see.
 */
export const HUMAN_LABELS: readonly Label[] = LABELS.filter(
	(l) => l !== 'judge_error' && l !== 'undecided'
);

export type KeyAction =
	| { type: 'label'; label: Label }
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

const BY_KEY = new Map(HUMAN_LABELS.map((l) => [LABEL_INFO[l].key, l]));

/** The action for a key press, or null when the key is not ours (let the browser have it). */
export function keyAction(e: KeyPress): KeyAction | null {
	if (e.repeat || e.altKey) return null;
	const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
	// Ctrl+Shift+Z is redo elsewhere: not ours.
	if (e.ctrlKey || e.metaKey) return key === 'z' && !e.shiftKey ? { type: 'undo' } : null;
	const label = BY_KEY.get(key);
	if (label !== undefined) return { type: 'label', label };
	if (key === 'u') return { type: 'undo' };
	if (key === 's') return { type: 'skip' };
	if (key === '?') return { type: 'help' };
	if (key === 'Escape') return { type: 'close' };
	return null;
}
