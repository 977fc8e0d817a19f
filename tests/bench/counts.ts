/**
 * How much model work a realistic run asks for, counted from the scripted engine's own call log:
 * one assistant answer per item (never one per condition), one user turn per condition, the judge
 * only where the rules are undecided, and each model loaded once.
 */
import { runProbe } from '../../src/lib/probe/pipeline.ts';
import { planConditions } from '../../src/lib/probe/plan.ts';
import { MemoryStore } from '../../src/lib/probe/store.ts';
import type { ProbeConfig } from '../../src/lib/probe/types.ts';
import { asksForUserTurn, createProbeScript } from '../helpers/mockScripts.ts';
import { fixtureTemplate } from '../helpers/fixtures.ts';
import { ScriptedEngine } from '../helpers/scriptedEngine.ts';
import { realisticConfig } from './items.ts';

export const COUNT_ITEMS = 50;

export interface WorkCounts {
	items: number;
	/** temperatures × perturbations × samples, one sample at T=0 (plan.ts planConditions). */
	conditions: number;
	records: number;
	assistantGenerations: number;
	/** What a pipeline that re-answers every condition would need: items × conditions. */
	naiveAssistantGenerations: number;
	userTurnGenerations: number;
	judgeCalls: number;
	/** Records the rules left undecided: the most judge calls a run should make (without retries). */
	undecidedRecords: number;
	modelLoads: number;
	/** Each load's model list, in order, e.g. [["gen"],["judge"]] for a phased run. */
	loadSequence: string[][];
	phased: boolean;
	config: Pick<ProbeConfig, 'temperatures' | 'perturbations' | 'samples' | 'judge_mode'>;
}

/**
 * The realistic configuration: 50 GSM8K items × temps [0, 0.5, 1] × 3 perturbations × 3 samples
 * (one at T=0, where decoding is greedy).
 */
export function countConfig(): ProbeConfig {
	return realisticConfig('bench-counts', COUNT_ITEMS);
}

/**
 * Runs the pipeline once on a zero-latency engine that cannot hold generator and judge together
 * (so the run is phased, as on a laptop GPU) and counts what it was asked to do.
 * @throws Error when the run reports a failure: counts from a broken run would mislead.
 */
export async function measureCounts(config: ProbeConfig = countConfig()): Promise<WorkCounts> {
	const engine = new ScriptedEngine({ script: createProbeScript(), canCoLoad: () => false });
	const store = new MemoryStore();
	let phased = false;
	for await (const e of runProbe(config, {
		engine,
		judge: engine,
		store,
		template: fixtureTemplate()
	})) {
		if (e.type === 'plan') phased = e.phased;
		if (e.type === 'error') throw new Error(`counting run failed: ${e.name}: ${e.message}`);
	}
	const records = await store.getRecords(config.run_id);
	const conditions = planConditions(config).length;
	const completes = engine.calls.filter((c) => c.kind === 'complete');
	const userTurns = completes.filter((c) => asksForUserTurn(c.prompt)).length;
	return {
		items: config.items.length,
		conditions,
		records: records.length,
		assistantGenerations: completes.length - userTurns,
		naiveAssistantGenerations: config.items.length * conditions,
		userTurnGenerations: userTurns,
		judgeCalls: engine.count('chat'),
		undecidedRecords: records.filter((r) => r.rule_label === 'undecided').length,
		modelLoads: engine.loads.length,
		loadSequence: engine.loads,
		phased,
		config: {
			temperatures: config.temperatures,
			perturbations: config.perturbations,
			samples: config.samples,
			judge_mode: config.judge_mode
		}
	};
}
