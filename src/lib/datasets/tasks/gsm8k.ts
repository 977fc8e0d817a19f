/** GSM8K (Cobbe et al.): grade-school math word problems, the paper's main task. */
import type { DatasetItem } from '../../probe/types.ts';
import { requireString, type Row } from '../rows.ts';
import { hfSplitSource, type TaskDefinition } from './task.ts';

const NAME = 'gsm8k';

/**
 * openai/gsm8k: `{question, answer}`; the answer is the worked solution ending "#### n", kept whole
 * as gold (the scorer takes the number after the last "####").
 * @throws DatasetError when question or answer is not a string.
 */
export function normalizeGsm8kRow(row: Row, rowIdx: number, split = 'test'): DatasetItem {
	const where = `${NAME} row ${rowIdx}`;
	return {
		id: `${NAME}-${split}-${rowIdx}`,
		task: 'gsm8k',
		prompt: requireString(row, 'question', where),
		gold: requireString(row, 'answer', where)
	};
}

export const gsm8k = {
	name: NAME,
	title: 'GSM8K (test)',
	description: 'Grade-school math word problems; the answer is scored against the final number.',
	task: 'gsm8k',
	source: 'https://huggingface.co/datasets/openai/gsm8k (config main, split test)',
	rows: 1319,
	needs: {},
	option: 'GSM8K (test)',
	cliHelp: 'GSM8K test split: 1,319 math word problems, scored by the final number',
	...hfSplitSource(NAME, {
		dataset: 'openai/gsm8k',
		config: 'main',
		split: 'test',
		normalize: ({ row, row_idx }) => normalizeGsm8kRow(row, row_idx, 'test')
	})
} as const satisfies TaskDefinition;
