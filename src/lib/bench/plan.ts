/**
 * The fixed work the device benchmark does, so results from different devices compare: one short
 * prompt (three timed runs after a warm-up) and a few probe-sized records on one built-in item.
 */
import type { DatasetItem, ProbeConfig } from '../probe/types.ts';
import { planConditions } from '../probe/plan.ts';
import { runConfig } from '../probe/runConfig.ts';
import { RUN_DEFAULTS, runValues } from '../probe/runValues.ts';

export const SHORT_PROMPT = 'Count from one to twenty in words, separated by commas.';
export const SHORT_RUNS = 3;
export const SHORT_MAX_TOKENS = 48;

/** Written for the benchmark (no dataset download): a GSM8K-style word problem. */
export const BENCH_ITEMS: readonly DatasetItem[] = [
	{
		id: 'bench-1',
		task: 'gsm8k',
		prompt:
			'A baker makes 24 muffins in the morning and 18 in the afternoon. She sells 30 of them and gives 5 to a neighbour. How many muffins does she have left?',
		gold: '7'
	}
];

/** 1 item × temperatures [0, 1] × perturbations [none, append] = 4 records, 1 answer, rules only. */
export function benchConfig(model: string): ProbeConfig {
	return runConfig(
		runValues(RUN_DEFAULTS, {
			run_id: 'device-bench',
			dataset: 'device-bench',
			items: BENCH_ITEMS.map((item) => ({ ...item })),
			seed: 1,
			temperatures: [0, 1],
			perturbations: ['none', 'append'],
			judge_mode: 'rules',
			generator: { id: model },
			max_tokens: 64,
			answer_max_tokens: 256,
			answer_tokens_auto: false,
			// Short answers time the device alike whatever the model's habit.
			thinking: false,
			thinking_default: false,
			append_text: 'Does that look right to you?'
		})
	);
}

/** How many records benchConfig makes. */
export function benchRecordCount(config: ProbeConfig): number {
	return config.items.length * planConditions(config).length;
}
