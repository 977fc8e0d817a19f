/**
 * GPQA (Rein et al.) from its gated Hugging Face repository, Idavidrein/gpqa. Its files are CSVs
 * (gpqa_diamond.csv, gpqa_main.csv) with the columns Question, Correct Answer and Incorrect
 * Answer 1–3. Reading them needs a Hugging Face token whose account accepted the dataset's terms.
 *
 * The token is the user's: it is sent only to the Hub (https://huggingface.co, as an
 * Authorization header), never to a model server, and never written into a run, manifest or
 * export (the caller keeps it out of ProbeConfig; exchangeShapes also strips "hf_token" keys).
 *
 * The correct answer is not always first in the file, but it is always the same column; so the
 * four options are shuffled per item, seeded by the item id, and the gold letter follows them.
 */
import { DatasetError } from '../errors.ts';
import type { TaskDefinition } from './task.ts';

export const GPQA_SUBSETS = ['diamond', 'main'] as const;
export type GpqaSubset = (typeof GPQA_SUBSETS)[number];

export const GPQA_REPO = 'Idavidrein/gpqa';
export const HF_HUB = 'https://huggingface.co';
export const GPQA_PAGE = `${HF_HUB}/datasets/${GPQA_REPO}`;
export const HF_TOKENS_PAGE = `${HF_HUB}/settings/tokens`;
export const GPQA_ROWS: Record<GpqaSubset, number> = { diamond: 198, main: 448 };

/** The columns an item is built from; a file lacking any of them is refused. */
export const GPQA_COLUMNS = [
	'Question',
	'Correct Answer',
	'Incorrect Answer 1',
	'Incorrect Answer 2',
	'Incorrect Answer 3'
] as const;

/** First part of every shuffle seed; with the item id it fixes the option order for good. */
export const GPQA_SHUFFLE_SALT = 'gpqa-choices';

/** What the UI and the manifest say about how GPQA items are built. */
export const GPQA_CHOICE_NOTE =
	'GPQA options are shuffled per item (seed: hashSeed("gpqa-choices", item id), Fisher–Yates with ' +
	'mulberry32), so the correct answer is not always A; the order is the same in every run. ' +
	'Scored by the multiple-choice scorer (the letter the answer commits to).';

/** Said wherever GPQA cannot load: the import path works without a token. */
export const GPQA_IMPORT_HINT =
	'You can also import GPQA yourself as a multiple-choice file (question, choices, answer).';

/** Why GPQA could not be read, for the UI to explain; every message says how to get access. */
export type GpqaAccessReason = 'no_token' | 'bad_token' | 'unauthorized' | 'forbidden';

export class GpqaAccessError extends DatasetError {
	readonly reason: GpqaAccessReason;
	constructor(reason: GpqaAccessReason, message: string, opts: { url?: string; status?: number }) {
		super(message, { ...opts, code: 'gpqa_access' });
		this.name = 'GpqaAccessError';
		this.reason = reason;
	}
}

/**
 * A pasted token, cleaned: surrounding whitespace (a copied newline) is dropped; empty is
 * undefined. A token with whitespace inside is not a token and would be refused as a header.
 * @throws GpqaAccessError('bad_token') for whitespace inside.
 */
export function cleanHfToken(raw: string | undefined): string | undefined {
	const token = raw?.trim() ?? '';
	if (token === '') return undefined;
	if (/\s/.test(token)) {
		throw new GpqaAccessError(
			'bad_token',
			'The Hugging Face token has a space or line break inside it: paste the token alone ' +
				`(it starts with "hf_"). Tokens are at ${HF_TOKENS_PAGE}. ${GPQA_IMPORT_HINT}`,
			{}
		);
	}
	return token;
}

/** Both subsets are gated the same way. */
const GPQA_TOKEN_NEED = {
	family: 'GPQA',
	page: GPQA_PAGE,
	why:
		'Its authors gate it on Hugging Face and ask that the questions are not shown in plain text ' +
		'online, so this app cannot ship it.',
	importHint: GPQA_IMPORT_HINT
};

function gpqaTask<const Name extends string>(name: Name, subset: GpqaSubset, title: string) {
	return {
		name,
		title,
		task: 'multiple_choice',
		source: `${GPQA_PAGE} (gpqa_${subset}.csv)`,
		rows: GPQA_ROWS[subset],
		note: GPQA_CHOICE_NOTE,
		needs: { hfToken: GPQA_TOKEN_NEED },
		option: title,
		cliHelp: `${title}: ${GPQA_ROWS[subset]} science questions, four options`,
		cacheKey: `${name}@gpqa_${subset}.csv`,
		async load(ctx) {
			// The loader (download, CSV, rows) loads with the first GPQA file, not with set-up's list.
			const { loadGpqa } = await import('./gpqaLoad.ts');
			const items = await loadGpqa(subset, {
				fetch: ctx.fetch,
				token: ctx.token,
				signal: ctx.signal,
				sleep: ctx.sleep,
				base: ctx.hubBase
			});
			ctx.onProgress?.(items.length, items.length);
			return items;
		}
	} satisfies Omit<TaskDefinition, 'description'>;
}

export const gpqaDiamond = {
	...gpqaTask('gpqa_diamond', 'diamond', 'GPQA Diamond'),
	description:
		'198 graduate-level science questions with four options. Gated: needs a Hugging Face ' +
		'token whose account accepted the terms.'
} as const satisfies TaskDefinition;

export const gpqaMain = {
	...gpqaTask('gpqa_main', 'main', 'GPQA Main'),
	description:
		'448 graduate-level science questions with four options (Diamond is a subset). Gated: ' +
		'needs a Hugging Face token whose account accepted the terms.'
} as const satisfies TaskDefinition;
