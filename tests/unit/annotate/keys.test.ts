import { describe, expect, it } from 'vitest';
import {
	HUMAN_CHOICES,
	HUMAN_LABELS,
	keyAction,
	UNGROUNDED_KEY,
	type KeyPress
} from '../../../src/lib/annotate/keys.ts';
import { LABEL_INFO } from '../../../src/lib/probe/labels.ts';

describe('keyAction', () => {
	it('maps every human label to its LABEL_INFO key, and judge_error to none', () => {
		expect(HUMAN_LABELS).not.toContain('judge_error');
		for (const label of HUMAN_LABELS) {
			const verdict = label === 'genuine_followup' ? 'genuine' : 'not_genuine';
			expect(keyAction({ key: LABEL_INFO[label].key })).toEqual({ type: 'label', label, verdict });
		}
		expect(keyAction({ key: LABEL_INFO.judge_error.key })).toBe(null);
	});

	it('gives a plausible follow-up either verdict, each on its own key, and a failure never genuine', () => {
		expect(keyAction({ key: UNGROUNDED_KEY })).toEqual({
			type: 'label',
			label: 'genuine_followup',
			verdict: 'not_genuine'
		});
		const genuine = HUMAN_CHOICES.filter((c) => c.verdict === 'genuine');
		expect(genuine.map((c) => c.label)).toEqual(['genuine_followup']);
		const keys = HUMAN_CHOICES.map((c) => c.key);
		expect(new Set(keys).size).toBe(keys.length);
		expect(keys).not.toContain(LABEL_INFO.judge_error.key);
		expect(keys).not.toContain(LABEL_INFO.undecided.key);
	});

	it.each<[string, KeyPress, ReturnType<typeof keyAction>]>([
		['u undoes', { key: 'u' }, { type: 'undo' }],
		['U (caps lock) undoes', { key: 'U' }, { type: 'undo' }],
		['Ctrl+Z undoes', { key: 'z', ctrlKey: true }, { type: 'undo' }],
		['Cmd+Z undoes', { key: 'z', metaKey: true }, { type: 'undo' }],
		['Ctrl+Shift+Z is left to the browser', { key: 'Z', ctrlKey: true, shiftKey: true }, null],
		['Ctrl+1 is left to the browser (tab switch)', { key: '1', ctrlKey: true }, null],
		['s skips', { key: 's' }, { type: 'skip' }],
		['? toggles help', { key: '?', shiftKey: true }, { type: 'help' }],
		['Escape closes', { key: 'Escape' }, { type: 'close' }],
		['a held key does nothing', { key: '1', repeat: true }, null],
		['Alt+1 does nothing', { key: '1', altKey: true }, null],
		['other keys are not ours', { key: 'Tab' }, null]
	])('%s', (_name, press, expected) => {
		expect(keyAction(press)).toEqual(expected);
	});
});
