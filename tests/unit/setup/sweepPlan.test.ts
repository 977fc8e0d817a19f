/**
 * A sweep's cost and memory before it starts: each model's own download and speed, the judge's
 * download once, the times added up; the judge kept between runs only when it is its own model
 * and fits beside every generator.
 */
import { describe, expect, it } from 'vitest';
import { estimateRun, type EstimateInput } from '../../../src/lib/setup/estimate.ts';
import { estimateSweep, judgeBetweenRuns } from '../../../src/lib/setup/sweepPlan.ts';
import { cpuCanCoLoad } from '../../../src/lib/engines/cpu/catalog.ts';
import { pairFit } from '../../../src/lib/engines/webgpu/models.ts';

const BASE: Omit<EstimateInput, 'models' | 'measured'> = {
	items: 20,
	conditions: 4,
	judge_mode: 'llm',
	guess_tps: 10,
	answer_max_tokens: 512,
	max_tokens: 128
};

describe('judgeBetweenRuns', () => {
	const fitsUnder = (limit: number, sizes: Record<string, number>) => (ids: string[]) =>
		ids.reduce((t, id) => t + (sizes[id] ?? Infinity), 0) <= limit;

	it('keeps a judge of its own that fits beside every generator', () => {
		const fits = fitsUnder(10, { a: 2, b: 3, j: 5 });
		expect(judgeBetweenRuns(['a', 'b'], 'j', fits)).toBe('kept');
	});

	it('reloads it when one generator is too big to sit beside it', () => {
		const fits = fitsUnder(10, { a: 2, b: 6, j: 5 });
		expect(judgeBetweenRuns(['a', 'b'], 'j', fits)).toBe('reloaded');
	});

	it('reloads it when it is one of the generators (its run loads it as the generator)', () => {
		expect(judgeBetweenRuns(['a', 'j'], 'j', () => true)).toBe('reloaded');
	});

	it('has nothing to keep when the rules label alone', () => {
		expect(judgeBetweenRuns(['a', 'b'], null, () => true)).toBe('none');
	});

	it('follows each engine’s own rule: one model at a time on the CPU, the VRAM budget on WebGPU', () => {
		expect(
			judgeBetweenRuns(['https://h/a.gguf', 'https://h/b.gguf'], 'https://h/j.gguf', cpuCanCoLoad)
		).toBe('reloaded');
		const small = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
		const judge = 'Qwen2.5-3B-Instruct-q4f16_1-MLC';
		expect(pairFit([small, judge]).fits).toBe(true);
		expect(judgeBetweenRuns([small], judge, (ids) => pairFit(ids).fits)).toBe('kept');
	});
});

describe('estimateSweep', () => {
	it('gives each run its own download and speed, and adds the times', () => {
		const fast = { tokens_per_second: 40, at: '2026-01-01' };
		const cost = estimateSweep(
			BASE,
			[
				{ id: 'a', download_MB: 300, cached: true },
				{ id: 'b', download_MB: 900, measured: fast },
				{ id: 'c', download_MB: null }
			],
			{ id: 'j', download_MB: 2000 }
		);
		const alone = (id: string, measured?: typeof fast) =>
			estimateRun({ ...BASE, models: [], measured }).seconds.max * (id ? 1 : 0);
		expect(cost.runs.map((r) => r.model.id)).toEqual(['a', 'b', 'c']);
		expect(cost.runs[1].estimate.speed_source).toBe('measured');
		expect(cost.runs[1].estimate.seconds.max).toBeCloseTo(alone('b', fast), 9);
		expect(cost.seconds.max).toBeCloseTo(alone('a') + alone('b', fast) + alone('c'), 9);
		// a is cached; the judge's download counts once, not per run.
		expect(cost.download_MB).toBe(900 + 2000);
		expect(cost.unknown_sizes).toEqual(['c']);
		expect(cost.runs[0].estimate.download_MB).toBe(2000);
	});

	it('downloads nothing when every model is cached', () => {
		const cost = estimateSweep(
			BASE,
			[
				{ id: 'a', download_MB: 300, cached: true },
				{ id: 'b', download_MB: null, cached: true }
			],
			null
		);
		expect(cost.download_MB).toBe(0);
		expect(cost.unknown_sizes).toEqual([]);
	});
});
