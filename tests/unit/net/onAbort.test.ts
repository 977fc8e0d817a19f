import { getEventListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { onAbort } from '../../../src/lib/net/onAbort.ts';

describe('onAbort on a shared signal', () => {
	it('puts one listener on the signal however many wait, and calls each waiter once', () => {
		const ctrl = new AbortController();
		const fns = Array.from({ length: 20 }, () => vi.fn());
		for (const f of fns) onAbort(ctrl.signal, f);
		expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
		ctrl.abort();
		ctrl.abort();
		expect(fns.map((f) => f.mock.calls.length)).toEqual(fns.map(() => 1));
	});

	it('takes its listener off when the last waiter leaves, and comes back for a new one', () => {
		const ctrl = new AbortController();
		const gone = [vi.fn(), vi.fn()];
		const leaveA = onAbort(ctrl.signal, gone[0]);
		const leaveB = onAbort(ctrl.signal, gone[1]);
		leaveA();
		expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(1);
		leaveB();
		leaveB();
		expect(getEventListeners(ctrl.signal, 'abort')).toHaveLength(0);
		const stays = vi.fn();
		onAbort(ctrl.signal, stays);
		ctrl.abort();
		expect(stays).toHaveBeenCalledOnce();
		for (const f of gone) expect(f).not.toHaveBeenCalled();
	});

	it('lets a waiter leave during the abort without skipping the others', () => {
		const ctrl = new AbortController();
		const calls: string[] = [];
		let leaveB = () => {};
		onAbort(ctrl.signal, () => {
			calls.push('a');
			leaveB();
		});
		leaveB = onAbort(ctrl.signal, () => calls.push('b'));
		onAbort(ctrl.signal, () => calls.push('c'));
		ctrl.abort();
		expect(calls).toEqual(['a', 'c']);
	});
});
