/** Multi-step journeys several scenarios share: a whole run from the set-up view to "done". */
import type { Page } from 'playwright-core';
import type { MockOpenAI } from '../helpers/mockOpenAI.ts';
import type { ScriptName } from '../helpers/mockScripts.ts';
import { fixturePath } from '../helpers/fixtures.ts';
import {
	configureRun,
	openView,
	startRun,
	TEMPLATE_FILE,
	waitForDone,
	type RunPlan,
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
} as const satisfies RunPlan;

export function plannedRecords(plan: RunPlan): number {
	// Greedy decoding makes one turn at T=0, whatever the samples.
	const perItem = plan.temperatures.reduce((n, t) => n + (t === 0 ? 1 : plan.samples), 0);
	return plan.items * perItem * (plan.truncate ? 2 : 1);
}

/**
 * Where a run's template comes from: a tokenizer_config.json URL (the default: Qwen's special
 * tokens come with it), the bare .jinja by URL, or the .jinja uploaded as a file.
 */
export type TemplateFrom = 'config-url' | 'jinja-url' | 'jinja-file';

export function templateSource(
	ctx: E2EContext,
	from: TemplateFrom = 'config-url'
): RunSetup['template'] {
	if (from === 'jinja-file') return { file: fixturePath(`templates/${TEMPLATE_FILE}`) };
	if (from === 'jinja-url') return { url: ctx.app.templateUrl(TEMPLATE_FILE) };
	return { url: ctx.app.tokenizerConfigUrl(TEMPLATE_FILE) };
}

export interface CompletedRun {
	runId: string;
	planned: number;
	stored: StoredRun;
	mock: MockOpenAI;
}

export type StartedRun = Omit<CompletedRun, 'stored'>;

/** Set up a run against a fresh mock with `script` and start it: the run view is open. */
export async function startFreshRun(
	ctx: E2EContext,
	page: Page,
	opts: { script?: ScriptName; plan?: RunPlan; template?: TemplateFrom; tokenDelayMs?: number } = {}
): Promise<StartedRun> {
	const plan = opts.plan ?? SMALL_PLAN;
	const mock = await ctx.mock(opts.script ?? 'probe', { tokenDelayMs: opts.tokenDelayMs });
	await openView(page, ctx.app.url, '#/setup');
	await configureRun(page, { ...plan, mock, template: templateSource(ctx, opts.template) });
	const runId = await startRun(page);
	return { runId, planned: plannedRecords(plan), mock };
}

/** startFreshRun, then wait until the run is stored as done. */
export async function completeRun(
	ctx: E2EContext,
	page: Page,
	opts: { script?: ScriptName; plan?: RunPlan; template?: TemplateFrom } = {}
): Promise<CompletedRun> {
	const started = await startFreshRun(ctx, page, opts);
	return { ...started, stored: await waitForDone(page, started.runId, started.planned) };
}
