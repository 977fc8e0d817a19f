import { describe, expect, it } from 'vitest';
import { RunTally } from '../../../src/lib/probe/progress.ts';

describe('RunTally on a resumed run', () => {
	it('starts from what the plan found stored and counts a re-stored record once', () => {
		const t = new RunTally();
		// 10 planned; 6 labelled before, one of them awaiting its reference comparison; 1 waiting.
		t.begin(10, false, {
			labeled: 6,
			waiting: [
				{ key: 'cmp', label: 'genuine_followup' },
				{ key: 'wait', label: null }
			]
		});
		expect(t.progress(1)).toMatchObject({ done: 6, generated: 7, total: 10 });
		t.stored({ key: 'cmp', label: 'genuine_followup' }, true);
		t.stored({ key: 'wait', label: 'degenerate' }, true);
		expect(t.progress(1)).toMatchObject({ done: 7, generated: 7 });
		t.stored({ key: 'new1', label: null }, false);
		t.stored({ key: 'new1', label: 'degenerate' }, true);
		t.stored({ key: 'new2', label: 'degenerate' }, true);
		t.stored({ key: 'new3', label: 'degenerate' }, true);
		expect(t.progress(1)).toMatchObject({ done: 10, generated: 10, total: 10 });
	});

	it('counts a fresh run of 200,000 keys exactly', () => {
		const t = new RunTally();
		t.begin(200_000, true, { labeled: 0, waiting: [] });
		for (let i = 0; i < 200_000; i++) t.stored({ key: `i${i}|0.7|none|0`, label: null }, true);
		expect(t.progress(1)).toMatchObject({ done: 0, generated: 200_000 });
		for (let i = 0; i < 200_000; i++)
			t.stored({ key: `i${i}|0.7|none|0`, label: 'genuine_followup' }, true);
		expect(t.progress(1)).toMatchObject({ done: 200_000, generated: 200_000, eta_ms: 0 });
	});
});
