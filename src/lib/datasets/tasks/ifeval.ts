/** IFEval (Zhou et al. 2023): prompts with instructions a program can check. */
import type { DatasetItem } from '../../probe/types.ts';
import { DatasetError } from '../errors.ts';
import { dropNulls, requireString, type Row } from '../rows.ts';
import { hfSplitSource, type TaskDefinition } from './task.ts';

const NAME = 'ifeval';

/** An IFEval prompt's item id from its `key`; a user's own IFEval file gets the same ids. */
export function ifevalItemId(key: string | number): string {
	return `${NAME}-${key}`;
}

/**
 * google/IFEval: `{key, prompt, instruction_id_list, kwargs}`. In the parquet export each kwargs
 * entry is a struct with the union of every kwarg name and null for the ones an instruction does
 * not take; dropping the nulls restores the original objects (no real kwarg value is null).
 * `name` prefixes ids and messages: IFBench rows have the same shape.
 * @throws DatasetError on a missing key/prompt or kwargs that do not pair with the instruction ids.
 */
export function normalizeIfevalRow(row: Row, name: string = NAME): DatasetItem {
	const key = row.key;
	if (typeof key !== 'number' && typeof key !== 'string') {
		throw new DatasetError(`${name} row: 'key' is missing or not a number`);
	}
	const where = `${name} key ${key}`;
	const ids = row.instruction_id_list;
	if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) {
		throw new DatasetError(`${where}: 'instruction_id_list' is not a list of strings`);
	}
	const kwargs = row.kwargs;
	if (!Array.isArray(kwargs) || kwargs.length !== ids.length) {
		throw new DatasetError(`${where}: 'kwargs' must be a list as long as 'instruction_id_list'`);
	}
	return {
		id: `${name}-${key}`,
		task: 'ifeval',
		prompt: requireString(row, 'prompt', where),
		instruction_ids: ids,
		kwargs: kwargs.map((entry: unknown, i: number) => dropNulls(entry, `${where}: kwargs[${i}]`))
	};
}

export const ifeval = {
	name: NAME,
	title: 'IFEval',
	description: 'Prompts with verifiable instructions ("answer in under 100 words", "no commas").',
	task: 'ifeval',
	source: 'https://huggingface.co/datasets/google/IFEval (config default, split train)',
	rows: 541,
	note:
		"Sentence counts and capital-word counts are NLTK's, as in the reference, with its English " +
		'data, which a run downloads from raw.githubusercontent.com first; if that fails, they ' +
		'are approximated.',
	needs: { nlp: true },
	option: 'IFEval',
	cliHelp: 'IFEval: 541 prompts with verifiable instructions',
	...hfSplitSource(NAME, {
		dataset: 'google/IFEval',
		config: 'default',
		split: 'train',
		normalize: ({ row }) => normalizeIfevalRow(row)
	})
} as const satisfies TaskDefinition;
