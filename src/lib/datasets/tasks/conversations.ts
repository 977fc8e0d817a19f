/** Open conversations: first user turns from OpenAssistant (OASST1), with no right answer. */
import type { DatasetItem } from '../../probe/types.ts';
import { DatasetError } from '../errors.ts';
import { requireString, type Row } from '../rows.ts';
import { hfSplitSource, type TaskDefinition } from './task.ts';

/**
 * OASST1 stores every message of every tree as a row. First user turns are the rows with no
 * parent; `/filter` runs this predicate in DuckDB on the server, so only those rows travel.
 * The validation split keeps the load to a few requests; train is 20× larger.
 */
export const OASST_FIRST_TURNS_WHERE = `"parent_id" IS NULL AND "lang" = 'en'`;

/**
 * OpenAssistant/oasst1 message rows. Only a first user turn becomes an item (role "prompter", no
 * parent); deleted messages and ones human reviewers rejected (`review_result: false`) are skipped,
 * as are blank texts. Returns null for every skipped row.
 * @throws DatasetError when message_id or text is not a string.
 */
export function normalizeOasstRow(row: Row): DatasetItem | null {
	const id = row.message_id;
	if (typeof id !== 'string' || id === '') {
		throw new DatasetError(`oasst row: 'message_id' is missing`);
	}
	const text = requireString(row, 'text', `oasst message ${id}`);
	const isFirstUserTurn = row.role === 'prompter' && (row.parent_id ?? null) === null;
	if (!isFirstUserTurn || row.deleted === true || row.review_result === false) return null;
	if (text.trim() === '') return null;
	return { id: `oasst-${id}`, task: 'none', prompt: text };
}

export const conversations = {
	name: 'conversations',
	title: 'Open conversations (OASST1)',
	description:
		'First user turns written by OpenAssistant volunteers, in English: open requests with no ' +
		'right answer. Unfiltered crowd text: a few prompts are edgy.',
	task: 'none',
	source: 'https://huggingface.co/datasets/OpenAssistant/oasst1 (split validation, English roots)',
	needs: {},
	option: 'Open conversations (OASST1)',
	cliHelp: 'OASST1 validation split: English first user turns, open requests (not scored)',
	...hfSplitSource('conversations', {
		dataset: 'OpenAssistant/oasst1',
		config: 'default',
		split: 'validation',
		where: OASST_FIRST_TURNS_WHERE,
		normalize: ({ row }) => normalizeOasstRow(row)
	})
} as const satisfies TaskDefinition;
