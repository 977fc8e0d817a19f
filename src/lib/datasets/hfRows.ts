/**
 * Pages a whole split out of the Hugging Face datasets server (`/rows`, or `/filter` with a SQL
 * `where`), so the browser gets full datasets without downloading parquet files. Network is
 * injected: the app passes `fetch`, tests pass a fake.
 */
import { DatasetError } from './errors.ts';
import { getJsonWithRetry, type DatasetFetch } from './http.ts';

export const HF_DATASETS_SERVER = 'https://datasets-server.huggingface.co';
/** The server's documented maximum `length` per call. */
export const PAGE_ROWS_MAX = 100;

export interface FetchRowsOptions {
	/** e.g. "openai/gsm8k". */
	dataset: string;
	config: string;
	split: string;
	/** A DuckDB SQL predicate; switches to the `/filter` endpoint. */
	where?: string;
	/** Stop after this many rows (a non-negative integer); default: the whole split. */
	limit?: number;
	fetch: DatasetFetch;
	signal?: AbortSignal;
	/** HF token for gated or private datasets; sent as a Bearer header. */
	token?: string;
	/** Called after each page with rows so far and the rows this load will fetch in all. */
	onProgress?: (done: number, total: number) => void;
	/** Injected so retry tests do not wait; defaults to setTimeout. */
	sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
	/** Server root, for mirrors and tests; defaults to HF_DATASETS_SERVER. */
	base?: string;
	/** One request's wait for an answer; defaults to net/httpGet.ts REQUEST_TIMEOUT_MS. */
	timeoutMs?: number;
	/** One page's whole download; defaults to net/httpGet.ts DOWNLOAD_DEADLINE_MS. */
	deadlineMs?: number;
}

/** One row as the server returns it. `row_idx` is the row's index in the split, also for /filter. */
export interface HfRow {
	row_idx: number;
	row: Record<string, unknown>;
}

/**
 * Every row of a split (or of its `where` subset), in server order.
 * @throws DatasetError on a 4xx, exhausted retries, or a response of the wrong shape.
 * @throws AbortError when `signal` aborts.
 * @throws RangeError when `limit` is not a non-negative integer.
 */
export async function fetchAllRows(opts: FetchRowsOptions): Promise<Record<string, unknown>[]> {
	return (await fetchAllRowEntries(opts)).map((entry) => entry.row);
}

/** Like fetchAllRows but keeps `row_idx`, which stable item ids are built from. */
export async function fetchAllRowEntries(opts: FetchRowsOptions): Promise<HfRow[]> {
	const limit = opts.limit ?? Number.POSITIVE_INFINITY;
	if (limit !== Number.POSITIVE_INFINITY && !(Number.isInteger(limit) && limit >= 0)) {
		throw new RangeError(`limit must be a non-negative integer, got ${opts.limit}.`);
	}
	const headers: Record<string, string> = opts.token
		? { Authorization: `Bearer ${opts.token}` }
		: {};
	const out: HfRow[] = [];
	let total = Number.POSITIVE_INFINITY;
	let pageRows = PAGE_ROWS_MAX;
	while (out.length < Math.min(total, limit)) {
		const offset = out.length;
		const length = Math.min(pageRows, limit - offset);
		const url = rowsUrl(opts, offset, length);
		const page = parsePage(
			await getJsonWithRetry(url, {
				fetch: opts.fetch,
				signal: opts.signal,
				headers,
				sleep: opts.sleep,
				timeoutMs: opts.timeoutMs,
				deadlineMs: opts.deadlineMs
			}),
			url
		);
		total = page.num_rows_total;
		if (page.rows.some((r) => r.truncated)) {
			// The server shortens cells when a page is too big; smaller pages come back whole.
			if (length === 1) {
				throw new DatasetError(`Row ${offset} is too large to load without truncation: ${url}`, {
					url
				});
			}
			pageRows = Math.ceil(length / 2);
			continue;
		}
		if (page.rows.length === 0 && offset < Math.min(total, limit)) {
			throw new DatasetError(
				`The server reported ${total} rows but returned none at offset ${offset}: ${url}`,
				{ url }
			);
		}
		out.push(...page.rows.slice(0, limit - offset).map(({ row_idx, row }) => ({ row_idx, row })));
		opts.onProgress?.(out.length, Math.min(total, limit));
	}
	return out;
}

/** The request for one page; `/filter` when there is a `where`. */
export function rowsUrl(
	opts: Pick<FetchRowsOptions, 'dataset' | 'config' | 'split' | 'where' | 'base'>,
	offset: number,
	length: number
): string {
	const params = new URLSearchParams({
		dataset: opts.dataset,
		config: opts.config,
		split: opts.split
	});
	if (opts.where !== undefined) params.set('where', opts.where);
	params.set('offset', String(offset));
	params.set('length', String(length));
	const base = (opts.base ?? HF_DATASETS_SERVER).replace(/\/+$/, '');
	return `${base}/${opts.where === undefined ? 'rows' : 'filter'}?${params}`;
}

interface Page {
	num_rows_total: number;
	rows: (HfRow & { truncated: boolean })[];
}

function parsePage(body: unknown, url: string): Page {
	const bad = (what: string) =>
		new DatasetError(`Unexpected response from ${url}: ${what}.`, { url });
	if (!isObject(body)) throw bad('not a JSON object');
	if (typeof body.num_rows_total !== 'number') throw bad('no numeric num_rows_total');
	if (!Array.isArray(body.rows)) throw bad('no rows array');
	const rows = body.rows.map((entry: unknown, i: number) => {
		if (!isObject(entry) || typeof entry.row_idx !== 'number' || !isObject(entry.row)) {
			throw bad(`rows[${i}] is not {row_idx, row}`);
		}
		const truncated = Array.isArray(entry.truncated_cells) && entry.truncated_cells.length > 0;
		return { row_idx: entry.row_idx, row: entry.row, truncated };
	});
	return { num_rows_total: body.num_rows_total, rows };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
