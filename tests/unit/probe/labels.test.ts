import { describe, expect, it } from 'vitest';
import { LABELS } from '../../../src/lib/probe/types.ts';
import { LABEL_INFO, binaryLabel, isGenuine } from '../../../src/lib/probe/labels.ts';

const infos = LABELS.map((label) => LABEL_INFO[label]);

describe('LABEL_INFO', () => {
	it('describes exactly the labels in LABELS, each under its own key', () => {
		expect(Object.keys(LABEL_INFO).sort()).toEqual([...LABELS].sort());
		for (const label of LABELS) expect(LABEL_INFO[label].label).toBe(label);
	});

	it('gives every label a title, a definition and a positive and a negative example', () => {
		for (const info of infos) {
			expect(info.title.trim(), info.label).not.toBe('');
			expect(info.definition.length, info.label).toBeGreaterThan(80);
			expect(info.positive.length, info.label).toBeGreaterThan(20);
			// Negative examples are close calls that say what they are instead.
			expect(info.negative, info.label).toMatch(/is NOT/);
		}
	});

	it('names a different label in every negative example, so reviewers see where it goes instead', () => {
		for (const info of infos.filter((i) => i.label !== 'judge_error')) {
			const named = LABELS.filter((l) => l !== info.label && info.negative.includes(`(${l})`));
			expect(named, info.label).toHaveLength(1);
		}
	});

	it('assigns a distinct single-character keyboard shortcut to every label', () => {
		const keys = infos.map((i) => i.key);
		for (const key of keys) expect(key).toHaveLength(1);
		expect(new Set(keys).size).toBe(LABELS.length);
	});

	it('mentions the markup the rules look for in the malformed_artifact definition', () => {
		for (const token of ['<|im_start|>', '<|eot_id|>', '<start_of_turn>', '<think>', 'User:']) {
			expect(LABEL_INFO.malformed_artifact.definition).toContain(token);
		}
	});
});

describe('binary view', () => {
	it('counts only genuine_followup as genuine', () => {
		expect(LABELS.filter(isGenuine)).toEqual(['genuine_followup']);
	});

	it.each(LABELS.map((l) => [l, l === 'genuine_followup' ? 'genuine' : 'not_genuine'] as const))(
		'maps %s to %s',
		(label, expected) => {
			expect(binaryLabel(label)).toBe(expected);
		}
	);
});
