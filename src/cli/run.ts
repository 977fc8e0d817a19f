/** `user-turn-probe run`: the browser's probe core against OpenAI-compatible servers, into JSONL. */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OpenAIEngine } from '../lib/engines/server/client.ts';
import { loadNlpSupport, type LoadedNlp } from '../lib/nlp/support.ts';
import { nlpUnavailableWarning } from '../lib/nlp/warning.ts';
import { CLI_CHOICES, nlpFix } from '../lib/setup/fixes.ts';
import { runProbe } from '../lib/probe/pipeline.ts';
import type { PreparedRun } from '../lib/probe/prepare.ts';
import { driveStart, type StartStep } from '../lib/probe/start.ts';
import type { ChatTemplate } from '../lib/probe/template.ts';
import type { DatasetItem } from '../lib/probe/types.ts';
import { appVersion } from '../lib/version.ts';
import type { RunOptions } from './args.ts';
import { JsonlStore } from './jsonlStore.ts';
import { defaultNlpCacheDir, directoryCache } from './nlpCache.ts';
import { unwritableOut, type RunLock } from './lock.ts';
import { realPath } from './realPath.ts';
import { cliStartPorts, type CliStartPorts, type RunModels } from './startPorts.ts';
import { downloadProgress } from './downloadProgress.ts';
import { errorLines, ProgressLine } from './progress.ts';

export {
	DATASET_FILE_MAX_BYTES,
	DatasetFileTooLargeError,
	loadItems,
	loadTemplate
} from './runInputs.ts';

export const CLI_VERSION = appVersion('cli');
/** A run stopped before its end (Ctrl-C): not a success, as 128 + SIGINT says in a shell. */
export const STOPPED_EXIT = 130;

export interface RunIO {
	stderr: { write(s: string): unknown; isTTY?: boolean };
	signal?: AbortSignal;
	fetch?: typeof fetch;
	now?: () => number;
	/** Where downloaded NLP data is kept (default: the user's cache folder, nlpCache.ts). */
	nlpCacheDir?: string;
}

/**
 * NLTK's English data and syllapy's word list, for items whose scoring uses them: from the cache
 * folder, else downloaded into it. A failure is said and the run goes on without the data.
 */
async function loadNlp(io: RunIO, opts: RunOptions): Promise<LoadedNlp> {
	const dir = io.nlpCacheDir ?? defaultNlpCacheDir();
	io.stderr.write(`scoring data: NLTK English data and syllapy's word list (cache ${dir})\n`);
	const loaded = await loadNlpSupport({
		fetch: io.fetch ?? fetch,
		signal: io.signal,
		cache: directoryCache(dir),
		nltkDataBase: opts.nltkDataUrl,
		syllapyBase: opts.syllapyUrl,
		onProgress: downloadProgress(io.stderr)
	});
	if ('unavailable' in loaded.nlp) {
		const { message, consequence } = nlpUnavailableWarning(loaded.nlp.unavailable);
		io.stderr.write(`warning: ${message}\n  → ${consequence} ${nlpFix(CLI_CHOICES)}\n`);
	}
	return loaded;
}

/** The server limits the flags set, and the flags named in the errors that hit them. */
function engineLimits(opts: RunOptions) {
	return {
		timeoutMs: opts.timeoutMs,
		requestTimeoutMs: opts.requestTimeoutMs,
		maxReplyBytes: opts.maxReplyBytes,
		limitHints: { requestTimeout: '--request-timeout-ms', replyBytes: '--max-reply-mb' }
	};
}

/** Set by a test: the ports the start takes, given the CLI's own (to log or fail one). */
export type StartPortsHook = (ports: CliStartPorts) => CliStartPorts;

export async function runCommand(
	opts: RunOptions,
	io: RunIO & { startPorts?: StartPortsHook }
): Promise<number> {
	// README's `--out runs/first.jsonl` works on a fresh clone: the folder is made, not assumed.
	try {
		mkdirSync(dirname(opts.out), { recursive: true });
	} catch (err) {
		throw unwritableOut(opts.out, err);
	}
	// One real path per run: a second writer through a symlink takes the same lock, and compaction
	// and --overwrite replace the target, leaving the link a link.
	const out = realPath(opts.out);
	if (out !== resolve(opts.out)) io.stderr.write(`--out ${opts.out} is a link: writing ${out}\n`);
	const held: { lock?: RunLock } = {};
	try {
		return await runLocked({ ...opts, out }, io, held);
	} finally {
		held.lock?.release();
	}
}

async function runLocked(
	opts: RunOptions,
	io: RunIO & { startPorts?: StartPortsHook },
	held: { lock?: RunLock }
): Promise<number> {
	const engine = new OpenAIEngine({
		baseUrl: opts.baseUrl,
		apiKey: opts.apiKey,
		...engineLimits(opts),
		maxConcurrency: opts.concurrency,
		fetch: io.fetch
	});
	const judge =
		opts.judgeBaseUrl && opts.judgeBaseUrl !== opts.baseUrl
			? new OpenAIEngine({
					baseUrl: opts.judgeBaseUrl,
					apiKey: opts.judgeApiKey,
					...engineLimits(opts),
					maxConcurrency: opts.concurrency,
					fetch: io.fetch
				})
			: engine;
	const ports = cliStartPorts(opts, io, { engine, judge }, held);
	let failedAt: StartStep | undefined;
	let started: Awaited<
		ReturnType<typeof driveStart<RunModels, ChatTemplate, DatasetItem[], PreparedRun>>
	>;
	try {
		started = await driveStart(io.startPorts?.(ports) ?? ports, (event) => {
			if (event.type === 'failed') failedAt = event.step;
		});
	} catch (err) {
		// A server that does not answer ends the run with its error said, as a failed run does.
		if (failedAt !== 'server') throw err;
		io.stderr.write(errorLines(err));
		return 1;
	}
	const { template } = started;
	const { config, manifestExtras, needs } = started.stored;
	const nlp = needs.nlp ? await loadNlp(io, opts) : undefined;
	const store = await JsonlStore.open(opts.out);
	const progress = new ProgressLine(io.stderr, io.now);
	let failed = false;
	let stopped = false;
	for await (const event of runProbe(config, {
		engine,
		judge,
		store,
		template,
		signal: io.signal,
		concurrency: opts.concurrency,
		appVersion: CLI_VERSION,
		// The identity as checked: every fingerprint the run stored is kept (identity.ts).
		manifestExtras: { ...manifestExtras, nlp_data: nlp?.note },
		nlp: nlp?.nlp
	})) {
		progress.render(event);
		if (event.type === 'error' && event.fatal) failed = true;
		if (event.type === 'done' && event.aborted) stopped = true;
	}
	progress.finish();
	const note = await store.compact();
	if (note) io.stderr.write(`${note}\n`);
	return failed ? 1 : stopped ? STOPPED_EXIT : 0;
}
