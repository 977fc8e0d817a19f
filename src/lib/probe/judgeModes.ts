/**
 * What each labelling mode can and cannot tell, said once for the set-up form and the CLI's help.
 * Rules-only matters most: the rules recognise failure modes, never a genuine follow-up, so every
 * turn no rule applies to stays undecided instead of being counted as genuine.
 */
import type { JudgeMode } from './types.ts';

export interface JudgeModeInfo {
	/** The option's name in the set-up form. */
	title: string;
	/** What labels come out and what the follow-up rate means under this mode. */
	tells: string;
}

export const JUDGE_MODES: Record<JudgeMode, JudgeModeInfo> = {
	hybrid: {
		title: 'Hybrid: rules for clear cases, the judge for the rest',
		tells:
			'The rules label clear failures (empty, looping, template debris, copies, planning); the LLM judge labels every other turn, so each turn gets a category and a verdict.'
	},
	rules: {
		title: 'Rules only (no judge model)',
		tells:
			'The rules recognise failure modes only. A turn none of them applies to (a real follow-up, a new task such as "Write a haiku about the ocean.", a leak whose markup a server stripped) stays undecided: counted and shown, but out of the follow-up rate, which is then genuine among what the rules could tell, and no rule ever calls a turn genuine.'
	},
	llm: {
		title: 'LLM judge for every turn',
		tells:
			'The LLM judge labels every turn with a category and a verdict; the rules are kept for comparison.'
	}
};
