import { describe, expect, it } from 'vitest';
import type { BudgetOutcome } from '../../bench/budgets.ts';
import { formatTable } from '../../bench/report.ts';

const outcome = (o: Partial<BudgetOutcome>): BudgetOutcome => ({
	metric: 'initialJsGzipKB',
	op: '<=',
	value: 15,
	limit: 100,
	status: 'pass',
	why: 'light',
	...o
});

describe('formatTable', () => {
	it('aligns columns, right-aligns values and shows each budget status', () => {
		const table = formatTable([
			{ metric: 'items', value: 50 },
			{ metric: 'initialJsGzipKB', value: 14.96, budget: outcome({}) },
			{ metric: 'modelLoads', value: 3, budget: outcome({ op: '<=', limit: 2, status: 'fail' }) },
			{
				metric: 'longestTaskCpuMs',
				value: null,
				budget: outcome({ value: null, limit: 50, status: 'unavailable', reason: 'no view' })
			}
		]);
		expect(table.split('\n')).toEqual([
			'metric            value  budget  status  note',
			'----------------  -----  ------  ------  -------',
			'items                50',
			'initialJsGzipKB   14.96  <= 100  ok',
			'modelLoads            3  <= 2    FAIL',
			'longestTaskCpuMs   null  <= 50   n/a     no view'
		]);
	});
});
