/** IFBench (Pyatkin et al. 2025): new verifiable instructions, scored as IFEval is. */
import type { DatasetItem } from '../../probe/types.ts';
import { IFBENCH_NLP_IDS, IFBENCH_TEXT_IDS } from '../../probe/scoring/ifeval/ifbenchIds.ts';
import type { Row } from '../rows.ts';
import { normalizeIfevalRow } from './ifeval.ts';
import { hfSplitSource, type TaskDefinition } from './task.ts';

const NAME = 'ifbench';

/** The IFBench instruction types that need NLTK's English data or syllapy's dictionary. */
export { IFBENCH_NLP_IDS };

/** What the app says about IFBench scoring: what it checks, and what needs downloaded data. */
export const IFBENCH_NOTE =
	`This app checks all ${IFBENCH_TEXT_IDS.length + IFBENCH_NLP_IDS.length} of ` +
	`IFBench's instruction types, cross-checked against the reference on our own cases. ` +
	`${IFBENCH_NLP_IDS.length} of them split sentences, tag words or count syllables as the ` +
	`reference does, with NLTK's English data and syllapy's word list, which a run downloads ` +
	`from raw.githubusercontent.com first; if that fails, items using them are unscored, not ` +
	`counted wrong: ${IFBENCH_NLP_IDS.join(', ')}.`;

/**
 * allenai/IFBench_test: the same row shape as IFEval (`{key, prompt, instruction_id_list, kwargs}`)
 * with IFBench's instruction ids; scored by the same strict/loose scorer with IFBench's checkers.
 * An instruction id this app does not check is kept: the scorer leaves that item unscored.
 * @throws DatasetError as normalizeIfevalRow.
 */
export function normalizeIfbenchRow(row: Row): DatasetItem {
	return normalizeIfevalRow(row, NAME);
}

export const ifbench = {
	name: NAME,
	title: 'IFBench (test)',
	description:
		'Prompts with new verifiable instructions ("use at least 3 coordinating conjunctions", ' +
		'"every word has a consonant cluster"), scored strict and loose as IFEval.',
	task: 'ifeval',
	source: 'https://huggingface.co/datasets/allenai/IFBench_test (config default, split train)',
	rows: 300,
	note: IFBENCH_NOTE,
	needs: { nlp: true },
	option: 'IFBench (test)',
	cliHelp: 'IFBench test split: 300 prompts with new verifiable instructions',
	...hfSplitSource(NAME, {
		dataset: 'allenai/IFBench_test',
		config: 'default',
		split: 'train',
		normalize: ({ row }) => normalizeIfbenchRow(row)
	})
} as const satisfies TaskDefinition;
