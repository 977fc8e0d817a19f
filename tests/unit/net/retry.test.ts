/** The one retry policy shared by the OpenAI engine and the dataset downloads. */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	backoffMs,
	RETRY_AFTER_CAP_MS,
	parseRetryAfter,
	sleep,
	withRetries,
	type RetryNotice
} from '../../../src/lib/net/retry.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';

describe('parseRetryAfter', () => {
	const NOW = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
	it.each([
		['12', 12_000],
		[' 0 ', 0],
		['1.5', 1_500],
		['600', RETRY_AFTER_CAP_MS],
		['99999', RETRY_AFTER_CAP_MS],
		['Wed, 21 Oct 2015 07:28:30 GMT', 30_000],
		['Wed, 21 Oct 2015 07:27:00 GMT', 0],
		['-5', undefined],
		['soon', undefined],
		['', undefined],
		[null, undefined]
	])('reads %j as %j ms (capped at 60 s, never negative)', (value, expected) => {
		expect(parseRetryAfter(value, NOW)).toBe(expected);
	});
});

describe('backoffMs', () => {
	it('doubles from 1 s with equal jitter and caps at 30 s', () => {
		const low = [0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0));
		const high = [0, 1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, () => 0.999999));
		expect(low).toEqual([500, 1000, 2000, 4000, 8000, 15000, 15000]);
		expect(high).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
	});
});

describe('sleep', () => {
	const warnings: Error[] = [];
	const onWarning = (w: Error) => warnings.push(w);
	afterEach(() => {
		process.off('warning', onWarning);
		warnings.length = 0;
	});

	it('leaves no abort listener behind, however often it waits on one signal', async () => {
		process.on('warning', onWarning);
		const ctrl = new AbortController();
		for (let i = 0; i < 25; i++) await sleep(0, ctrl.signal);
		expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
		// Node emits warnings on the next tick.
		await new Promise((r) => setTimeout(r, 10));
		expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
	});

	it('a run that retries 12 times on one signal leaves no listener and no warning', async () => {
		process.on('warning', onWarning);
		const ctrl = new AbortController();
		let calls = 0;
		const result = await withRetries(
			async () => {
				if (++calls <= 12) throw new Error('503');
				return 'ok';
			},
			{
				retries: 12,
				signal: ctrl.signal,
				// The real sleep, with the waits shortened.
				sleep: (_ms, signal) => sleep(1, signal),
				classify: () => ({})
			}
		);
		expect(result).toBe('ok');
		expect(calls).toBe(13);
		expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
		await new Promise((r) => setTimeout(r, 10));
		expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
	});

	it('rejects with AbortError the moment the signal fires, and drops its timer', async () => {
		const ctrl = new AbortController();
		const started = Date.now();
		const pending = sleep(60_000, ctrl.signal);
		setTimeout(() => ctrl.abort(), 10);
		await expect(pending).rejects.toBeInstanceOf(AbortError);
		expect(Date.now() - started).toBeLessThan(1000);
	});
});

describe('withRetries', () => {
	it('waits the Retry-After the classifier read, else the backoff, and reports each retry', async () => {
		const waits: number[] = [];
		const notices: RetryNotice[] = [];
		let n = 0;
		const out = await withRetries(
			async () => {
				n++;
				if (n === 1) throw Object.assign(new Error('429'), { after: 3000 });
				if (n === 2) throw new Error('500');
				return n;
			},
			{
				retries: 4,
				sleep: async (ms) => void waits.push(ms),
				random: () => 0,
				classify: (err) => ({ retryAfterMs: (err as { after?: number }).after }),
				onRetry: (notice) => notices.push(notice)
			}
		);
		expect(out).toBe(3);
		expect(waits).toEqual([3000, 1000]);
		expect(notices.map((x) => [x.retry, x.of, x.delayMs, (x.error as Error).message])).toEqual([
			[1, 4, 3000, '429'],
			[2, 4, 1000, '500']
		]);
	});

	it('throws the last error once the budget is spent, and a permanent one at once', async () => {
		let n = 0;
		const spent = withRetries(
			async () => {
				throw new Error(`fail ${++n}`);
			},
			{ retries: 2, sleep: async () => {}, classify: () => ({}) }
		);
		await expect(spent).rejects.toThrow('fail 3');
		let m = 0;
		const permanent = withRetries(
			async () => {
				m++;
				throw new Error('400');
			},
			{ retries: 5, sleep: async () => {}, classify: () => false }
		);
		await expect(permanent).rejects.toThrow('400');
		expect(m).toBe(1);
	});

	it('ends a wait when aborted even if the injected sleep ignores the signal', async () => {
		const ctrl = new AbortController();
		const attempt = vi.fn(async () => {
			throw new Error('503');
		});
		const pending = withRetries(attempt, {
			retries: 3,
			signal: ctrl.signal,
			sleep: () => new Promise<void>(() => {}),
			classify: () => ({})
		});
		setTimeout(() => ctrl.abort(), 5);
		await expect(pending).rejects.toBeInstanceOf(AbortError);
		expect(attempt).toHaveBeenCalledTimes(1);
		expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
	});
});
