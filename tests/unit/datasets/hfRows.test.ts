import { describe, expect, it } from 'vitest';
import { fetchAllRowEntries, fetchAllRows, rowsUrl } from '../../../src/lib/datasets/hfRows.ts';
import type { DatasetFetch as FetchLike } from '../../../src/lib/datasets/http.ts';
import { ATTEMPTS_MAX } from '../../../src/lib/net/httpGet.ts';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { fakeHfServer, recordingSleep } from './fakeHfServer.ts';

const GSM8K = { dataset: 'openai/gsm8k', config: 'main', split: 'test' };

function split(n: number): Record<string, unknown>[] {
	return Array.from({ length: n }, (_, i) => ({ question: `q${i}`, answer: `#### ${i}` }));
}

function params(url: string): Record<string, string> {
	return Object.fromEntries(new URL(url).searchParams);
}

describe('fetchAllRows paging', () => {
	it('pages a 1,319-row split in 14 calls of at most 100 rows and keeps server order', async () => {
		const server = fakeHfServer(split(1319));
		const rows = await fetchAllRows({ ...GSM8K, fetch: server.fetch });
		expect(rows).toHaveLength(1319);
		expect(rows[0]).toEqual({ question: 'q0', answer: '#### 0' });
		expect(rows[1318]).toEqual({ question: 'q1318', answer: '#### 1318' });
		expect(server.calls).toHaveLength(14);
		expect(server.calls.map((u) => Number(params(u).offset))).toEqual(
			Array.from({ length: 14 }, (_, i) => i * 100)
		);
		expect(server.calls.every((u) => Number(params(u).length) <= 100)).toBe(true);
	});

	it('asks the /rows endpoint with dataset, config, split, offset and length', async () => {
		const server = fakeHfServer(split(3));
		await fetchAllRows({ ...GSM8K, fetch: server.fetch });
		expect(server.calls).toEqual([
			'https://datasets-server.huggingface.co/rows?dataset=openai%2Fgsm8k&config=main&split=test&offset=0&length=100'
		]);
	});

	it('stops at the limit and asks only for the rows it still needs', async () => {
		const server = fakeHfServer(split(1319));
		const rows = await fetchAllRows({ ...GSM8K, limit: 250, fetch: server.fetch });
		expect(rows).toHaveLength(250);
		expect(server.calls.map((u) => params(u).length)).toEqual(['100', '100', '50']);
	});

	it('makes no request for a limit of 0 and rejects a fractional limit', async () => {
		const server = fakeHfServer(split(10));
		expect(await fetchAllRows({ ...GSM8K, limit: 0, fetch: server.fetch })).toEqual([]);
		expect(server.calls).toHaveLength(0);
		await expect(fetchAllRows({ ...GSM8K, limit: 2.5, fetch: server.fetch })).rejects.toThrow(
			RangeError
		);
	});

	it('returns an empty list for an empty split after one request', async () => {
		const server = fakeHfServer([]);
		expect(await fetchAllRows({ ...GSM8K, fetch: server.fetch })).toEqual([]);
		expect(server.calls).toHaveLength(1);
	});

	it('reports progress after every page against the rows this load will fetch', async () => {
		const server = fakeHfServer(split(541));
		const seen: [number, number][] = [];
		await fetchAllRows({
			...GSM8K,
			fetch: server.fetch,
			onProgress: (done, total) => seen.push([done, total])
		});
		expect(seen).toEqual([
			[100, 541],
			[200, 541],
			[300, 541],
			[400, 541],
			[500, 541],
			[541, 541]
		]);
		const limited: [number, number][] = [];
		await fetchAllRows({
			...GSM8K,
			limit: 150,
			fetch: fakeHfServer(split(541)).fetch,
			onProgress: (done, total) => limited.push([done, total])
		});
		expect(limited).toEqual([
			[100, 150],
			[150, 150]
		]);
	});

	it('uses /filter with the where clause and keeps each row_idx from the full split', async () => {
		const data = split(250).map((r, i) => ({ ...r, keep: i % 3 === 0 }));
		const server = fakeHfServer(data, { filter: (row) => row.keep === true });
		const where = `"parent_id" IS NULL AND "lang" = 'en'`;
		const entries = await fetchAllRowEntries({ ...GSM8K, where, fetch: server.fetch });
		expect(entries).toHaveLength(84);
		expect(entries.slice(0, 3).map((e) => e.row_idx)).toEqual([0, 3, 6]);
		expect(new URL(server.calls[0]).pathname).toBe('/filter');
		expect(params(server.calls[0]).where).toBe(where);
		expect(server.calls).toHaveLength(1);
	});

	it('halves the page size when the server truncates cells, so no row comes back cut short', async () => {
		const server = fakeHfServer(split(120), { truncateAbove: 40 });
		const rows = await fetchAllRows({ ...GSM8K, fetch: server.fetch });
		expect(rows).toEqual(split(120));
		expect(server.calls.map((u) => params(u).length).slice(0, 3)).toEqual(['100', '50', '25']);
	});

	it('sends an HF token as a Bearer header, and no header without one', async () => {
		const server = fakeHfServer(split(2));
		await fetchAllRows({ ...GSM8K, fetch: server.fetch, token: 'hf_secret' });
		await fetchAllRows({ ...GSM8K, fetch: server.fetch });
		expect(server.headers[0]).toEqual({ Authorization: 'Bearer hf_secret' });
		expect(server.headers[1]).toEqual({});
	});

	it('builds URLs against another base without doubling the slash', () => {
		expect(rowsUrl({ ...GSM8K, base: 'http://127.0.0.1:9/' }, 200, 100)).toBe(
			'http://127.0.0.1:9/rows?dataset=openai%2Fgsm8k&config=main&split=test&offset=200&length=100'
		);
	});
});

describe('fetchAllRows retries', () => {
	it('retries 503 and 500 with growing waits, then returns every row', async () => {
		const server = fakeHfServer(split(150), {
			failures: { 0: { status: 503 }, 1: { status: 500 } }
		});
		const { sleep, waits } = recordingSleep();
		const rows = await fetchAllRows({ ...GSM8K, fetch: server.fetch, sleep });
		expect(rows).toEqual(split(150));
		expect(server.calls).toHaveLength(4);
		expect(waits).toHaveLength(2);
		expect(waits[0]).toBeGreaterThanOrEqual(500);
		expect(waits[0]).toBeLessThanOrEqual(1000);
		expect(waits[1]).toBeGreaterThanOrEqual(1000);
		expect(waits[1]).toBeLessThanOrEqual(2000);
	});

	it('waits as long as a 429 Retry-After asks', async () => {
		const server = fakeHfServer(split(5), { failures: { 0: { status: 429, retryAfter: '7' } } });
		const { sleep, waits } = recordingSleep();
		await fetchAllRows({ ...GSM8K, fetch: server.fetch, sleep });
		expect(waits).toEqual([7000]);
	});

	it('retries network errors', async () => {
		const server = fakeHfServer(split(5), {
			failures: { 0: { throws: new TypeError('fetch failed') } }
		});
		const { sleep } = recordingSleep();
		expect(await fetchAllRows({ ...GSM8K, fetch: server.fetch, sleep })).toHaveLength(5);
		expect(server.calls).toHaveLength(2);
	});

	it('fails at once on a 404 with a DatasetError naming the URL, status and server reason', async () => {
		const server = fakeHfServer(split(5), {
			failures: { 0: { status: 404, body: '{"error":"The dataset does not exist."}' } }
		});
		const err = await fetchAllRows({ ...GSM8K, fetch: server.fetch }).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(DatasetError);
		const e = err as DatasetError;
		expect(e.name).toBe('DatasetError');
		expect(e.status).toBe(404);
		expect(e.url).toBe(server.calls[0]);
		expect(e.message).toContain('HTTP 404');
		expect(e.message).toContain(server.calls[0]);
		expect(e.message).toContain('The dataset does not exist.');
		expect(server.calls).toHaveLength(1);
	});

	it(`gives up after ${ATTEMPTS_MAX} attempts of 503 with the last status`, async () => {
		const failures = Object.fromEntries(
			Array.from({ length: ATTEMPTS_MAX }, (_, i) => [i, { status: 503 }])
		);
		const server = fakeHfServer(split(5), { failures });
		const { sleep, waits } = recordingSleep();
		const err = await fetchAllRows({ ...GSM8K, fetch: server.fetch, sleep }).catch(
			(e: unknown) => e
		);
		expect(err).toBeInstanceOf(DatasetError);
		expect((err as DatasetError).status).toBe(503);
		expect((err as DatasetError).message).toMatch(/Gave up after 5 attempts \(HTTP 503\)/);
		expect(server.calls).toHaveLength(ATTEMPTS_MAX);
		expect(waits).toHaveLength(ATTEMPTS_MAX - 1);
	});

	it('gives up on repeated network errors with no status and the error as cause', async () => {
		const boom = new TypeError('getaddrinfo ENOTFOUND');
		const failures = Object.fromEntries(
			Array.from({ length: ATTEMPTS_MAX }, (_, i) => [i, { throws: boom }])
		);
		const server = fakeHfServer(split(5), { failures });
		const err = (await fetchAllRows({
			...GSM8K,
			fetch: server.fetch,
			sleep: recordingSleep().sleep
		}).catch((e: unknown) => e)) as DatasetError;
		expect(err.status).toBeUndefined();
		expect(err.cause).toBe(boom);
		expect(err.message).toContain('network error');
	});

	it('rejects a response without num_rows_total as malformed', async () => {
		const server = fakeHfServer(split(5), { failures: { 0: { json: { rows: [] } } } });
		await expect(fetchAllRows({ ...GSM8K, fetch: server.fetch })).rejects.toThrow(
			/Unexpected response .*num_rows_total/
		);
	});
});

describe('fetchAllRows cancellation', () => {
	it('makes no request when the signal is already aborted', async () => {
		const server = fakeHfServer(split(5));
		const ctrl = new AbortController();
		ctrl.abort();
		await expect(
			fetchAllRows({ ...GSM8K, fetch: server.fetch, signal: ctrl.signal })
		).rejects.toBeInstanceOf(AbortError);
		expect(server.calls).toHaveLength(0);
	});

	it('stops between pages when aborted from the progress callback', async () => {
		const server = fakeHfServer(split(1000));
		const ctrl = new AbortController();
		await expect(
			fetchAllRows({
				...GSM8K,
				fetch: server.fetch,
				signal: ctrl.signal,
				onProgress: (done) => done >= 200 && ctrl.abort()
			})
		).rejects.toBeInstanceOf(AbortError);
		expect(server.calls).toHaveLength(2);
	});

	it('cancels a request in flight through the signal it hands to fetch', async () => {
		const ctrl = new AbortController();
		const hanging: FetchLike = (_url, init) =>
			new Promise((_resolve, reject) => {
				init?.signal?.addEventListener('abort', () =>
					reject(new DOMException('The operation was aborted.', 'AbortError'))
				);
			});
		const pending = fetchAllRows({ ...GSM8K, fetch: hanging, signal: ctrl.signal });
		setTimeout(() => ctrl.abort(), 5);
		const err = await pending.catch((e: unknown) => e);
		expect(err).toBeInstanceOf(AbortError);
		expect((err as AbortError).code).toBe('aborted');
	});

	it('interrupts a backoff wait instead of sleeping it out', async () => {
		const server = fakeHfServer(split(5), { failures: { 0: { status: 503 } } });
		const ctrl = new AbortController();
		const never = () => new Promise<void>(() => {});
		const pending = fetchAllRows({
			...GSM8K,
			fetch: server.fetch,
			signal: ctrl.signal,
			sleep: never
		});
		setTimeout(() => ctrl.abort(), 5);
		await expect(pending).rejects.toBeInstanceOf(AbortError);
		expect(server.calls).toHaveLength(1);
	});

	it('interrupts the default timer-based wait too', async () => {
		const server = fakeHfServer(split(5), { failures: { 0: { status: 503 } } });
		const ctrl = new AbortController();
		let abortedAt = Infinity;
		const pending = fetchAllRows({ ...GSM8K, fetch: server.fetch, signal: ctrl.signal });
		setTimeout(() => {
			abortedAt = Date.now();
			ctrl.abort();
		}, 20);
		await expect(pending).rejects.toBeInstanceOf(AbortError);
		// From the abort, not the start (a loaded host fires the timer late): a wait that ignored
		// the signal would end no sooner than the first backoff's fixed half (500 ms) after the 503.
		expect(Date.now() - abortedAt).toBeLessThan(400);
	});
});
