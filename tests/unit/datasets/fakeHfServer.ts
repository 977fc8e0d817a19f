/**
 * A scripted stand-in for datasets-server.huggingface.co: serves `/rows` and `/filter` pages from
 * an in-memory split, records every URL, and can fail chosen calls. No network.
 */
import type { DatasetFetch as FetchLike } from '../../../src/lib/datasets/http.ts';
import type { JsonResponseLike as FetchResponseLike } from '../../../src/lib/net/fetch.ts';

export type Failure =
	{ status: number; body?: string; retryAfter?: string } | { throws: Error } | { json: unknown };

export interface FakeServerOptions {
	/** Failures by 0-based call number; calls not listed succeed. */
	failures?: Record<number, Failure>;
	/**
	 * `/filter` support: which rows a `where` selects (the server runs DuckDB; we take a predicate,
	 * given the request's `where`, e.g. duckWhere's). A predicate that throws InvalidWhere gets the
	 * server's 422.
	 */
	filter?: (row: Record<string, unknown>, where: string) => boolean;
	/** Pages longer than this come back with truncated cells, as the real server does. */
	truncateAbove?: number;
}

export interface FakeServer {
	fetch: FetchLike;
	calls: string[];
	/** Headers of each call, in order. */
	headers: (Record<string, string> | undefined)[];
}

export function fakeHfServer(
	split: Record<string, unknown>[],
	opts: FakeServerOptions = {}
): FakeServer {
	const calls: string[] = [];
	const headers: (Record<string, string> | undefined)[] = [];
	const fetch: FetchLike = async (url, init) => {
		const n = calls.length;
		calls.push(url);
		headers.push(init?.headers);
		if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
		const failure = opts.failures?.[n];
		if (failure && 'throws' in failure) throw failure.throws;
		if (failure && 'status' in failure) {
			return response(failure.status, failure.body ?? '{"error":"scripted failure"}', {
				'retry-after': failure.retryAfter ?? null
			});
		}
		if (failure && 'json' in failure) return response(200, JSON.stringify(failure.json));
		const u = new URL(url);
		const offset = Number(u.searchParams.get('offset'));
		const length = Number(u.searchParams.get('length'));
		if (length > 100) return response(422, '{"error":"Parameter \'length\' must be <= 100"}');
		const indexed = split.map((row, row_idx) => ({ row_idx, row }));
		const where = u.searchParams.get('where') ?? '';
		let selected = indexed;
		try {
			if (u.pathname === '/filter' && opts.filter) {
				selected = indexed.filter((r) => opts.filter?.(r.row, where));
			}
		} catch (err) {
			if (!(err instanceof InvalidWhere)) throw err;
			return response(422, '{"error":"Parameter \'where\' is invalid"}');
		}
		const truncate = opts.truncateAbove !== undefined && length > opts.truncateAbove;
		const rows = selected.slice(offset, offset + length).map((r) => ({
			...r,
			truncated_cells: truncate ? Object.keys(r.row).slice(0, 1) : []
		}));
		const features = Object.keys(split[0] ?? {}).map((name, feature_idx) => ({
			feature_idx,
			name,
			type: { dtype: 'string', _type: 'Value' }
		}));
		return response(
			200,
			JSON.stringify({
				features,
				rows,
				num_rows_total: selected.length,
				num_rows_per_page: 100,
				partial: false
			})
		);
	};
	return { fetch, calls, headers };
}

/** A `where` the fake cannot read, as DuckDB on the server would refuse it. */
export class InvalidWhere extends Error {
	constructor(where: string) {
		super(`cannot read where: ${where}`);
		this.name = 'InvalidWhere';
	}
}

const QUOTED = /'((?:[^']|'')*)'/g;

/**
 * The part of DuckDB's SQL our loaders send, as a row predicate: `"col" = 'x'`, `"col" IS NULL`
 * and `"col" IN ('a', 'b')` joined by AND. Anything else throws InvalidWhere.
 */
export function duckWhere(where: string): (row: Record<string, unknown>) => boolean {
	const tests = where.split(/\s+AND\s+(?=")/).map((part) => {
		const m = /^"(\w+)"\s+(=|IN|IS NULL)\s*(.*)$/s.exec(part.trim());
		if (!m) throw new InvalidWhere(where);
		const [, col, op, rest] = m;
		if (op === 'IS NULL' && rest === '') return (row: Record<string, unknown>) => row[col] == null;
		const values = [...rest.matchAll(QUOTED)].map((v) => v[1].replaceAll("''", "'"));
		if (op === '=' && /^'(?:[^']|'')*'$/.test(rest)) {
			return (row: Record<string, unknown>) => row[col] === values[0];
		}
		if (op === 'IN' && /^\((\s*'(?:[^']|'')*'\s*,?)+\)$/.test(rest)) {
			const set = new Set(values);
			return (row: Record<string, unknown>) => typeof row[col] === 'string' && set.has(row[col]);
		}
		throw new InvalidWhere(where);
	});
	return (row) => tests.every((t) => t(row));
}

function response(
	status: number,
	body: string,
	hdrs: Record<string, string | null> = {}
): FetchResponseLike {
	return {
		ok: status >= 200 && status < 300,
		status,
		json: async () => JSON.parse(body) as unknown,
		text: async () => body,
		headers: { get: (name) => hdrs[name.toLowerCase()] ?? null }
	};
}

/** A sleep that returns at once and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
	const waits: number[] = [];
	return {
		waits,
		sleep: async (ms) => {
			waits.push(ms);
		}
	};
}
