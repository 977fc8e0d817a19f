/**
 * `npm run bench`: proves the probe wastes no model work and the app stays light.
 *
 *   npm run bench                      everything; builds dist/ first only if it is missing
 *   npm run bench -- --build           rebuild dist/ first
 *   npm run bench -- --skip-browser    only the Node measurements (browser metrics null, with why)
 *   npm run bench -- --skip-real       without the real-inference run (tiny model in llama.cpp)
 *   npm run bench -- --strict          also fail when a metric could not be measured
 *   npm run bench -- --only longTasks  only the Chromium long-task run (prints it; no JSON, no budgets)
 *   npm run bench -- --only firstView  only the JS the home and set-up views wait for (likewise)
 *   npm run bench -- --only firstVisit a first visit on a throttled profile: precache time, reloads
 *                                      (prints it; no JSON, no budgets)
 *   npm run bench -- --only cpuThreads the CPU engine at 1 thread and isolated, decode and records/min
 *   npm run bench -- --only results10k the 10,000-record results view's open (after the overhead run)
 *                                      (prints it; no JSON)
 *   npm run bench -- --only serverRatio the browser's server engine over the CLI, the median of 3
 *                                      rounds (prints it with each and the load average; no JSON)
 *   npm run bench -- --only cli1m      the CLI's resume and summarize at 1,000,000 records (prints
 *                                      them with their budgets and the load average; no JSON)
 *   npm run bench -- --dist DIR        measure the build in DIR instead of dist/ (e.g. a private one)
 *
 * Prints a table, writes bench-results.json at the repository root, exits 1 when a budget
 * regresses or a browser measurement breaks (and says which).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../e2e/server.ts';
import { BUDGETS, checkBudgets, describeFailures, loadNote, type BenchMetrics } from './budgets.ts';
import { hasBuild, measureBundle, type BundleSizes } from './bundle.ts';
import { CLI_100K_METHOD, CLI_NODE_FLAGS, measureCliScale } from './cli100k.ts';
import { CLI_1M_METHOD, measureCli1m, type Cli1mResult } from './cli1m.ts';
import { CLI_LOAD_METHOD, measureCliLoad } from './cliLoad.ts';
import { measureCounts } from './counts.ts';
import { DB_SCALE_METHOD, measureDbScale } from './dbScale.ts';
import { measureOverhead } from './overhead.ts';
import { measureRealEngine, REAL_ENGINE_METHOD, type RealEngineResult } from './realEngine.ts';
import { formatTable } from './report.ts';
import { round } from './stats.ts';
import { LONG_TASK_METHOD } from './browser/longTasks.ts';
import { RESULTS_METHOD } from './browser/results10k.ts';
import { SERVER_RATIO_METHOD } from './browser/serverRatio.ts';
import { FIRST_VIEW_METHOD } from './browser/firstView.ts';
import { FIRST_VISIT_METHOD } from './browser/firstVisit.ts';
import { CPU_THREADS_METHOD } from './browser/cpuThreads.ts';
import { DEFAULT_MAX_CONCURRENCY } from '../../src/lib/engines/server/client.ts';
import { failed, unavailable, type BrowserMetric } from './browser/metric.ts';

const { values: args } = parseArgs({
	options: {
		build: { type: 'boolean', default: false },
		'skip-browser': { type: 'boolean', default: false },
		'skip-real': { type: 'boolean', default: false },
		strict: { type: 'boolean', default: false },
		only: { type: 'string' },
		dist: { type: 'string' },
		out: { type: 'string', default: join(REPO_ROOT, 'bench-results.json') }
	}
});
const DIST = args.dist ?? join(REPO_ROOT, 'dist');

/** A browser metric's detail, or null when it was not measured. */
const detailOf = (m: BrowserMetric) => (m.status === 'measured' ? m.detail : null);
/** A browser metric's detail, or why it was not measured. */
const noteOf = (m: BrowserMetric) =>
	m.status === 'measured' ? m.detail : `${m.status}: ${m.reason}`;

function step<T>(label: string, fn: () => T): T {
	process.stderr.write(`bench: ${label}…\n`);
	return fn();
}

function build(): void {
	const res = spawnSync('npx', ['vite', 'build', '--outDir', DIST, '--emptyOutDir'], {
		cwd: REPO_ROOT,
		encoding: 'utf8'
	});
	if (res.status !== 0) throw new Error(`vite build failed:\n${res.stdout}\n${res.stderr}`);
}

/** The live run view's long tasks alone: a quick loop while tuning the main thread. */
async function longTasksOnly(): Promise<number> {
	if (args.build || !hasBuild(DIST)) step('building dist/', build);
	const { measureLongTasksOnly } = await import('./browser/index.ts');
	const metric = await step('timing long tasks over a 1,000-record run in Chromium', () =>
		measureLongTasksOnly(DIST)
	);
	console.log(JSON.stringify({ longestTaskCpuMs: metric, loadavg: loadavg() }, null, '\t'));
	return metric.status === 'error' ? 1 : 0;
}

/** The JS the first views wait for alone: a quick loop while trimming what they load. */
async function firstViewOnly(): Promise<number> {
	if (args.build || !hasBuild(DIST)) step('building dist/', build);
	const { measureFirstViewsOnly } = await import('./browser/index.ts');
	const metrics = await step('counting the JS the home and set-up views wait for', () =>
		measureFirstViewsOnly(DIST)
	);
	console.log(JSON.stringify(metrics, null, '\t'));
	return Object.values(metrics).some((m) => m.status === 'error') ? 1 : 0;
}

/** A first visit on the throttled profile alone: a quick loop while trimming the precache. */
async function firstVisitOnly(): Promise<number> {
	if (args.build || !hasBuild(DIST)) step('building dist/', build);
	const { measureFirstVisitOnly } = await import('./browser/index.ts');
	const metrics = await step('three first visits on a throttled profile (about 2 minutes)', () =>
		measureFirstVisitOnly(DIST)
	);
	console.log(JSON.stringify({ ...metrics, loadavg: loadavg() }, null, '\t'));
	return Object.values(metrics).some((m) => m.status === 'error') ? 1 : 0;
}

/** The browser's server engine over the CLI alone: the row's median of three rounds. */
async function serverRatioOnly(): Promise<number> {
	if (args.build || !hasBuild(DIST)) step('building dist/', build);
	const { measureServerRatioOnly } = await import('./browser/serverRatio.ts');
	const startLoad = loadavg()[0];
	const metric = await step('the browser server engine against the CLI, three rounds', () =>
		measureServerRatioOnly(DIST)
	);
	console.log(
		JSON.stringify({ browserVsCliServerRatio: metric, loadavg: [startLoad, loadavg()[0]] })
	);
	return metric.status === 'error' ? 1 : 0;
}

/** The 10,000-record results view alone (after the overhead run that makes its records). */
async function results10kOnly(): Promise<number> {
	if (args.build || !hasBuild(DIST)) step('building dist/', build);
	const overhead = await step('making a 10,017-record run', () => measureOverhead());
	const { measureResults10kOnly } = await import('./browser/index.ts');
	const metric = await step('opening its results view in Chromium', () =>
		measureResults10kOnly(DIST, overhead.bundle)
	);
	console.log(JSON.stringify({ results10kRenderCpuMs: metric, loadavg: loadavg() }, null, '\t'));
	return metric.status === 'error' ? 1 : 0;
}

/** The CLI at a million records alone: resume and summarize, checked against their budgets. */
async function cli1mOnly(): Promise<number> {
	const startLoad = loadavg()[0];
	const cli1m = await step(
		'CLI resume and summarize at 1,000,000 records, and a study of 4 runs',
		() => measureCli1m()
	);
	const metrics = cli1mMetrics(cli1m);
	// Only these rows' budgets, whose limits are constants: nothing else of BenchMetrics is read.
	const budgets = BUDGETS.filter((b) => b.metric in metrics);
	const outcomes = checkBudgets(metrics as BenchMetrics, {}, budgets);
	console.log(JSON.stringify({ cli1m, budgets: outcomes, loadavg: loadavg() }, null, '\t'));
	const failures = describeFailures(outcomes, loadNote(startLoad, loadavg()[0], cpus().length));
	if (failures.length > 0) console.error(`\nBench FAILED:\n- ${failures.join('\n- ')}`);
	return failures.length > 0 ? 1 : 0;
}

/** The bench rows of the million-record run. */
function cli1mMetrics(cli1m: Cli1mResult | null) {
	return {
		cliResume1mPeakRssMB: cli1m?.resume.peakRssMB ?? null,
		cliResume1mModelRequests: cli1m?.resumeModelRequests ?? null,
		cliSummarize1mPeakRssMB: cli1m?.summarize.peakRssMB ?? null,
		cliSummarizeStudy1mPeakRssMB: cli1m?.study.peakRssMB ?? null
	} satisfies Partial<BenchMetrics>;
}

/** The CPU engine's thread speed-up alone. */
async function cpuThreadsOnly(): Promise<number> {
	const metric = await step('the CPU engine at 1 thread and isolated, in Chromium', () =>
		measureCpuThreadsSafely(CPU_RECORD_ROUNDS)
	);
	console.log(JSON.stringify({ cpuThreadsSpeedup: metric, loadavg: loadavg() }, null, '\t'));
	return metric.status === 'error' ? 1 : 0;
}

/** Device benchmarks per side when the thread speed-up is measured alone: records per minute. */
const CPU_RECORD_ROUNDS = 3;

async function measureCpuThreadsSafely(recordRounds = 0): Promise<BrowserMetric> {
	const { measureCpuThreads } = await import('./browser/cpuThreads.ts');
	try {
		return await measureCpuThreads(recordRounds);
	} catch (err) {
		return failed(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
	}
}

async function main(): Promise<number> {
	if (args.only === 'longTasks') return longTasksOnly();
	if (args.only === 'firstView') return firstViewOnly();
	if (args.only === 'cpuThreads') return cpuThreadsOnly();
	if (args.only === 'firstVisit') return firstVisitOnly();
	if (args.only === 'results10k') return results10kOnly();
	if (args.only === 'serverRatio') return serverRatioOnly();
	if (args.only === 'cli1m') return cli1mOnly();
	if (args.only !== undefined) {
		throw new Error(
			`--only knows "longTasks", "firstView", "firstVisit", "cpuThreads", "results10k", "serverRatio" and "cli1m", not "${args.only}"`
		);
	}
	const started = Date.now();
	const startLoad = loadavg()[0];
	const counts = await step('counting model work (50 items × 27 conditions)', () =>
		measureCounts()
	);
	const overhead = await step('timing app overhead over 10,017 records', () => measureOverhead());
	const dbScale = await step('timing the browser store with 10,000 records', () =>
		measureDbScale()
	);
	const cli = await step(
		'timing CLI resume and summarize of a 100,000- then 300,000-record run',
		() => measureCliScale()
	);
	const load = await step('a 15,000-request CLI run at 64 in flight (memory)', () =>
		measureCliLoad()
	);
	let cli1m: Cli1mResult | null = null;
	let cli1mError = '';
	try {
		cli1m = await step('CLI resume and summarize at 1,000,000 records, and a study of 4 runs', () =>
			measureCli1m()
		);
	} catch (err) {
		cli1mError = err instanceof Error ? err.message : String(err);
	}
	// Reported, not budgeted: real inference speed depends on the machine and its load.
	let real: RealEngineResult | null = null;
	let realError = args['skip-real'] ? 'skipped (--skip-real)' : '';
	if (!args['skip-real']) {
		try {
			real = await step('a 16-record run on the tiny real model in llama.cpp', () =>
				measureRealEngine()
			);
		} catch (err) {
			realError = err instanceof Error ? err.message : String(err);
		}
	}

	if (args.build || !hasBuild(DIST)) step('building dist/', build);
	let bundle: BundleSizes | null = null;
	let bundleError = '';
	try {
		bundle = measureBundle(DIST);
	} catch (err) {
		bundleError = err instanceof Error ? err.message : String(err);
	}

	let longestTask: BrowserMetric;
	let results10k: BrowserMetric;
	let serverRatio: BrowserMetric;
	let firstView: BrowserMetric;
	let setupView: BrowserMetric;
	let visitPrecache: BrowserMetric;
	let visitReloads: BrowserMetric;
	// Reported, not budgeted: the speed-up threads give depends on the machine's cores and load.
	let cpuThreads: BrowserMetric;
	if (args['skip-browser']) {
		longestTask = results10k = serverRatio = unavailable('skipped (--skip-browser)');
		firstView = setupView = cpuThreads = unavailable('skipped (--skip-browser)');
		visitPrecache = visitReloads = unavailable('skipped (--skip-browser)');
	} else {
		const { measureBrowser } = await import('./browser/index.ts');
		const browser = await step('measuring the production build in Chromium', () =>
			measureBrowser(DIST, overhead.bundle)
		);
		longestTask = browser.longestTaskCpuMs;
		results10k = browser.results10kRenderCpuMs;
		serverRatio = browser.serverRatio;
		firstView = browser.firstViewJsGzipKB;
		setupView = browser.setupViewJsGzipKB;
		visitPrecache = browser.firstVisitPrecacheMs;
		visitReloads = browser.firstVisitReloadBeforeClick;
		cpuThreads = await step('the CPU engine at 1 thread and isolated, in Chromium', () =>
			measureCpuThreadsSafely()
		);
	}

	const metrics: BenchMetrics = {
		items: counts.items,
		conditions: counts.conditions,
		assistantGenerations: counts.assistantGenerations,
		naiveAssistantGenerations: counts.naiveAssistantGenerations,
		userTurnGenerations: counts.userTurnGenerations,
		judgeCalls: counts.judgeCalls,
		undecidedRecords: counts.undecidedRecords,
		modelLoads: counts.modelLoads,
		overheadMsPerRecordMedian: overhead.overheadMsPerRecordMedian,
		overheadMsPerRecordP95: overhead.overheadMsPerRecordP95,
		overheadCpuPerReference: overhead.overheadCpuPerReference,
		initialJsGzipKB: bundle?.initialJsGzipKB ?? null,
		firstViewJsGzipKB: firstView.value,
		setupViewJsGzipKB: setupView.value,
		firstVisitPrecacheMs: visitPrecache.value,
		firstVisitReloadBeforeClick: visitReloads.value,
		webllmChunkGzipKB: bundle?.webllmChunkGzipKB ?? null,
		longestTaskCpuMs: longestTask.value,
		browserVsCliServerRatio: serverRatio.value,
		browserServerConcurrency: DEFAULT_MAX_CONCURRENCY,
		results10kRenderCpuMs: results10k.value,
		cliResume100kCpuMs: cli.resume.cpuMs,
		cliResume100kPeakRssMB: cli.resume.peakRssMB,
		cliResume100kModelRequests: cli.resumeModelRequests,
		cliSummarize100kCpuMs: cli.summarize.cpuMs,
		cliSummarize100kPeakRssMB: cli.summarize.peakRssMB,
		cliResume300kPeakRssMB: cli.at300k.resume.peakRssMB,
		cliSummarize300kPeakRssMB: cli.at300k.summarize.peakRssMB,
		cliResumeCpuScale: round(cli.at300k.resume.cpuMs / cli.resume.cpuMs),
		cliSummarizeCpuScale: round(cli.at300k.summarize.cpuMs / cli.summarize.cpuMs),
		...cli1mMetrics(cli1m),
		cliLoadHeapGrowth: load.heapGrowth,
		cliLoadPeakRssMB: load.peakRssMB,
		cliLoadWarnings: load.warnings.length,
		dbImport10kMs: dbScale.importMs,
		dbPage10kMaxMs: dbScale.pageMaxMs,
		dbReadAll10kMaxMs: dbScale.readAllMaxMs
	};
	const reasons: Partial<Record<keyof BenchMetrics, string>> = {};
	if (!cli1m) {
		reasons.cliResume1mPeakRssMB = reasons.cliResume1mModelRequests = cli1mError;
		reasons.cliSummarize1mPeakRssMB = reasons.cliSummarizeStudy1mPeakRssMB = cli1mError;
	}
	if (!bundle) reasons.initialJsGzipKB = reasons.webllmChunkGzipKB = bundleError;
	else if (bundle.webllmChunkGzipKB === null)
		reasons.webllmChunkGzipKB = `no single web-llm chunk in dist/: ${bundle.gateViolations.join(' ')}`;
	if (longestTask.status !== 'measured') reasons.longestTaskCpuMs = longestTask.reason;
	if (results10k.status !== 'measured') reasons.results10kRenderCpuMs = results10k.reason;
	if (serverRatio.status !== 'measured') reasons.browserVsCliServerRatio = serverRatio.reason;
	if (firstView.status !== 'measured') reasons.firstViewJsGzipKB = firstView.reason;
	if (setupView.status !== 'measured') reasons.setupViewJsGzipKB = setupView.reason;
	if (visitPrecache.status !== 'measured') reasons.firstVisitPrecacheMs = visitPrecache.reason;
	if (visitReloads.status !== 'measured') {
		reasons.firstVisitReloadBeforeClick = visitReloads.reason;
	}
	const outcomes = checkBudgets(metrics, reasons);

	const broken = [
		{ m: longestTask, name: 'longestTaskCpuMs' },
		{ m: results10k, name: 'results10kRenderCpuMs' },
		{ m: serverRatio, name: 'browserVsCliServerRatio' },
		{ m: firstView, name: 'firstViewJsGzipKB' },
		{ m: setupView, name: 'setupViewJsGzipKB' },
		{ m: visitPrecache, name: 'firstVisitPrecacheMs' },
		{ m: visitReloads, name: 'firstVisitReloadBeforeClick' },
		{ m: cpuThreads, name: 'cpuThreadsSpeedup' }
	]
		.filter(({ m }) => m.status === 'error')
		.map(({ m, name }) => `${name} could not be measured: ${m.status === 'error' ? m.reason : ''}`);
	const missing = outcomes.filter((o) => o.status === 'unavailable');
	const failures = [
		...describeFailures(outcomes, loadNote(startLoad, loadavg()[0], cpus().length)),
		...broken,
		...(args.strict && broken.length === 0
			? missing.map((o) => `${o.metric} unavailable (--strict): ${o.reason}`)
			: []),
		...(args.strict && !real && !args['skip-real']
			? [`real-engine run unavailable (--strict): ${realError}`]
			: [])
	];

	const results = {
		generatedAt: new Date().toISOString(),
		runtimeMs: Date.now() - started,
		machine: {
			node: process.version,
			cpus: cpus().length,
			/** 1-minute load average when the bench started; then 1, 5 and 15 minutes at its end. */
			loadavgAtStart: Math.round(startLoad * 100) / 100,
			loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
			cliNodeFlags: CLI_NODE_FLAGS
		},
		...metrics,
		records: counts.records,
		loadSequence: counts.loadSequence,
		phased: counts.phased,
		countConfig: counts.config,
		overheadRecords: overhead.records,
		overheadMsPerRecordMean: overhead.overheadMsPerRecordMean,
		overheadCpuMsPerRecordMedian: overhead.overheadCpuMsPerRecordMedian,
		storeWriteMsMedian: overhead.storeWriteMsMedian,
		referenceMsMedian: overhead.referenceMsMedian,
		referenceCpuMsMedian: overhead.referenceCpuMsMedian,
		scriptedEngineMsPerRecordMean: overhead.engineMsPerRecordMean,
		cli100k: cli,
		cliLoad: load,
		cli1m: cli1m ?? { unavailable: cli1mError },
		realEngine: real ?? { unavailable: realError },
		bundle: bundle && {
			builtAt: bundle.builtAt,
			webllmChunk: bundle.webllmChunk,
			initialFiles: bundle.initialFiles,
			gateViolations: bundle.gateViolations
		},
		chromiumDetails: {
			longestTaskCpuMs: detailOf(longestTask),
			results10kRenderCpuMs: detailOf(results10k),
			browserVsCliServerRatio: detailOf(serverRatio),
			firstViewJsGzipKB: detailOf(firstView),
			setupViewJsGzipKB: detailOf(setupView),
			firstVisitPrecacheMs: detailOf(visitPrecache),
			firstVisitReloadBeforeClick: detailOf(visitReloads),
			cpuThreadsSpeedup: detailOf(cpuThreads)
		},
		cpuThreadsSpeedup: cpuThreads.value,
		cpuThreads: 'result' in cpuThreads ? cpuThreads.result : noteOf(cpuThreads),
		methods: {
			counts:
				'Counted from the scripted engine call log: 50 GSM8K fixture items × temperatures [0, 0.5, 1] × perturbations [none, truncate, append] × 3 samples (1 at T=0), hybrid judging, generator and judge not co-loadable (phased).',
			overheadMsPerRecord: overhead.method,
			initialJsGzipKB:
				'tests/build/bundleReport.ts analyzeBundle over dist/: index.html entry scripts and modulepreloads plus their static imports, each file gzipped, summed.',
			realEngine: REAL_ENGINE_METHOD,
			longestTaskCpuMs: LONG_TASK_METHOD,
			results10kRenderCpuMs: RESULTS_METHOD,
			browserVsCliServerRatio: SERVER_RATIO_METHOD,
			firstViewJsGzipKB: FIRST_VIEW_METHOD,
			setupViewJsGzipKB: FIRST_VIEW_METHOD,
			firstVisit: FIRST_VISIT_METHOD,
			cpuThreadsSpeedup: CPU_THREADS_METHOD,
			cli100k: CLI_100K_METHOD,
			cliLoad: CLI_LOAD_METHOD,
			cli1m: CLI_1M_METHOD,
			dbScale: DB_SCALE_METHOD
		},
		unavailable: reasons,
		budgets: outcomes,
		failures,
		ok: failures.length === 0
	};
	writeFileSync(args.out, `${JSON.stringify(results, null, '\t')}\n`);

	const budgetOf = (metric: keyof BenchMetrics) => outcomes.find((o) => o.metric === metric);
	const row = (metric: keyof BenchMetrics, note?: string) => ({
		metric,
		value: metrics[metric],
		budget: budgetOf(metric),
		note
	});
	console.log(
		formatTable([
			row('items'),
			row('conditions', 'temperatures × perturbations × samples (1 at T=0)'),
			row(
				'assistantGenerations',
				`naive per-condition pipeline: ${counts.naiveAssistantGenerations}`
			),
			row('naiveAssistantGenerations', 'items × conditions'),
			row('userTurnGenerations'),
			row(
				'judgeCalls',
				`${counts.undecidedRecords} of ${counts.records} records left undecided by the rules`
			),
			row('modelLoads', `loads: ${counts.loadSequence.map((l) => l.join('+')).join(' → ')}`),
			row(
				'overheadMsPerRecordMedian',
				`${overhead.records} records; store write median ${overhead.storeWriteMsMedian} ms`
			),
			row(
				'overheadCpuPerReference',
				`CPU-time medians: overhead ${overhead.overheadCpuMsPerRecordMedian} ms, reference ${overhead.referenceCpuMsMedian} ms per record`
			),
			row(
				'overheadMsPerRecordP95',
				`mean ${overhead.overheadMsPerRecordMean} ms; CPU-time median ${overhead.overheadCpuMsPerRecordMedian} ms`
			),
			{
				metric: 'realRecordsPerMinute',
				value: real?.recordsPerMinute ?? null,
				note: real
					? `tiny model in llama.cpp, ${real.records} records in ${(real.wallMs / 1000).toFixed(1)} s`
					: realError
			},
			{
				metric: 'realAppShare',
				value: real?.appShare ?? null,
				note: real
					? `app ${real.appMsPerRecord} ms/record vs engine ${real.engineMsPerRecord} ms/record`
					: realError
			},
			row('firstViewJsGzipKB', noteOf(firstView)),
			row('setupViewJsGzipKB', noteOf(setupView)),
			row('firstVisitPrecacheMs', noteOf(visitPrecache)),
			row('firstVisitReloadBeforeClick', noteOf(visitReloads)),
			row('initialJsGzipKB', 'entry scripts and their static imports only'),
			row('webllmChunkGzipKB', bundle?.webllmChunk ?? reasons.webllmChunkGzipKB),
			row('longestTaskCpuMs', noteOf(longestTask)),
			row('browserVsCliServerRatio', noteOf(serverRatio)),
			{
				metric: 'cpuThreadsSpeedup',
				value: cpuThreads.value,
				note: `CPU engine decode, isolated threads over 1: ${noteOf(cpuThreads)}`
			},
			row('browserServerConcurrency', 'the browser opens 6 HTTP/1.1 connections per host'),
			row('results10kRenderCpuMs', noteOf(results10k)),
			row(
				'cliResume100kCpuMs',
				`median of ${cli.resume.cpuRuns.join(', ')} ms; wall ${cli.resume.wallMs} ms; ${cli.fileMB} MB records file`
			),
			row('cliResume100kPeakRssMB'),
			row('cliResume100kModelRequests'),
			row(
				'cliSummarize100kCpuMs',
				`median of ${cli.summarize.cpuRuns.join(', ')} ms; wall ${cli.summarize.wallMs} ms`
			),
			row('cliSummarize100kPeakRssMB'),
			row(
				'cliLoadHeapGrowth',
				`heap after GC ${load.heapAfterFirstMB} MB at 1,000 requests, ${load.heapAtEndMB} MB at ${load.requests}; wall ${load.wallMs} ms, CPU ${load.cpuMs} ms`
			),
			row('cliLoadPeakRssMB'),
			row('cliLoadWarnings', load.warnings.join(' | ') || undefined),
			row(
				'cliResume1mPeakRssMB',
				cli1m
					? `CPU ${cli1m.resume.cpuMs} ms, wall ${cli1m.resume.wallMs} ms; ${cli1m.fileMB} MB file`
					: cli1mError
			),
			row('cliResume1mModelRequests'),
			row(
				'cliSummarize1mPeakRssMB',
				cli1m ? `CPU ${cli1m.summarize.cpuMs} ms, wall ${cli1m.summarize.wallMs} ms` : cli1mError
			),
			row(
				'cliSummarizeStudy1mPeakRssMB',
				cli1m
					? `${cli1m.study.files} files, ${cli1m.study.fileMB} MB; CPU ${cli1m.study.cpuMs} ms, wall ${cli1m.study.wallMs} ms`
					: cli1mError
			),
			row('dbImport10kMs'),
			row('dbPage10kMaxMs', dbScale.detail),
			row('dbReadAll10kMaxMs')
		])
	);
	console.log(`\nMethods and details: ${args.out}`);
	console.log(`Overhead method: ${overhead.method}`);
	if (bundle && bundle.gateViolations.length > 0) {
		console.log(`Bundle gate would reject this dist/: ${bundle.gateViolations.join(' ')}`);
	}
	console.log(`Bench took ${((Date.now() - started) / 1000).toFixed(1)} s.`);
	if (failures.length > 0) {
		console.error(`\nBench FAILED:\n- ${failures.join('\n- ')}`);
		return 1;
	}
	if (missing.length > 0) {
		console.log(`\nNot measured (reported as null): ${missing.map((o) => o.metric).join(', ')}.`);
	}
	console.log('\nAll available budgets hold.');
	return 0;
}

main().then(
	(code) => process.exit(code),
	(err: unknown) => {
		console.error(err instanceof Error ? (err.stack ?? err.message) : err);
		process.exit(1);
	}
);
