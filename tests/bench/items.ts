/** GSM8K items from the shared fixture, as the app's dataset loader would normalize them. */
import { normalizeGsm8kRow } from '../../src/lib/datasets/tasks/gsm8k.ts';
import type { DatasetItem } from '../../src/lib/probe/types.ts';
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
