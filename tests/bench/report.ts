/** The bench's printed table. */
import type { BudgetOutcome } from './budgets.ts';

export interface Row {
	metric: string;
	value: number | string | null;
	budget?: BudgetOutcome;
	note?: string;
}

const STATUS: Record<BudgetOutcome['status'], string> = {
	pass: 'ok',
	fail: 'FAIL',
	unavailable: 'n/a'
};

function cell(v: number | string | null): string {
	if (v === null) return 'null';
	return typeof v === 'number' ? v.toLocaleString('en', { maximumFractionDigits: 3 }) : v;
}

/** Fixed-width columns: metric, value, budget, status, note. */
export function formatTable(rows: Row[]): string {
	const cells = rows.map((r) => [
		r.metric,
		cell(r.value),
		r.budget ? `${r.budget.op} ${cell(r.budget.limit)}` : '',
		r.budget ? STATUS[r.budget.status] : '',
		r.note ?? (r.budget?.status === 'unavailable' ? (r.budget.reason ?? '') : '')
	]);
	const header = ['metric', 'value', 'budget', 'status', 'note'];
	const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
	const line = (c: string[]) =>
		c
			.map((x, i) => (i === 1 ? x.padStart(widths[i]) : x.padEnd(widths[i])))
			.join('  ')
			.trimEnd();
	return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
