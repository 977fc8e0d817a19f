/** GSM8K items from the shared fixture, as the app's dataset loader would normalize them. */
import { normalizeGsm8kRow } from '../../src/lib/datasets/tasks/gsm8k.ts';
import { runConfig } from '../../src/lib/probe/runConfig.ts';
import type { DatasetItem, ProbeConfig } from '../../src/lib/probe/types.ts';
import { runValues } from '../helpers/factories.ts';
import { readJsonl } from '../helpers/fixtures.ts';

/**
 * The first `n` fixture items.
 * @throws Error when the fixture holds fewer than `n` rows.
 */
export function gsm8kItems(n: number): DatasetItem[] {
	const rows = readJsonl<Record<string, unknown>>('gsm8k/test.jsonl');
	if (rows.length < n) throw new Error(`gsm8k fixture has ${rows.length} rows, need ${n}`);
	return rows.slice(0, n).map((row, i) => normalizeGsm8kRow(row, i));
}

/**
 * The realistic configuration, made as a run makes it (runConfig): `n` GSM8K items × temps
 * [0, 0.5, 1] × 3 perturbations × 3 samples (one at T=0, where decoding is greedy), hybrid labels.
 */
export function realisticConfig(runId: string, n: number): ProbeConfig {
	return runConfig(
		runValues({
			run_id: runId,
			dataset: 'gsm8k',
			judge_mode: 'hybrid',
			items: gsm8kItems(n),
			temperatures: [0, 0.5, 1],
			perturbations: ['none', 'truncate', 'append'],
			samples: 3,
			answer_max_tokens: 512,
			max_tokens: 128
		})
	);
}
