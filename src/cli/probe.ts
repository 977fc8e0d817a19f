/** Node entry: `user-turn-probe run | summarize | agreement`. No Svelte, Dexie or DOM in here. */
import { defaultNlpCacheDir } from './nlpCache.ts';
import { parseRunArgs, RUN_USAGE, UsageError } from './args.ts';
import { runSummary, study } from '../lib/results/study.ts';
import { formatStudy, studyRunsOfReports } from './studyReport.ts';
import { agreementText, formatSummary, parseSummarizeArgs, SUMMARIZE_USAGE } from './report.ts';
import { errorLines } from './progress.ts';
import { runCommand, STOPPED_EXIT, type RunIO } from './run.ts';
import { ConfigChangedError } from './startPorts.ts';
import { sweepOf, writeStudyBundle, writeStudyFile, type Sweep } from './sweep.ts';
import { runSources } from './studyReport.ts';
import { constants } from 'node:os';
import { AbortError } from '../lib/errors/appError.ts';
import { useTemplateChecker } from '../lib/probe/templateChecker.ts';
import { workerTemplateChecker } from './templateChecker.ts';
import { MIRROR_USAGE, mirrorCommand, parseMirrorArgs } from './mirror.ts';

/** Ctrl-C, `kill` and a closed terminal all stop a run the same way: cleanly, resumable. */
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** 128 + the signal's number, as shells report a process a signal stopped. */
const exitCodeOf = (signal: NodeJS.Signals) => 128 + constants.signals[signal];

const USAGE = `user-turn-probe: the user-turn generation probe against OpenAI-compatible servers

  user-turn-probe run ...            generate, label and store records (see: run --help)
  user-turn-probe summarize FILE...  accuracy and follow-up rates with 95% CIs per condition;
                                     several files: one table across runs (model × condition)
                                     (--json, --csv; see: summarize --help)
  user-turn-probe agreement FILE     Cohen's κ between the labelers present (rules, judge, humans)
  user-turn-probe mirror --out DIR   a school's model mirror of catalog models (see: mirror --help)
`;

/**
 * The sweep's runs one after another. A model that fails is reported and the next one runs (its
 * run resumes later with the same command); a stop ends the sweep where it is.
 */
async function runSweep(sweep: Sweep, io: RunIO): Promise<number> {
	writeStudyFile(sweep);
	const failed: string[] = [];
	for (const [i, run] of sweep.runs.entries()) {
		io.stderr.write(`\nmodel ${i + 1} of ${sweep.runs.length}: ${run.model} → ${run.out}\n`);
		let code: number;
		try {
			code = await runCommand(run, io);
		} catch (err) {
			if (err instanceof ConfigChangedError || io.signal?.aborted) throw err;
			io.stderr.write(errorLines(err));
			code = 1;
		}
		if (code === STOPPED_EXIT) return code;
		if (code !== 0) failed.push(run.model);
	}
	if (failed.length > 0) {
		io.stderr.write(
			`\nstudy: ${sweep.studyFile} (not finished: ${failed.join(', ')}; the same command resumes them, then writes ${sweep.bundleFile})\n`
		);
		return 1;
	}
	writeStudyBundle(sweep);
	io.stderr.write(
		`\nstudy: ${sweep.studyFile} (its runs by file name) and ${sweep.bundleFile} (all of them in one file: the app opens it with Runs → Import)\n`
	);
	return 0;
}

/** Bad lines listed one by one up to this many; a file that is not records at all says so once. */
const MAX_PROBLEMS = 20;

export async function main(
	argv: string[],
	env: Record<string, string | undefined> = process.env
): Promise<number> {
	const [command, ...rest] = argv;
	try {
		if (command === 'run') {
			if (rest.includes('--help') || rest.includes('-h')) {
				process.stdout.write(RUN_USAGE + '\n');
				return 0;
			}
			const ctrl = new AbortController();
			let interrupts = 0;
			let received: NodeJS.Signals = 'SIGINT';
			const onSignal = (signal: NodeJS.Signals) => {
				// First signal: stop cleanly (whole lines only, resumable). Second: leave now.
				if (++interrupts > 1) process.exit(exitCodeOf(signal));
				received = signal;
				process.stderr.write(
					`\n${signal}: stopping after the requests in flight… (Ctrl-C again to quit now)\n`
				);
				ctrl.abort();
			};
			for (const s of STOP_SIGNALS) process.on(s, onSignal);
			// A user's template renders in a worker thread: stoppable, and this thread hears signals.
			useTemplateChecker(workerTemplateChecker(ctrl.signal));
			try {
				const io = {
					stderr: process.stderr,
					signal: ctrl.signal,
					nlpCacheDir: defaultNlpCacheDir(env)
				};
				const opts = parseRunArgs(rest, env);
				const sweep = sweepOf(opts);
				const code = sweep ? await runSweep(sweep, io) : await runCommand(opts, io);
				return code === STOPPED_EXIT ? exitCodeOf(received) : code;
			} catch (err) {
				// Stopped before the run began (while its template was checked, say).
				if (ctrl.signal.aborted && err instanceof AbortError) return exitCodeOf(received);
				throw err;
			} finally {
				useTemplateChecker(null);
				for (const s of STOP_SIGNALS) process.off(s, onSignal);
			}
		}
		if (command === 'summarize' || command === 'agreement') {
			const usage = command === 'summarize' ? SUMMARIZE_USAGE + '\n' : USAGE;
			if (rest.includes('--help')) {
				process.stdout.write(usage);
				return 0;
			}
			let summary: ReturnType<typeof parseSummarizeArgs> | undefined;
			try {
				if (command === 'summarize') summary = parseSummarizeArgs(rest);
				else if (rest.length !== 1)
					throw new Error(`${command} needs exactly one records file (.jsonl)`);
			} catch (e) {
				throw new UsageError((e as Error).message, usage);
			}
			// Only agreement pairs records by key: summarize holds none of a million keys.
			const keys = !summary;
			const sources = (summary?.files ?? rest).flatMap((f) => runSources(f, { keys }));
			const reports = [];
			for (const { file, read } of sources) {
				const report = await read();
				const { problems } = report;
				for (const p of problems.slice(0, MAX_PROBLEMS)) process.stderr.write(`${file}: ${p}\n`);
				if (problems.length > MAX_PROBLEMS)
					process.stderr.write(
						`${file}: … and ${problems.length - MAX_PROBLEMS} more lines skipped\n`
					);
				reports.push(report);
			}
			const invalid = reports.some((r) => r.invalid);
			const warn = (line: string) => process.stderr.write(line + '\n');
			if (!summary) {
				const [{ records, annotations }] = reports;
				process.stdout.write(agreementText(records, annotations));
			} else if (reports.length === 1) {
				const [{ records, answers, manifest }] = reports;
				// The seed drives the paired bootstrap, as in the results view and a study's row.
				const run = { records, answers, seed: manifest?.config.seed ?? 0 };
				process.stdout.write(formatSummary(runSummary(run, summary.options), summary.format));
			} else {
				const runs = studyRunsOfReports(
					sources.map((s) => s.file),
					reports,
					warn
				);
				process.stdout.write(formatStudy(study(runs, summary.options), summary.format));
			}
			return invalid ? 1 : 0;
		}
		if (command === 'mirror') {
			if (rest.includes('--help') || rest.includes('-h')) {
				process.stdout.write(MIRROR_USAGE);
				return 0;
			}
			return await mirrorCommand(parseMirrorArgs(rest), { stderr: process.stderr });
		}
		if (command === undefined || command === '--help' || command === '-h') {
			process.stdout.write(USAGE);
			return 0;
		}
		throw new UsageError(`unknown command "${command}"`, USAGE);
	} catch (err) {
		if (err instanceof UsageError) {
			process.stderr.write(`usage error: ${err.message}\n\n${err.usage}\n`);
			return 2;
		}
		if (err instanceof ConfigChangedError) {
			process.stderr.write(`error: ${err.message}\n`);
			return 2;
		}
		// 2: the command line was wrong (above); 1: it was right but something failed (a missing file too).
		process.stderr.write(errorLines(err));
		return 1;
	}
}
