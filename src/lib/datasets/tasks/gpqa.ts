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
import type { DatasetItem } from '../../probe/types.ts';
import { hashSeed, seededShuffle } from '../../probe/random.ts';
import { DatasetError } from '../errors.ts';
import { getTextWithRetry, type DatasetFetch } from '../http.ts';
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

/** The file of a subset on the Hub (`base` is for tests; the app always uses huggingface.co). */
export function gpqaCsvUrl(subset: GpqaSubset, base: string = HF_HUB): string {
	return `${base.replace(/\/+$/, '')}/datasets/${GPQA_REPO}/resolve/main/gpqa_${subset}.csv`;
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

export interface LoadGpqaOptions {
	fetch: DatasetFetch;
	token?: string;
	signal?: AbortSignal;
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
	/** Hub root for tests; the token goes to this origin and nowhere else. */
	base?: string;
}

/**
 * A GPQA subset's items, read from the Hub with the user's token.
 * @throws GpqaAccessError without a token (no request is made), or on 401/403 from the Hub.
 * @throws DatasetError on other HTTP failures or a file without the expected columns.
 * @throws AbortError when `signal` aborts.
 */
export async function loadGpqa(subset: GpqaSubset, opts: LoadGpqaOptions): Promise<DatasetItem[]> {
	const token = cleanHfToken(opts.token);
	if (token === undefined) {
		throw new GpqaAccessError(
			'no_token',
			`GPQA is gated on Hugging Face: its authors ask that the questions are not shown in plain ` +
				`text online, so reading it needs a token. Log in at huggingface.co, accept the terms at ` +
				`${GPQA_PAGE}, create a read token at ${HF_TOKENS_PAGE} and paste it here. ` +
				GPQA_IMPORT_HINT,
			{}
		);
	}
	const url = gpqaCsvUrl(subset, opts.base);
	let text: string;
	try {
		text = await getTextWithRetry(url, {
			fetch: opts.fetch,
			signal: opts.signal,
			sleep: opts.sleep,
			headers: { Authorization: `Bearer ${token}` }
		});
	} catch (err) {
		throw explainAccess(err, url);
	}
	return await parseGpqaCsv(text, subset, url);
}

function explainAccess(err: unknown, url: string): unknown {
	if (!(err instanceof DatasetError)) return err;
	const said = err.message.replace(/^HTTP \d+ from \S+: /, '');
	if (err.status === 401) {
		return new GpqaAccessError(
			'unauthorized',
			`Hugging Face did not accept the token (HTTP 401: ${said}). Check that it is the whole ` +
				`token and not revoked, or create a new read token at ${HF_TOKENS_PAGE}. ` +
				GPQA_IMPORT_HINT,
			{ url, status: 401 }
		);
	}
	if (err.status === 403) {
		return new GpqaAccessError(
			'forbidden',
			`Hugging Face knows the token but refuses GPQA (HTTP 403: ${said}). The account must ` +
				`accept the dataset's terms at ${GPQA_PAGE} (logged in, "Agree and access"); a ` +
				`fine-grained token also needs "read access to contents of all public gated repos". ` +
				GPQA_IMPORT_HINT,
			{ url, status: 403 }
		);
	}
	return err;
}

/**
 * The items of one GPQA CSV, in file order. The CSV parser loads here, with the first GPQA file:
 * the set-up view lists GPQA (this module) without needing it.
 * @throws DatasetError when a needed column is missing or a row has an empty question or option.
 */
export async function parseGpqaCsv(
	text: string,
	subset: GpqaSubset,
	url?: string
): Promise<DatasetItem[]> {
	const { default: Papa } = await import('papaparse');
	const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
		header: true,
		skipEmptyLines: 'greedy'
	});
	const fields = parsed.meta.fields ?? [];
	const missing = GPQA_COLUMNS.filter((c) => !fields.includes(c));
	if (missing.length > 0) {
		throw new DatasetError(
			`The GPQA file has no column ${missing.map((c) => `'${c}'`).join(', ')} ` +
				`(columns: ${fields.slice(0, 12).join(', ') || 'none'}).`,
			{ url }
		);
	}
	if (parsed.data.length === 0) throw new DatasetError('The GPQA file has no rows.', { url });
	const seen = new Set<string>();
	return parsed.data.map((row, i) => {
		const item = normalizeGpqaRow(row, i, subset);
		if (seen.has(item.id)) {
			throw new DatasetError(`GPQA row ${i + 1}: duplicate Record ID (${item.id}).`, { url });
		}
		seen.add(item.id);
		return item;
	});
}

/**
 * One CSV row → a multiple-choice item: the question, then the four options as "A. …" lines in
 * seeded order; gold is the letter the correct answer landed on.
 * @throws DatasetError on an empty question or option.
 */
export function normalizeGpqaRow(
	row: Record<string, string | undefined>,
	index: number,
	subset: GpqaSubset
): DatasetItem {
	const recordId = row['Record ID']?.trim();
	const id = `gpqa-${subset}-${recordId || index}`;
	const cell = (name: string): string => {
		const value = row[name]?.trim() ?? '';
		if (value === '') {
			throw new DatasetError(`GPQA row ${index + 1} (${id}): '${name}' is empty.`);
		}
		return value;
	};
	const question = cell('Question');
	const options = GPQA_COLUMNS.slice(1).map(cell);
	const order = seededShuffle([0, 1, 2, 3], hashSeed(GPQA_SHUFFLE_SALT, id));
	const choices = order.map((k) => options[k]);
	const gold = 'ABCD'[order.indexOf(0)];
	const block = choices.map((c, i) => `${'ABCD'[i]}. ${c}`).join('\n');
	return { id, task: 'multiple_choice', prompt: `${question}\n\n${block}`, gold, choices };
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
