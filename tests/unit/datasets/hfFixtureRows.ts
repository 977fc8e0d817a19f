/**
 * The local fixtures reshaped into the rows the Hugging Face datasets server returns, so the
 * normalizers are tested on the real data in its real wire shape.
 */
import { readJsonl } from '../../helpers/fixtures.ts';

export interface Gsm8kLine {
	question: string;
	answer: string;
}

export interface IfevalLine {
	key: number;
	prompt: string;
	instruction_id_list: string[];
	kwargs: Record<string, unknown>[];
}

interface OasstNode {
	message_id: string;
	parent_id?: string;
	text: string;
	role: 'prompter' | 'assistant';
	lang: string;
	review_count: number;
	review_result: boolean | null;
	deleted: boolean;
	rank?: number | null;
	synthetic: boolean;
	model_name?: string | null;
	emojis?: unknown;
	replies: OasstNode[];
}

/**
 * Every kwarg name the google/IFEval parquet schema declares. The parquet export gives each kwargs
 * entry all of them, null where the instruction does not take one.
 */
export const IFEVAL_KWARG_UNION = [
	'num_highlights',
	'relation',
	'num_words',
	'num_placeholders',
	'prompt_to_repeat',
	'num_bullets',
	'section_spliter',
	'num_sections',
	'capital_relation',
	'capital_frequency',
	'keywords',
	'num_paragraphs',
	'language',
	'let_relation',
	'letter',
	'let_frequency',
	'end_phrase',
	'forbidden_words',
	'keyword',
	'frequency',
	'num_sentences',
	'postscript_marker',
	'first_word',
	'nth_paragraph'
] as const;

export function gsm8kLines(): Gsm8kLine[] {
	return readJsonl<Gsm8kLine>('gsm8k/test.jsonl');
}

export function ifevalLines(): IfevalLine[] {
	return readJsonl<IfevalLine>('ifeval/input_data.jsonl');
}

/** An IFEval line as a parquet row: every kwargs entry padded to the full union with nulls. */
export function ifevalParquetRow(line: IfevalLine): Record<string, unknown> {
	return {
		key: line.key,
		prompt: line.prompt,
		instruction_id_list: line.instruction_id_list,
		kwargs: line.kwargs.map((entry) =>
			Object.fromEntries(IFEVAL_KWARG_UNION.map((name) => [name, entry[name] ?? null]))
		)
	};
}

/** The OASST trees flattened into oasst1's one-row-per-message columns (roots have parent_id null). */
export function oasstMessageRows(): Record<string, unknown>[] {
	const rows: Record<string, unknown>[] = [];
	const trees = readJsonl<{ message_tree_id: string; prompt: OasstNode }>(
		'oasst_conversations/en_100_tree.jsonl'
	);
	for (const tree of trees) {
		const visit = (node: OasstNode, parent: string | null) => {
			rows.push({
				message_id: node.message_id,
				parent_id: parent,
				user_id: 'u',
				created_date: '2023-02-06T00:00:00.000000+00:00',
				text: node.text,
				role: node.role,
				lang: node.lang,
				review_count: node.review_count,
				review_result: node.review_result,
				deleted: node.deleted,
				rank: node.rank ?? null,
				synthetic: node.synthetic,
				model_name: node.model_name ?? null,
				detoxify: null,
				message_tree_id: tree.message_tree_id,
				tree_state: 'ready_for_export',
				emojis: node.emojis ?? null,
				labels: null
			});
			for (const reply of node.replies) visit(reply, node.message_id);
		};
		visit(tree.prompt, null);
	}
	return rows;
}

export function oasstRootTexts(): string[] {
	return readJsonl<{ prompt: OasstNode }>('oasst_conversations/en_100_tree.jsonl').map(
		(t) => t.prompt.text
	);
}
