/**
 * OASST threads with the human's real next turn: a first user turn, OpenAssistant's assistant reply
 * to it (the item's fixed answer, not generated), and the reply a person wrote to that assistant
 * message (the reference turn the judge compares the generated user turn with). The loader
 * (oasstThreadsLoad.ts) says which messages are left out and why.
 */
import type { TaskDefinition } from './task.ts';

const SOURCE = { dataset: 'OpenAssistant/oasst1', config: 'default', split: 'validation' };

export const oasstThreads = {
	name: 'oasst_threads',
	title: "Conversation threads with the human's next turn (OASST1)",
	description:
		"First user turns, OpenAssistant's best-ranked reply and the real next user turn a volunteer " +
		'wrote to it: the model writes only the user turn, and the judge compares it with the ' +
		"human's. Unfiltered crowd text: a few prompts are edgy.",
	task: 'none',
	source:
		'https://huggingface.co/datasets/OpenAssistant/oasst1 (split validation, English threads ' +
		'with a human reply to the assistant)',
	needs: {},
	option: "Threads with the human's next turn (OASST1)",
	cliHelp:
		"OASST1 validation split: English first turn + OASST's reply (not generated); the human's " +
		'real next turn is compared with the generated one',
	cacheKey: `oasst_threads@${SOURCE.config}/${SOURCE.split}`,
	load: async (ctx) => (await import('./oasstThreadsLoad.ts')).loadThreads(SOURCE, ctx)
} as const satisfies TaskDefinition;
