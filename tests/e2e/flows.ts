/** Multi-step journeys several scenarios share: a whole run from the set-up view to "done". */
import type { Page } from 'playwright-core';
import type { MockOpenAI } from '../helpers/mockOpenAI.ts';
import type { ScriptName } from '../helpers/mockScripts.ts';
import {
	configureRun,
	openView,
	startRun,
	TEMPLATE_FILE,
	waitForDone,
	type RunSetup
} from './app.ts';
import type { E2EContext } from './context.ts';
import type { StoredRun } from './idb.ts';

/** The small default plan: 4 items × T {0, 1} × {none, truncate} × 1 sample = 16 records. */
export const SMALL_PLAN = {
	items: 4,
	temperatures: [0, 1],
	truncate: true,
	samples: 1,
	judgeMode: 'hybrid'
} as const satisfies Omit<RunSetup, 'mock' | 'templateUrl'>;

export function plannedRecords(plan: Omit<RunSetup, 'mock' | 'templateUrl'>): number {
	return plan.items * plan.temperatures.length * (plan.truncate ? 2 : 1) * plan.samples;
}

export interface CompletedRun {
	runId: string;
	planned: number;
	stored: StoredRun;
	mock: MockOpenAI;
}

/** Set up a run against a fresh mock with `script`, start it and wait until it is stored as done. */
export async function completeRun(
	ctx: E2EContext,
	page: Page,
	opts: { script?: ScriptName; plan?: Omit<RunSetup, 'mock' | 'templateUrl'> } = {}
): Promise<CompletedRun> {
	const plan = opts.plan ?? SMALL_PLAN;
	const mock = await ctx.mock(opts.script ?? 'probe');
	await openView(page, ctx.app.url, '#/setup');
	await configureRun(page, { ...plan, mock, templateUrl: ctx.app.templateUrl(TEMPLATE_FILE) });
	const runId = await startRun(page);
	const planned = plannedRecords(plan);
	const stored = await waitForDone(page, runId, planned);
	return { runId, planned, stored, mock };
}
