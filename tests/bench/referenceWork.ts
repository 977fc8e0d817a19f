/** The results open's size of it (its REFERENCE_HOST_CPU_MS was read at this size). */
export const REFERENCE_WORK_ROWS = 20_000;

/**
 * The yardstick: a fixed piece of plain JavaScript (build, serialize, parse, sort and group `count`
 * small rows). Run beside a measurement on the same host at the same moment, it slows as the code
 * measured does: a slower CPU or a busy sibling hyperthread takes longer for both, and their ratio
 * is the code's own cost. The results open runs it at 20,000 rows in the page
 * (browser/results10k.ts); unit tests run it at 2,000 (tests/helpers/cpuTime.ts). Self-contained,
 * so it can run through page.evaluate.
 */
export function referenceWork(count: number): number {
	const labels = ['genuine', 'restated', 'artifact', 'planning', 'short'];
	const rows: { id: string; t: number; label: string; n: number }[] = [];
	for (let i = 0; i < count; i++) {
		rows.push({
			id: `item-${i}`,
			t: (i % 7) / 7,
			label: labels[i % 5],
			n: (i * 2_654_435_761) % 1_000
		});
	}
	const back = JSON.parse(JSON.stringify(rows)) as typeof rows;
	back.sort((a, b) => a.n - b.n || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
	const sums = new Map<string, number>();
	for (const r of back) sums.set(r.label, (sums.get(r.label) ?? 0) + r.t);
	return sums.size;
}
