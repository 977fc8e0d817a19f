/**
 * What a sweep on this device costs and holds in memory, before it starts: each model's download
 * (cached or not) and time, the sweep's total, and whether the judge stays loaded from one run to
 * the next. Pure: set-up passes what it knows (catalog sizes, cache badges, benchmarks).
 */
import type { TemplateSpec } from '../probe/templateSource.ts';
import {
	downloadTime,
	estimateRun,
	type Estimate,
	type EstimateInput,
	type ModelCost
} from './estimate.ts';

/** One generator of the sweep as set-up knows it. */
export interface SweepModel extends ModelCost {
	/** This device's benchmarked speed for this model, when there is one. */
	measured?: EstimateInput['measured'];
}

export interface SweepCost {
	/** In run order, each with its own estimate (its download, its speed). */
	runs: { model: SweepModel; estimate: Estimate }[];
	/** Known sizes of every model not cached, the judge counted once. */
	download_MB: number;
	/** Models to download whose size nobody lists. */
	unknown_sizes: string[];
	/** The runs' generation times added up, one after another; downloads excluded. */
	seconds: { min: number; max: number };
	/** download_MB at the last measured download speed; null: none measured (see estimate.ts). */
	download_seconds: number | null;
	download_speed?: EstimateInput['download_speed'];
}

/**
 * - 'kept': a model of its own that fits beside every generator: only the generator changes;
 * - 'reloaded': it takes turns with each generator (or with the one it is), loaded for each run;
 * - 'none': rules only, no judge.
 */
export type JudgeBetweenRuns = 'kept' | 'reloaded' | 'none';

/**
 * Whether the judge stays loaded from one run to the next: it is a different model from every
 * generator and fits beside each of them (the engine's own memory rule, `can_co_load`). Otherwise
 * the run phases it, and it loads again after each generator (from the cache: one download).
 */
export function judgeBetweenRuns(
	generators: readonly string[],
	judge: string | null,
	canCoLoad: (models: string[]) => boolean
): JudgeBetweenRuns {
	if (judge === null) return 'none';
	if (generators.includes(judge)) return 'reloaded';
	return generators.every((g) => canCoLoad([g, judge])) ? 'kept' : 'reloaded';
}

/**
 * The sweep's cost: each run estimated with its own model (download, measured speed), the judge's
 * download counted once, and the times added up (one model in memory at a time, so no overlap).
 */
export function estimateSweep(
	base: Omit<EstimateInput, 'models' | 'measured'>,
	generators: readonly SweepModel[],
	judge: ModelCost | null
): SweepCost {
	const runs = generators.map((model) => ({
		model,
		estimate: estimateRun({
			...base,
			models: [model, ...(judge ? [judge] : [])],
			measured: model.measured
		})
	}));
	const all = estimateRun({ ...base, models: [...generators, ...(judge ? [judge] : [])] });
	const sum = (pick: (e: Estimate) => number) => runs.reduce((t, r) => t + pick(r.estimate), 0);
	return {
		runs,
		download_MB: all.download_MB,
		unknown_sizes: all.unknown_sizes,
		seconds: { min: sum((e) => e.seconds.min), max: sum((e) => e.seconds.max) },
		// The judge downloads once, so not the runs' own download times added up.
		...downloadTime(all.download_MB, base.download_speed)
	};
}

/**
 * Where a server sweep's further model's chat template comes from, as the CLI's `run --model`
 * reads it without /props: the served name as a template repo (shipped families first, then the
 * Hub) when it names one; null when it names none (the model is left out of the sweep). Never the
 * server's /props, which describes only the one model a llama-server has loaded.
 */
export function servedTemplateSpec(model: string): TemplateSpec | null {
	return model.includes('/') ? { kind: 'repo', repos: [model] } : null;
}
