/**
 * A Hub that cannot be reached (blocked by a firewall, offline, or silent) is said by name within
 * seconds, not after a minute of backoff, and is marked so the set-up view can offer the Demo set.
 */
import { describe, expect, it } from 'vitest';
import { fetchAllRows } from '../../../src/lib/datasets/hfRows.ts';
import type { DatasetFetch as FetchLike } from '../../../src/lib/datasets/http.ts';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { NETWORK_ATTEMPTS_MAX } from '../../../src/lib/net/httpGet.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { SetupState } from '../../../src/lib/state/setup.svelte.ts';
import { fakeHfServer, recordingSleep } from './fakeHfServer.ts';

const GSM8K = { dataset: 'openai/gsm8k', config: 'main', split: 'test' };
const rows = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ question: `q${i}`, answer: '#' }));

describe('an unreachable Hub', () => {
	it('a blocked host (fetch rejects every time) is given up after one retry and named', async () => {
		const blocked = new TypeError('Failed to fetch');
		const failures = Object.fromEntries(
			Array.from({ length: 10 }, (_, i) => [i, { throws: blocked }])
		);
		const server = fakeHfServer(rows(5), { failures });
		const { sleep, waits } = recordingSleep();
		const err = await fetchAllRows({ ...GSM8K, fetch: server.fetch, sleep }).catch(
			(e: unknown) => e
		);
		expect(err).toBeInstanceOf(DatasetError);
		const e = err as DatasetError;
		expect(e.unreachable).toBe(true);
		expect(e.status).toBeUndefined();
		expect(e.message).toMatch(/^datasets-server\.huggingface\.co could not be reached/);
		expect(e.message).toContain('Failed to fetch');
		expect(server.calls).toHaveLength(NETWORK_ATTEMPTS_MAX);
		expect(waits).toHaveLength(NETWORK_ATTEMPTS_MAX - 1);
	});

	it('a host that never answers times out per request instead of loading forever', async () => {
		let calls = 0;
		const silent: FetchLike = (_url, init) =>
			new Promise((_resolve, reject) => {
				calls++;
				init?.signal?.addEventListener('abort', () =>
					reject(new DOMException('The operation was aborted.', 'AbortError'))
				);
			});
		const started = Date.now();
		const err = (await fetchAllRows({
			...GSM8K,
			fetch: silent,
			sleep: recordingSleep().sleep,
			timeoutMs: 30
		}).catch((e: unknown) => e)) as DatasetError;
		expect(err).toBeInstanceOf(DatasetError);
		expect(err.unreachable).toBe(true);
		expect(err.message).toContain('no answer within');
		expect(calls).toBe(NETWORK_ATTEMPTS_MAX);
		expect(Date.now() - started).toBeLessThan(2000);
	});

	it('the caller can still cancel a slow request (cancel is not a timeout)', async () => {
		const ctrl = new AbortController();
		const silent: FetchLike = (_url, init) =>
			new Promise((_resolve, reject) => {
				init?.signal?.addEventListener('abort', () =>
					reject(new DOMException('The operation was aborted.', 'AbortError'))
				);
			});
		const pending = fetchAllRows({ ...GSM8K, fetch: silent, signal: ctrl.signal, timeoutMs: 5000 });
		setTimeout(() => ctrl.abort(), 5);
		expect(await pending.catch((e: unknown) => e)).toBeInstanceOf(AbortError);
	});

	it('a server that answers with errors is not "unreachable" (it was reached)', async () => {
		const failures = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i, { status: 503 }]));
		const server = fakeHfServer(rows(5), { failures });
		const err = (await fetchAllRows({
			...GSM8K,
			fetch: server.fetch,
			sleep: recordingSleep().sleep
		}).catch((e: unknown) => e)) as DatasetError;
		expect(err.unreachable).toBe(false);
		expect(err.status).toBe(503);
	});

	it('set-up remembers an unreachable dataset host and switches to Demo in one step', async () => {
		const setup = new SetupState(undefined);
		setup.dataset.current = 'gsm8k';
		const ok = await setup.start(async () => {
			throw new DatasetError('datasets-server.huggingface.co could not be reached', {
				unreachable: true
			});
		});
		expect(ok).toBe(false);
		expect(setup.datasetUnreachable).toBe(true);
		expect(setup.error).toContain('could not be reached');
		setup.useDemoDataset();
		expect(setup.dataset.current).toBe('demo');
		expect(setup.error).toBeNull();
		expect(setup.datasetUnreachable).toBe(false);
		expect(setup.step).toBe('idle');

		// Any other failure is not offered the Demo set.
		await setup.start(async () => {
			throw new DatasetError('HTTP 404 from x', { status: 404 });
		});
		expect(setup.datasetUnreachable).toBe(false);
	});
});
