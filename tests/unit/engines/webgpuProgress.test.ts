import type { InitProgressReport } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { createProgressFolder, parseReport } from '../../../src/lib/engines/webgpu/progress.ts';
import { firstVisitReports } from '../../helpers/fakeWebLLM.ts';

/** A cached reload: no fetch phase, web-llm goes straight to loading from cache. */
function cachedReports(): InitProgressReport[] {
	return [
		{ progress: 0, timeElapsed: 0, text: 'Start to fetch params' },
		{
			progress: 0.5,
			timeElapsed: 1,
			text: 'Loading model from cache[1/2]: 200MB loaded. 50% completed, 1 secs elapsed.'
		},
		{
			progress: 1,
			timeElapsed: 2,
			text: 'Loading model from cache[2/2]: 400MB loaded. 100% completed, 2 secs elapsed.'
		},
		{
			progress: 1,
			timeElapsed: 1,
			text: 'Loading GPU shader modules[81/81]: 100% completed, 1 secs elapsed.'
		},
		{ progress: 1, timeElapsed: 3.5, text: 'Finish loading on WebGPU - Apple M2' }
	];
}

describe('parseReport', () => {
	it.each([
		['Start to fetch params', 'preparing', undefined],
		[
			'Fetching param cache[3/22]: 120MB fetched. 13% completed, 4 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.',
			'downloading',
			120
		],
		[
			'Loading model from cache[3/22]: 120MB loaded. 13% completed, 5 secs elapsed.',
			'loading',
			120
		],
		['Loading GPU shader modules[40/81]: 49% completed, 7 secs elapsed.', 'compiling', undefined],
		['Finish loading on WebGPU - NVIDIA GeForce RTX 3060', 'ready', undefined],
		['Some future phase', null, undefined]
	])('reads "%s" as %s', (text, phase, mb) => {
		expect(parseReport(text)).toEqual(mb === undefined ? { phase } : { phase, mb });
	});
});

describe('createProgressFolder', () => {
	it('turns a first visit into one monotone bar from 0 to 1, although web-llm restarts per phase', () => {
		const fold = createProgressFolder(['A']);
		const fractions = firstVisitReports(8).map((r) => fold(r).fraction);
		for (let i = 1; i < fractions.length; i++) {
			expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]);
		}
		expect(fractions[0]).toBe(0);
		expect(fractions.at(-1)).toBe(1);
		// The raw reports go back to 0 twice; the fold never does after starting.
		expect(fractions.filter((f) => f === 1)).toHaveLength(1);
	});

	it('spends most of a first visit on the download', () => {
		const fold = createProgressFolder(['A']);
		const out = firstVisitReports(4).map(fold);
		const lastDownload = out.filter((p) => p.phase === 'downloading').at(-1);
		expect(lastDownload?.fraction).toBeCloseTo(0.8);
	});

	it('gives a cached load most of the bar, since nothing is downloaded', () => {
		const fold = createProgressFolder(['A']);
		const out = cachedReports().map(fold);
		expect(out.map((p) => p.phase)).toEqual([
			'preparing',
			'loading',
			'loading',
			'compiling',
			'ready'
		]);
		expect(out[1].fraction).toBeCloseTo(0.45);
		expect(out[2].fraction).toBeCloseTo(0.9);
		expect(out[4].fraction).toBe(1);
	});

	it('reports bytes loaded, an estimated total and an ETA while downloading', () => {
		const fold = createProgressFolder(['A']);
		const reports = firstVisitReports(4, 100);
		fold(reports[0]);
		const p = fold(reports[1]); // 100MB, 25%, 2 s elapsed
		expect(p.phase).toBe('downloading');
		expect(p.loaded_bytes).toBe(100 * 1024 * 1024);
		expect(p.total_bytes).toBe(400 * 1024 * 1024);
		expect(p.eta_ms).toBe(6000);
	});

	it('measures the load phase ETA from when loading began, not from the download start', () => {
		const fold = createProgressFolder(['A']);
		const reports = firstVisitReports(4, 100);
		const out = reports.map(fold);
		// First "Loading model from cache" at t=9 s; the download ended at t=8 s.
		const firstLoad = out.find((p) => p.phase === 'loading');
		expect(firstLoad?.eta_ms).toBe(3000);
	});

	it('attributes reports to each model of reload([A, B]) in turn', () => {
		const fold = createProgressFolder(['gen', 'judge']);
		const out = [...firstVisitReports(2), ...cachedReports()].map(fold);
		const gen = out.filter((p) => p.model === 'gen');
		const judge = out.filter((p) => p.model === 'judge');
		expect(gen.at(-1)).toMatchObject({ phase: 'ready', fraction: 1 });
		expect(judge[0]).toMatchObject({ phase: 'preparing', fraction: 0 });
		expect(judge.at(-1)).toMatchObject({ phase: 'ready', fraction: 1 });
		expect(gen).toHaveLength(firstVisitReports(2).length);
	});

	it('keeps the phase and fraction on report text it does not know', () => {
		const fold = createProgressFolder(['A']);
		const reports = firstVisitReports(4);
		fold(reports[0]);
		const before = fold(reports[2]);
		const after = fold({ progress: 0.01, timeElapsed: 5, text: 'Verifying integrity…' });
		expect(after.phase).toBe(before.phase);
		expect(after.fraction).toBe(before.fraction);
	});

	it('never moves backwards when a later report has a smaller progress', () => {
		const fold = createProgressFolder(['A']);
		fold({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
		const hi = fold({
			progress: 0.75,
			timeElapsed: 3,
			text: 'Fetching param cache[3/4]: 300MB fetched. 75% completed, 3 secs elapsed.'
		});
		const lo = fold({
			progress: 0.5,
			timeElapsed: 4,
			text: 'Fetching param cache[2/4]: 200MB fetched. 50% completed, 4 secs elapsed.'
		});
		expect(lo.fraction).toBe(hi.fraction);
	});
});
