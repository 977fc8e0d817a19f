import { describe, expect, it } from 'vitest';
import { ModelLoads, type ModelLoad } from '../../../src/lib/live/modelLoads.ts';

describe('ModelLoads', () => {
	it('keeps one bar per model whose fraction only grows, and marks a loaded model ready', () => {
		const bars = new ModelLoads();
		let loads: ModelLoad[] = [];
		loads = bars.apply(loads, { type: 'loading', models: ['gen', 'judge'] });
		expect(loads.map((l) => [l.model, l.fraction, l.phase])).toEqual([
			['gen', 0, 'waiting'],
			['judge', 0, 'waiting']
		]);
		const before = loads;
		loads = bars.apply(loads, {
			type: 'loading',
			models: ['gen', 'judge'],
			progress: { model: 'gen', fraction: 0.6, phase: 'download', text: 'shown elsewhere' }
		});
		// A late report of less progress does not move the bar back.
		loads = bars.apply(loads, {
			type: 'loading',
			models: ['gen'],
			progress: { model: 'gen', fraction: 0.4, phase: 'download' }
		});
		expect(before[0].fraction).toBe(0);
		expect(loads[0]).toMatchObject({ model: 'gen', fraction: 0.6, phase: 'download' });
		loads = bars.apply(loads, { type: 'loaded', models: ['gen'], ms: 1200 });
		expect(loads[0]).toMatchObject({ fraction: 1, phase: 'ready', ms: 1200, eta_ms: undefined });
		expect(loads[1]).toMatchObject({ model: 'judge', fraction: 0 });
	});

	it('hands the download speed of byte reports to its keeper, and nothing for reports without bytes', () => {
		const samples: unknown[] = [];
		const bars = new ModelLoads((s) => samples.push(s));
		let loads: ModelLoad[] = [];
		loads = bars.apply(loads, {
			type: 'loading',
			models: ['gen'],
			progress: { model: 'gen', fraction: 0.1, phase: 'download' },
			at: 0
		});
		for (const [bytes, at] of [
			[0, 0],
			[50_000_000, 5_000],
			[100_000_000, 10_000]
		])
			loads = bars.apply(loads, {
				type: 'loading',
				models: ['gen'],
				progress: {
					model: 'gen',
					fraction: bytes / 100_000_000,
					phase: 'downloading',
					loaded_bytes: bytes,
					total_bytes: 100_000_000
				},
				at
			});
		loads = bars.apply(loads, { type: 'loaded', models: ['gen'], ms: 10_000 });
		expect(loads[0].phase).toBe('ready');
		// One sample, from the first byte report to the last, handed on when the model is loaded.
		expect(samples).toEqual([{ model: 'gen', bytes: 100_000_000, ms: 10_000 }]);
	});
});
