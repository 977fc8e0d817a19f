/**
 * The bench's budgets and the check that turns results into pass / fail / unavailable.
 * A metric that could not be measured is `unavailable` with its reason, never a silent pass.
 */

/** The numbers `npm run bench` writes to bench-results.json (null: could not be measured). */
export interface BenchMetrics {
	items: number;
	conditions: number;
	assistantGenerations: number;
	naiveAssistantGenerations: number;
	userTurnGenerations: number;
	judgeCalls: number;
	undecidedRecords: number;
	modelLoads: number;
	overheadMsPerRecordMedian: number;
	overheadMsPerRecordP95: number;
	/**
	 * The overhead's CPU-time median over the reference's (tests/bench/reference.ts, sampled between
	 * the records): what the app adds per record in units of a bare clone-and-put, on any host.
	 */
	overheadCpuPerReference: number;
	/** Entry scripts and their static imports only (tests/build/bundleReport.ts). */
	initialJsGzipKB: number | null;
	/** All JS requested before the home view's first paint, in Chromium (browser/firstView.ts). */
	firstViewJsGzipKB: number | null;
	/** The same for a first visit straight to set-up. */
	setupViewJsGzipKB: number | null;
	/**
	 * A first visit on a slow laptop and network (browser/firstVisit.ts, median of 3): navigation
	 * to the service worker installed, its precache done.
	 */
	firstVisitPrecacheMs: number | null;
	/** Of those 3 untouched first visits, how many reloaded themselves (isolation) within 40 s. */
	firstVisitReloadBeforeClick: number | null;
	webllmChunkGzipKB: number | null;
	longestTaskCpuMs: number | null;
	/** The browser's server engine over the CLI on the same mock, a median of rounds (browser/serverRatio.ts). */
	browserVsCliServerRatio: number | null;
	/** Requests in flight the browser's server engine asks for by default. */
	browserServerConcurrency: number;
	/**
	 * The 10,000-record results open's main-thread CPU, scaled to the host the budget was set on by
	 * a yardstick run in the same page (browser/results10k.ts); the unscaled CPU is in its detail.
	 */
	results10kRenderCpuMs: number | null;
	/** The CLI on a fully stored 100,000-record run (tests/bench/cli100k.ts), own process each. */
	cliResume100kCpuMs: number;
	cliResume100kPeakRssMB: number;
	/** Model requests (completions, chat) the resume made: everything was stored, so none. */
	cliResume100kModelRequests: number;
	cliSummarize100kCpuMs: number;
	cliSummarize100kPeakRssMB: number;
	/** The same run grown to 300,000 records: peaks bounded, CPU 300k / CPU 100k near 3 (linear). */
	cliResume300kPeakRssMB: number;
	cliSummarize300kPeakRssMB: number;
	cliResumeCpuScale: number;
	cliSummarizeCpuScale: number;
	/**
	 * A million records (tests/bench/cli1m.ts): resume with all stored, summarize of the run, and of
	 * a study of four runs; peak RSS of the process started as the installed command starts.
	 */
	cliResume1mPeakRssMB: number | null;
	cliResume1mModelRequests: number | null;
	cliSummarize1mPeakRssMB: number | null;
	cliSummarizeStudy1mPeakRssMB: number | null;
	/** 15,000 streamed requests at 64 in flight (tests/bench/cliLoad.ts), own process. */
	cliLoadHeapGrowth: number;
	cliLoadPeakRssMB: number;
	cliLoadWarnings: number;
	/** The browser store with 10,000 records (tests/bench/dbScale.ts), fake-indexeddb in Node; CPU ms. */
	dbImport10kMs: number;
	dbPage10kMaxMs: number;
	dbReadAll10kMaxMs: number;
}

export type BudgetStatus = 'pass' | 'fail' | 'unavailable';

export interface Budget {
	metric: keyof BenchMetrics;
	op: '<=' | '==';
	/** The limit, computed from the results when it depends on the run's shape. */
	limit: (m: BenchMetrics) => number;
	/** Why the budget exists, printed beside a failure. */
	why: string;
}

export interface BudgetOutcome {
	metric: keyof BenchMetrics;
	op: '<=' | '==';
	value: number | null;
	limit: number;
	status: BudgetStatus;
	why: string;
	/** For unavailable metrics: why it could not be measured. */
	reason?: string;
}

/**
 * The per-record overhead in reference units (CPU time over CPU time, both sampled in the same run).
 * A budget in milliseconds flaked with the host: the same code read 0.45 ms per record on one CI
 * host and 0.93–1.12 ms on a quiet machine of the same kind, and under load its wall time doubled
 * again. In reference units it read 1.12–1.17 with a load average of 10–16 on 2 cores (three runs);
 * docs/testing.md has the quiet figures. 1.5 keeps the gate about 30% above today's figure, as the
 * millisecond budget did.
 */
export const OVERHEAD_PER_REFERENCE_BUDGET = 1.5;
export const INITIAL_JS_BUDGET_KB = 100;
/** What the first screen fetches before it shows, all chunks counted. */
export const FIRST_VIEW_JS_BUDGET_KB = 60;
/** The same for set-up opened directly (a shared set-up link, a reload on set-up). */
export const SETUP_VIEW_JS_BUDGET_KB = 100;
/**
 * A first visit on the throttled profile (4× CPU, 1.6 Mbps, 150 ms RTT): the service worker has
 * the app offline within this, so a visitor who leaves soon after still has it (issue 39).
 */
export const FIRST_VISIT_PRECACHE_BUDGET_MS = 8_000;
/**
 * The limits the timed unit test held (loose, as machines vary); it was moved here. Since read as
 * CPU time of the bench process: the wall clock also counted the other jobs on a shared host.
 */
export const DB_10K_BULK_BUDGET_MS = 15_000;
export const DB_10K_PAGE_BUDGET_MS = 1_500;
export const LONGEST_TASK_CPU_BUDGET_MS = 50;
/**
 * The tab's run time over the CLI's on the same mock and concurrency, a median of rounds (issue
 * 39). It read 1.03–1.16 while the tab sent each request itself; since two more wait in the
 * browser's own queue, 0.996–1.00 quiet and 0.978–1.04 beside two builds (docs/testing.md).
 */
export const BROWSER_VS_CLI_SERVER_RATIO_BUDGET = 1.1;
/** HTTP/1.1 connections a browser opens per host (Chromium, Firefox): more requests only queue. */
export const BROWSER_CONNECTIONS_PER_HOST = 6;
export const RESULTS_10K_RENDER_CPU_BUDGET_MS = 300;
export const CLI_RESUME_100K_CPU_BUDGET_MS = 5000;
export const CLI_100K_RSS_BUDGET_MB = 300;
/** Peak RSS of resume and summarize at a million records, one run or a study of four (cli1m.ts). */
export const CLI_1M_RSS_BUDGET_MB = 300;
/** CPU at 300k records over CPU at 100k: 3 is linear (less, as start-up is shared), 9 quadratic. */
export const CLI_CPU_SCALE_BUDGET = 4;
/** Heap after a full GC at the end of the run over its value after the first 1,000 requests. */
export const CLI_LOAD_HEAP_GROWTH_BUDGET = 1.5;
export const CLI_LOAD_RSS_BUDGET_MB = 250;

/** One row: a fixed limit, or a function of the results when it depends on the run's shape. */
function budget(
	metric: Budget['metric'],
	op: Budget['op'],
	limit: number | Budget['limit'],
	why: string
): Budget {
	return { metric, op, limit: typeof limit === 'number' ? () => limit : limit, why };
}

export const BUDGETS: Budget[] = [
	budget(
		'assistantGenerations',
		'==',
		(m) => m.items,
		'one assistant answer per item, reused by every condition'
	),
	budget(
		'userTurnGenerations',
		'==',
		(m) => m.items * m.conditions,
		'exactly one user turn per item and condition'
	),
	budget(
		'judgeCalls',
		'<=',
		(m) => m.undecidedRecords,
		'hybrid judging calls the judge only where the rules are undecided'
	),
	budget('modelLoads', '<=', 2, 'a phased run loads the generator once and the judge once'),
	budget(
		'overheadCpuPerReference',
		'<=',
		OVERHEAD_PER_REFERENCE_BUDGET,
		'the app must add next to nothing to each record (in bare clone-and-puts, so any host)'
	),
	budget(
		'initialJsGzipKB',
		'<=',
		INITIAL_JS_BUDGET_KB,
		'the first page load stays light (issue 8)'
	),
	budget(
		'firstViewJsGzipKB',
		'<=',
		FIRST_VIEW_JS_BUDGET_KB,
		'the first screen waits for no code it does not show (every chunk counted)'
	),
	budget(
		'setupViewJsGzipKB',
		'<=',
		SETUP_VIEW_JS_BUDGET_KB,
		'set-up paints before the database, the probe core and the template renderer load'
	),
	budget(
		'firstVisitPrecacheMs',
		'<=',
		FIRST_VISIT_PRECACHE_BUDGET_MS,
		'a first visit on a slow laptop and network is offline-ready within seconds (issue 39)'
	),
	budget(
		'firstVisitReloadBeforeClick',
		'==',
		0,
		'a page being read never reloads itself (isolation waits for the CPU engine or a new visit)'
	),
	budget(
		'longestTaskCpuMs',
		'<=',
		LONGEST_TASK_CPU_BUDGET_MS,
		'the page stays responsive while a run streams'
	),
	budget(
		'browserVsCliServerRatio',
		'<=',
		BROWSER_VS_CLI_SERVER_RATIO_BUDGET,
		"the browser's server engine runs at the CLI's pace on the same server (issue 39)"
	),
	budget(
		'browserServerConcurrency',
		'<=',
		BROWSER_CONNECTIONS_PER_HOST,
		'the server engine asks for no more requests in flight than a browser opens connections'
	),
	budget(
		'results10kRenderCpuMs',
		'<=',
		RESULTS_10K_RENDER_CPU_BUDGET_MS,
		'a 10,000-record run opens without a wait'
	),
	budget(
		'cliResume100kCpuMs',
		'<=',
		CLI_RESUME_100K_CPU_BUDGET_MS,
		'resuming a finished 100,000-record CLI run is quick (issue 14)'
	),
	budget(
		'cliResume100kPeakRssMB',
		'<=',
		CLI_100K_RSS_BUDGET_MB,
		'the CLI resumes a run of any size in bounded memory, not ~4x the file (issue 14)'
	),
	budget('cliResume100kModelRequests', '==', 0, 'resume makes nothing that is already stored'),
	budget(
		'cliSummarize100kPeakRssMB',
		'<=',
		CLI_100K_RSS_BUDGET_MB,
		'summarize streams the file: memory does not grow with its size (issue 14)'
	),
	budget(
		'cliResume300kPeakRssMB',
		'<=',
		CLI_100K_RSS_BUDGET_MB,
		'resume memory is bounded: 300,000 records fit where 100,000 do'
	),
	budget(
		'cliSummarize300kPeakRssMB',
		'<=',
		CLI_100K_RSS_BUDGET_MB,
		'summarize memory is bounded: 300,000 records fit where 100,000 do'
	),
	budget(
		'cliResumeCpuScale',
		'<=',
		CLI_CPU_SCALE_BUDGET,
		'resume CPU grows linearly with the records stored'
	),
	budget(
		'cliSummarizeCpuScale',
		'<=',
		CLI_CPU_SCALE_BUDGET,
		'summarize CPU grows linearly with the records stored'
	),
	budget(
		'cliResume1mPeakRssMB',
		'<=',
		CLI_1M_RSS_BUDGET_MB,
		'resume holds a fixed number of bytes per stored record, and reads them one at a time: a million fit'
	),
	budget('cliResume1mModelRequests', '==', 0, 'resume makes nothing that is already stored'),
	budget(
		'cliSummarize1mPeakRssMB',
		'<=',
		CLI_1M_RSS_BUDGET_MB,
		'summarize holds a few packed bytes per record, not the records: a million fit (issue 39)'
	),
	budget(
		'cliSummarizeStudy1mPeakRssMB',
		'<=',
		CLI_1M_RSS_BUDGET_MB,
		'a study of several runs holds packed facts too: a million records over four runs fit'
	),
	budget(
		'cliLoadHeapGrowth',
		'<=',
		CLI_LOAD_HEAP_GROWTH_BUDGET,
		'a long run keeps no memory per request: the heap after GC holds still'
	),
	budget(
		'cliLoadPeakRssMB',
		'<=',
		CLI_LOAD_RSS_BUDGET_MB,
		'64 requests in flight for 15,000 requests fit in a small, fixed amount of memory'
	),
	budget('cliLoadWarnings', '==', 0, 'no listener (or other) warning however many are in flight'),
	budget(
		'dbImport10kMs',
		'<=',
		DB_10K_BULK_BUDGET_MS,
		'importing a 10,000-record run stays within seconds'
	),
	budget(
		'dbPage10kMaxMs',
		'<=',
		DB_10K_PAGE_BUDGET_MS,
		'paging through a 10,000-record run, deep or filtered, stays interactive'
	),
	budget(
		'dbReadAll10kMaxMs',
		'<=',
		DB_10K_BULK_BUDGET_MS,
		'resume, export and delete of a 10,000-record run stay within seconds'
	)
];

/**
 * @param unavailable why each null metric could not be measured (a null without a reason is
 * reported as such, so nothing goes missing quietly).
 */
export function checkBudgets(
	m: BenchMetrics,
	unavailable: Partial<Record<keyof BenchMetrics, string>> = {},
	budgets: Budget[] = BUDGETS
): BudgetOutcome[] {
	return budgets.map((b) => {
		const value = m[b.metric];
		const limit = b.limit(m);
		const base = { metric: b.metric, op: b.op, value, limit, why: b.why };
		if (value === null) {
			return { ...base, status: 'unavailable', reason: unavailable[b.metric] ?? 'not measured' };
		}
		const ok = b.op === '==' ? value === limit : value <= limit;
		return { ...base, status: ok ? 'pass' : 'fail' };
	});
}

/**
 * One line per failed budget, e.g. "initialJsGzipKB 104.2 > 100: the first page load …", ending
 * with how loaded the machine was (`load`, from loadNote) when given: a timing that fails on a
 * machine running other jobs reads differently from one that fails on a quiet one.
 */
export function describeFailures(outcomes: BudgetOutcome[], load = ''): string[] {
	return outcomes
		.filter((o) => o.status === 'fail')
		.map((o) => `${o.metric} = ${o.value}, budget ${o.op} ${o.limit}: ${o.why}${load}`);
}

/**
 * The machine's load as a failure's last words: the 1-minute load averages at the bench's start
 * and now, and "loaded" when either exceeds the core count (more runnable jobs than cores).
 */
export function loadNote(startLoad: number, endLoad: number, cores: number): string {
	const loaded = Math.max(startLoad, endLoad) > cores;
	return ` (load average ${startLoad.toFixed(2)} at the start, ${endLoad.toFixed(2)} at the end, on ${cores} cores: ${loaded ? 'the machine was loaded' : 'a quiet machine'})`;
}
