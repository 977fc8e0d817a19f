import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IdleDeadline } from '../../../src/lib/net/deadline.ts';

afterEach(() => {
	vi.useRealTimers();
});

describe('IdleDeadline', () => {
	it('fires after the given silence, and each touch starts the silence again', async () => {
		vi.useFakeTimers();
		const d = new IdleDeadline(undefined, 1_000);
		const never = new Promise<string>(() => {});
		const raced = d.race(never);
		raced.catch(() => {});
		vi.advanceTimersByTime(900);
		d.touch();
		vi.advanceTimersByTime(900);
		expect(d.signal.aborted).toBe(false);
		vi.advanceTimersByTime(100);
		expect(d.signal.aborted).toBe(true);
		expect(d.timedOut).toBe(true);
		expect(d.callerAborted).toBe(false);
		await expect(raced).rejects.toMatchObject({ name: 'AbortError' });
	});

	it('holds one timer however many chunks arrive, and still fires a full silence after the last', () => {
		vi.useFakeTimers();
		const d = new IdleDeadline(undefined, 1_000);
		const set = vi.spyOn(globalThis, 'setTimeout');
		for (let ms = 0; ms < 5_000; ms += 5) {
			vi.advanceTimersByTime(5);
			d.touch();
		}
		// 1,000 chunks over 5 s: the timer was set again once a second, not once a chunk.
		expect(set.mock.calls.length).toBeLessThanOrEqual(5);
		expect(vi.getTimerCount()).toBe(1);
		vi.advanceTimersByTime(999);
		expect(d.signal.aborted).toBe(false);
		vi.advanceTimersByTime(1);
		expect(d.timedOut).toBe(true);
		d.dispose();
		expect(vi.getTimerCount()).toBe(0);
	});

	it("fires at once on the caller's abort, and says so rather than a timeout", async () => {
		const caller = new AbortController();
		const d = new IdleDeadline(caller.signal, 60_000);
		const raced = d.race(new Promise(() => {}));
		caller.abort();
		await expect(raced).rejects.toBeDefined();
		expect(d.signal.aborted).toBe(true);
		expect(d.callerAborted).toBe(true);
		expect(d.timedOut).toBe(false);
		d.dispose();
	});

	it('is aborted from the start when the caller already gave up', () => {
		const caller = new AbortController();
		caller.abort();
		const d = new IdleDeadline(caller.signal, 60_000);
		expect(d.signal.aborted).toBe(true);
		d.dispose();
	});

	it('settles with the promise when it wins the race', async () => {
		const d = new IdleDeadline(undefined, 60_000);
		await expect(d.race(Promise.resolve('ok'))).resolves.toBe('ok');
		d.dispose();
	});

	it('leaves no listener or timer behind once disposed (fetch keeps its signal reachable)', () => {
		vi.useFakeTimers();
		const run = new AbortController();
		const deadlines = Array.from({ length: 64 }, () => new IdleDeadline(run.signal, 1_000));
		// One listener on the shared run signal however many requests use it (Node warns at 11).
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(1);
		for (const d of deadlines) d.dispose();
		expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
		expect(deadlines.map((d) => getEventListeners(d.signal, 'abort').length)).toEqual(
			deadlines.map(() => 0)
		);
		expect(vi.getTimerCount()).toBe(0);
	});

	it('made unstarted, stays quiet however long it waits, then runs both clocks from start()', () => {
		vi.useFakeTimers();
		const d = new IdleDeadline(undefined, 1_000, 5_000, { started: false });
		expect(vi.getTimerCount()).toBe(0);
		vi.advanceTimersByTime(60_000);
		expect(d.signal.aborted).toBe(false);
		expect(d.startedAt).toBeUndefined();
		d.start();
		expect(d.startedAt).toBe(performance.now());
		vi.advanceTimersByTime(999);
		expect(d.signal.aborted).toBe(false);
		vi.advanceTimersByTime(1);
		expect(d.timedOut).toBe(true);
	});

	it('starts at the first chunk when nothing said it was sent, and the whole limit counts from there', () => {
		vi.useFakeTimers();
		const d = new IdleDeadline(undefined, 1_000, 3_000, { started: false });
		vi.advanceTimersByTime(10_000);
		d.touch();
		expect(d.startedAt).toBe(performance.now());
		for (let ms = 0; ms < 2_900; ms += 100) {
			vi.advanceTimersByTime(100);
			d.touch();
		}
		expect(d.signal.aborted).toBe(false);
		vi.advanceTimersByTime(100);
		expect(d.overTotal).toBe(true);
	});

	it('starts once, not again, and never after dispose()', () => {
		vi.useFakeTimers();
		const once = new IdleDeadline(undefined, 1_000, undefined, { started: false });
		once.start();
		const at = once.startedAt;
		vi.advanceTimersByTime(500);
		once.start();
		expect(once.startedAt).toBe(at);
		vi.advanceTimersByTime(500);
		expect(once.timedOut).toBe(true);

		const gone = new IdleDeadline(undefined, 1_000, 2_000, { started: false });
		gone.dispose();
		gone.start();
		gone.touch();
		expect(gone.startedAt).toBeUndefined();
		expect(vi.getTimerCount()).toBe(0);
	});

	it("still ends at once on the caller's abort while it waits unstarted", async () => {
		const caller = new AbortController();
		const d = new IdleDeadline(caller.signal, 1_000, undefined, { started: false });
		const raced = d.race(new Promise(() => {}));
		caller.abort();
		await expect(raced).rejects.toMatchObject({ name: 'AbortError' });
		expect(d.callerAborted).toBe(true);
		d.dispose();
	});
});
