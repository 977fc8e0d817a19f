import { describe, expect, it } from 'vitest';
import {
	current,
	labeled,
	progress,
	skipped,
	startQueue,
	undone
} from '../../../src/lib/annotate/session.ts';

const DRAW = ['k1', 'k2', 'k3', 'k4'];

describe('an annotation queue', () => {
	it('shows the draw in order and counts progress as items are labeled', () => {
		let q = startQueue(DRAW, new Set());
		expect(current(q)).toBe('k1');
		expect(progress(q)).toEqual({ done: 0, total: 4 });
		q = labeled(q, 'k1');
		q = labeled(q, 'k2');
		expect(current(q)).toBe('k3');
		expect(progress(q)).toEqual({ done: 2, total: 4 });
	});

	it('moves a skipped item to the back, and keeps a lone item in place', () => {
		let q = skipped(startQueue(DRAW, new Set()));
		expect(q.pending).toEqual(['k2', 'k3', 'k4', 'k1']);
		expect(progress(q).done).toBe(0);
		q = startQueue(['k1'], new Set());
		expect(skipped(q).pending).toEqual(['k1']);
	});

	it('goes back to the undone item, even when it was labeled several items ago', () => {
		let q = startQueue(DRAW, new Set());
		q = labeled(labeled(q, 'k1'), 'k2');
		q = undone(q, 'k2');
		expect(current(q)).toBe('k2');
		expect(q.pending).toEqual(['k2', 'k3', 'k4']);
		expect(progress(q).done).toBe(1);
		q = undone(q, 'k1');
		expect(q.pending).toEqual(['k1', 'k2', 'k3', 'k4']);
	});

	it('finishes with no current item, and ignores keys outside the draw', () => {
		let q = startQueue(DRAW, new Set(['k1', 'k2', 'k3']));
		q = labeled(q, 'k4');
		expect(current(q)).toBe(undefined);
		expect(progress(q)).toEqual({ done: 4, total: 4 });
		expect(undone(q, 'elsewhere')).toBe(q);
		expect(labeled(q, 'elsewhere')).toBe(q);
	});
});
