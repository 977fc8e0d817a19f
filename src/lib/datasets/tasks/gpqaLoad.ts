/**
 * Reading a GPQA subset: the gated download with the user's token, the CSV and its rows. Split from
 * gpqa.ts (the task's listing, its constants and the token check) so that set-up, which lists GPQA,
 * does not load this; the task's load() imports it with the first GPQA file.
 */
import type { DatasetItem } from '../../probe/types.ts';
import { hashSeed, seededShuffle } from '../../probe/random.ts';
import { DatasetError } from '../errors.ts';
import { getTextWithRetry, type DatasetFetch } from '../http.ts';
import {
	cleanHfToken,
	GPQA_COLUMNS,
	GPQA_IMPORT_HINT,
	GPQA_PAGE,
	GPQA_REPO,
	GPQA_SHUFFLE_SALT,
	GpqaAccessError,
	HF_HUB,
	HF_TOKENS_PAGE,
	type GpqaSubset
} from './gpqa.ts';

/** The file of a subset on the Hub (`base` is for tests; the app always uses huggingface.co). */
export function gpqaCsvUrl(subset: GpqaSubset, base: string = HF_HUB): string {
	return `${base.replace(/\/+$/, '')}/datasets/${GPQA_REPO}/resolve/main/gpqa_${subset}.csv`;
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
