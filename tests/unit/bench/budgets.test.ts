import { describe, expect, it } from 'vitest';
import {
	checkBudgets,
	describeFailures,
	loadNote,
	OVERHEAD_PER_REFERENCE_BUDGET,
	type BenchMetrics
} from '../../bench/budgets.ts';
import { median, quantile, round } from '../../bench/stats.ts';

function metrics(overrides: Partial<BenchMetrics> = {}): BenchMetrics {
	return {
		items: 50,
		conditions: 27,
		assistantGenerations: 50,
		naiveAssistantGenerations: 1350,
		userTurnGenerations: 1350,
		judgeCalls: 500,
		undecidedRecords: 521,
		modelLoads: 2,
		overheadMsPerRecordMedian: 0.3,
		overheadMsPerRecordP95: 1.2,
		overheadCpuPerReference: 1.15,
		initialJsGzipKB: 80,
		firstViewJsGzipKB: 30,
		setupViewJsGzipKB: 90,
		firstVisitPrecacheMs: 3000,
		firstVisitReloadBeforeClick: 0,
		webllmChunkGzipKB: 2100,
		longestTaskCpuMs: 20,
		browserVsCliServerRatio: 1.1,
		browserServerConcurrency: 6,
		results10kRenderCpuMs: 250,
		cliResume100kCpuMs: 2500,
		cliResume100kPeakRssMB: 250,
		cliResume100kModelRequests: 0,
		cliSummarize100kCpuMs: 2000,
		cliSummarize100kPeakRssMB: 170,
		cliResume300kPeakRssMB: 200,
		cliSummarize300kPeakRssMB: 200,
		cliResumeCpuScale: 2.8,
		cliSummarizeCpuScale: 2.9,
		cliResume1mPeakRssMB: 120,
		cliResume1mModelRequests: 0,
		cliSummarize1mPeakRssMB: 250,
		cliSummarizeStudy1mPeakRssMB: 250,
		cliLoadHeapGrowth: 0.9,
		cliLoadPeakRssMB: 200,
		cliLoadWarnings: 0,
		dbImport10kMs: 4000,
		dbPage10kMaxMs: 300,
		dbReadAll10kMaxMs: 3000,
		...overrides
	};
}

describe('checkBudgets', () => {
	it('passes a run within every budget', () => {
		const out = checkBudgets(metrics());
		expect(out.every((o) => o.status === 'pass')).toBe(true);
		expect(describeFailures(out)).toEqual([]);
	});

	it.each([
		{ change: { assistantGenerations: 1350 }, metric: 'assistantGenerations' },
		{ change: { userTurnGenerations: 1349 }, metric: 'userTurnGenerations' },
		{ change: { judgeCalls: 600 }, metric: 'judgeCalls' },
		{ change: { modelLoads: 3 }, metric: 'modelLoads' },
		{
			change: { overheadCpuPerReference: OVERHEAD_PER_REFERENCE_BUDGET + 0.01 },
			metric: 'overheadCpuPerReference'
		},
		{ change: { initialJsGzipKB: 100.01 }, metric: 'initialJsGzipKB' },
		{ change: { firstViewJsGzipKB: 60.01 }, metric: 'firstViewJsGzipKB' },
		{ change: { setupViewJsGzipKB: 100.01 }, metric: 'setupViewJsGzipKB' },
		{ change: { firstVisitPrecacheMs: 8001 }, metric: 'firstVisitPrecacheMs' },
		{ change: { firstVisitReloadBeforeClick: 1 }, metric: 'firstVisitReloadBeforeClick' },
		{ change: { longestTaskCpuMs: 51 }, metric: 'longestTaskCpuMs' },
		{ change: { browserVsCliServerRatio: 1.11 }, metric: 'browserVsCliServerRatio' },
		{ change: { browserServerConcurrency: 8 }, metric: 'browserServerConcurrency' },
		{ change: { results10kRenderCpuMs: 301 }, metric: 'results10kRenderCpuMs' },
		{ change: { cliResume100kCpuMs: 5001 }, metric: 'cliResume100kCpuMs' },
		{ change: { cliResume100kPeakRssMB: 301 }, metric: 'cliResume100kPeakRssMB' },
		{ change: { cliResume100kModelRequests: 1 }, metric: 'cliResume100kModelRequests' },
		{ change: { cliSummarize100kPeakRssMB: 301 }, metric: 'cliSummarize100kPeakRssMB' },
		{ change: { cliResume300kPeakRssMB: 301 }, metric: 'cliResume300kPeakRssMB' },
		{ change: { cliSummarize300kPeakRssMB: 301 }, metric: 'cliSummarize300kPeakRssMB' },
		{ change: { cliResumeCpuScale: 4.1 }, metric: 'cliResumeCpuScale' },
		{ change: { cliSummarizeCpuScale: 4.1 }, metric: 'cliSummarizeCpuScale' },
		{ change: { cliResume1mPeakRssMB: 301 }, metric: 'cliResume1mPeakRssMB' },
		{ change: { cliResume1mModelRequests: 1 }, metric: 'cliResume1mModelRequests' },
		{ change: { cliSummarize1mPeakRssMB: 301 }, metric: 'cliSummarize1mPeakRssMB' },
		{ change: { cliSummarizeStudy1mPeakRssMB: 301 }, metric: 'cliSummarizeStudy1mPeakRssMB' },
		{ change: { cliLoadHeapGrowth: 1.51 }, metric: 'cliLoadHeapGrowth' },
		{ change: { cliLoadPeakRssMB: 251 }, metric: 'cliLoadPeakRssMB' },
		{ change: { cliLoadWarnings: 1 }, metric: 'cliLoadWarnings' },
		{ change: { dbImport10kMs: 15_001 }, metric: 'dbImport10kMs' },
		{ change: { dbPage10kMaxMs: 1_501 }, metric: 'dbPage10kMaxMs' },
		{ change: { dbReadAll10kMaxMs: 15_001 }, metric: 'dbReadAll10kMaxMs' }
	])('fails $metric when it regresses', ({ change, metric }) => {
		const out = checkBudgets(metrics(change));
		expect(out.filter((o) => o.status === 'fail').map((o) => o.metric)).toEqual([metric]);
		expect(describeFailures(out)[0]).toContain(metric);
	});

	it('reports an unmeasured metric as unavailable with its reason, not as a pass', () => {
		const out = checkBudgets(metrics({ longestTaskCpuMs: null, results10kRenderCpuMs: null }), {
			longestTaskCpuMs: 'run view is a placeholder'
		});
		expect(out.find((o) => o.metric === 'longestTaskCpuMs')).toMatchObject({
			status: 'unavailable',
			reason: 'run view is a placeholder'
		});
		expect(out.find((o) => o.metric === 'results10kRenderCpuMs')).toMatchObject({
			status: 'unavailable',
			reason: 'not measured'
		});
		expect(describeFailures(out)).toEqual([]);
	});

	it('says with each failure whether the machine was loaded', () => {
		const out = checkBudgets(metrics({ longestTaskCpuMs: 58 }));
		expect(describeFailures(out, loadNote(14.2, 9.5, 2))[0]).toMatch(
			/^longestTaskCpuMs = 58, .*load average 14\.20 at the start, 9\.50 at the end, on 2 cores: the machine was loaded\)$/
		);
		expect(describeFailures(out, loadNote(0.4, 1.1, 2))[0]).toContain('a quiet machine');
	});

	it('takes limits that depend on the run shape from the results', () => {
		const out = checkBudgets(
			metrics({ items: 10, conditions: 3, assistantGenerations: 10, userTurnGenerations: 30 })
		);
		expect(out.find((o) => o.metric === 'userTurnGenerations')).toMatchObject({
			limit: 30,
			status: 'pass'
		});
	});
});

describe('bench statistics', () => {
	it.each([
		{ xs: [5], q: 0.95, want: 5 },
		{ xs: [1, 2, 3, 4], q: 0.5, want: 2 },
		{ xs: Array.from({ length: 100 }, (_, i) => i + 1), q: 0.95, want: 95 },
		{ xs: [9, 1, 5], q: 1, want: 9 },
		{ xs: [9, 1, 5], q: 0, want: 1 }
	])('nearest-rank quantile $q of $xs.length values is $want', ({ xs, q, want }) => {
		expect(quantile(xs, q)).toBe(want);
	});

	it('refuses an empty sample or a quantile outside [0, 1]', () => {
		expect(() => median([])).toThrow(RangeError);
		expect(() => quantile([1], 1.5)).toThrow(RangeError);
	});

	it.each([
		{ x: 0.123456, want: 0.123 },
		{ x: 12.3456, want: 12.35 },
		{ x: 1234.56, want: 1234.6 }
	])('rounds $x to $want', ({ x, want }) => {
		expect(round(x)).toBe(want);
	});
});
