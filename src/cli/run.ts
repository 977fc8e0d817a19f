/** `user-turn-probe run`: the browser's probe core against OpenAI-compatible servers, into JSONL. */
import { AppError } from '../lib/errors/appError.ts';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { DATASETS, isDatasetName } from '../lib/datasets/registry.ts';
import { OpenAIEngine } from '../lib/engines/server/client.ts';
import { requireServed } from '../lib/engines/server/served.ts';
import { describeVanished, type ResumeCheck } from '../lib/probe/identity.ts';
import { loadNlpSupport, type LoadedNlp } from '../lib/nlp/support.ts';
import { nlpUnavailableWarning } from '../lib/nlp/warning.ts';
import { CLI_CHOICES, nlpFix } from '../lib/setup/fixes.ts';
import { runProbe } from '../lib/probe/pipeline.ts';
import { prepareRun, type PreparedRun } from '../lib/probe/prepare.ts';
import { driveStart, type StartPorts, type StartStep } from '../lib/probe/start.ts';
import type { RunValues } from '../lib/probe/runConfig.ts';
import { RUN_DEFAULTS, runValues } from '../lib/probe/runValues.ts';
import { templateValues } from '../lib/probe/templateValues.ts';
import { contextFit, misfitText } from '../lib/setup/contextFit.ts';
import { userHeader, type ChatTemplate } from '../lib/probe/template.ts';
import { userHeaderDefault, userHeaderReason } from '../lib/probe/markup.ts';
import type { DatasetItem, ProbeConfig, RunManifest, UserHeaderCut } from '../lib/probe/types.ts';
import { randomBytes } from 'node:crypto';
import { appVersion } from '../lib/version.ts';
import { UsageError, type RunOptions } from './args.ts';
import { JsonlStore, readManifest, sidecarPaths } from './jsonlStore.ts';
import { defaultNlpCacheDir, directoryCache } from './nlpCache.ts';
import { acquireRunLock, unwritableOut, type RunLock } from './lock.ts';
import { loadItems, loadTemplate } from './runInputs.ts';
import { realPath, realPaths } from './realPath.ts';
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

/** --out already holds a run whose records mean something else: refuse rather than mix. */
export class ConfigChangedError extends AppError {
	constructor(message: string) {
		super(message, { code: 'config_changed' });
		this.name = 'ConfigChangedError';
	}
}

/**
 * Refuse to resume into `store` when what it holds was made with another config or other models
 * (the check prepare.ts made against the stored run: identity.ts checkResume, the rule the browser
 * applies too), or when records have no manifest. Says on stderr what an old manifest could not
 * check. A model fingerprint the run stored that the server no longer reports is refused unless
 * --accept-unchecked-model says to go on (the prepared identity keeps the stored fingerprint).
 * @throws ConfigChangedError naming the differing fields and how to start a new run.
 */
export function checkStoredRun(
	manifest: RunManifest | undefined,
	hasRecords: boolean,
	check: ResumeCheck | undefined,
	opts: Pick<RunOptions, 'out' | 'acceptUncheckedModel'>,
	stderr: RunIO['stderr']
): void {
	const { out } = opts;
	const how = 'to start a new run, use another --out, or --overwrite to replace it';
	if (manifest === undefined || check === undefined) {
		if (hasRecords)
			throw new ConfigChangedError(
				`${out} holds records but no ${sidecarPaths(out).manifest}, so its config is unknown; ${how}`
			);
		return;
	}
	if (check.conflict !== null)
		throw new ConfigChangedError(
			`${out} holds a run made with another config (${check.conflict}); ${how}`
		);
	if (check.vanished.length > 0) {
		const what = describeVanished(manifest, check.vanished);
		if (!opts.acceptUncheckedModel)
			throw new ConfigChangedError(
				`${out} was made with ${what}, which the server no longer reports, so it cannot tell ` +
					`whether it still serves the same weights. If it does, pass --accept-unchecked-model ` +
					`to resume (the stored fingerprint is kept); else ${how}`
			);
		stderr.write(
			`warning: resuming without checking ${what} (--accept-unchecked-model); the manifest ` +
				`keeps the stored fingerprint\n`
		);
	}
	if (check.legacy)
		stderr.write(
			`note: ${sidecarPaths(out).manifest} predates config hashes; its recorded config matches, ` +
				`but ${check.unchecked.join(', ') || 'nothing else'} could not be checked. Resuming and storing the hash.\n`
		);
}

/**
 * What the command line, the template, the dataset and the servers say, as the plain values a run
 * is prepared from (probe/prepare.ts): the CLI's side of the one run preparation.
 */
export function cliRunValues(
	opts: RunOptions,
	run: {
		run_id: string;
		template: ChatTemplate;
		/** The whole dataset as loaded: --limit of them are drawn. */
		items: DatasetItem[];
		/** The generator's context window, where the server tells it (--answer-max-tokens auto). */
		context_window?: number;
		models?: RunValues['models'];
		/** The header cut of the run being resumed, when --user-header does not say. */
		user_header?: UserHeaderCut;
	}
): RunValues {
	const fromTemplate = templateValues(run.template);
	if (fromTemplate.reasoning_effort_default === null && opts.reasoningEffort !== undefined)
		throw new UsageError(
			'--reasoning-effort: this chat template has no reasoning effort (gpt-oss templates do)'
		);
	const auto = opts.answerMaxTokens === 'auto';
	return runValues(RUN_DEFAULTS, {
		run_id: run.run_id,
		dataset: opts.dataset,
		dataset_note: isDatasetName(opts.dataset) ? DATASETS[opts.dataset].note : undefined,
		items: run.items,
		limit: opts.limit,
		seed: opts.seed,
		temperatures: opts.temperatures,
		perturbations: opts.perturbations,
		samples: opts.samples,
		judge_mode: opts.judgeMode,
		generator: { id: opts.model, template_repo: run.template.repo },
		judge: { id: opts.judgeModel },
		max_tokens: opts.maxTokens,
		answer_max_tokens: auto ? undefined : (opts.answerMaxTokens as number),
		answer_tokens_auto: auto,
		context_window: run.context_window,
		thinking: opts.thinking ?? null,
		user_header: opts.userHeader ?? run.user_header ?? null,
		reasoning_effort: opts.reasoningEffort ?? null,
		truncate_fraction: opts.truncateFraction,
		append_text: opts.appendText,
		task_prompt: opts.taskPrompt,
		...fromTemplate,
		models: run.models
	});
}

/** Which user header the probe ends on, and why (the set-up view shows the same reason). */
function headerNote(template: ChatTemplate, config: ProbeConfig): string {
	const exchange = [
		{ role: 'user' as const, content: 'Q' },
		{ role: 'assistant' as const, content: 'A' }
	];
	const header = userHeader(template, exchange, { user_header: config.user_header });
	const why =
		config.user_header === userHeaderDefault(template)
			? userHeaderReason(template)
			: 'set by --user-header or by the run being resumed';
	return `user header: ${JSON.stringify(header)} (${config.user_header}: ${why})\n`;
}

/** Where --answer-max-tokens auto took its number from, so a reader of the log knows. */
function answerLimitNote(limit: number, told?: { tokens: number; source: string }): string {
	return told
		? `answer limit: ${limit} tokens (context window ${told.tokens} from ${told.source}, less the user turn and the prompt's room)`
		: `answer limit: ${limit} tokens (the server does not tell its context window; --answer-max-tokens N sets it)`;
}

/** Characters of the model id and of the dataset's name a default run id keeps. */
const ID_MODEL_CHARS = 40;
const ID_DATASET_CHARS = 24;

/**
 * A new run's default id: model, dataset and seed to read it by, and 8 random hex digits. A study
 * tells runs apart by id, so two people running the same model on the same dataset and seed must
 * not make the same one (a hash of those three alone collided).
 */
export function newCliRunId(
	opts: Pick<RunOptions, 'model' | 'dataset' | 'seed'>,
	random: (bytes: number) => Uint8Array = randomBytes
): string {
	const slug = (text: string, max: number) =>
		text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(-max) || '_';
	const dataset = isDatasetName(opts.dataset)
		? opts.dataset
		: basename(opts.dataset).replace(/\.jsonl?$/i, '');
	const tail = Buffer.from(random(4)).toString('hex');
	return `cli-${slug(opts.model, ID_MODEL_CHARS)}-${slug(dataset, ID_DATASET_CHARS)}-s${opts.seed}-${tail}`;
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

type RunModels = NonNullable<RunValues['models']>;

/** The CLI's store step leaves the run prepared, its identity checked against --out's run. */
export type CliStartPorts = StartPorts<RunModels, ChatTemplate, DatasetItem[], PreparedRun>;

/**
 * The CLI's side of the start (probe/start.ts): the lock on --out, the servers' model lists, the
 * template, the dataset, and --out's stored run checked against the prepared one. `held` gets the
 * lock, for the caller to release when the run ends.
 */
export function cliStartPorts(
	opts: RunOptions,
	io: RunIO,
	engines: { engine: OpenAIEngine; judge: OpenAIEngine },
	held: { lock?: RunLock }
): CliStartPorts {
	const { engine, judge } = engines;
	return {
		// Before anything reads or deletes --out: a second writer would lose the first one's records.
		lock: () => {
			held.lock = acquireRunLock(opts.out);
			if (held.lock.tookOver) io.stderr.write(`${held.lock.tookOver}\n`);
		},
		// A server that is down or lacks a model fails here, before the template, the dataset and
		// --out are touched (with --judge-mode rules the judge model is the generator).
		server: async () => {
			const served = await engine.modelFingerprints(io.signal);
			const judgeServed = judge === engine ? served : await judge.modelFingerprints(io.signal);
			requireServed([...served.keys()], [opts.model], engine.baseUrl);
			requireServed([...judgeServed.keys()], [opts.judgeModel], judge.baseUrl);
			return { generator: served.get(opts.model), judge: judgeServed.get(opts.judgeModel) };
		},
		template: () => loadTemplate(opts, io, engine),
		dataset: () => loadItems(opts.dataset, io, opts.hfToken),
		store: async ({ server: models, template, data: items }) => {
			const paths = realPaths(sidecarPaths(opts.out));
			if (opts.overwrite) for (const path of Object.values(paths)) rmSync(path, { force: true });
			// Checked before the store opens, so a refused run leaves even a torn tail as it was.
			const stored = readManifest(paths.manifest);
			const hasRecords = existsSync(paths.records) && statSync(paths.records).size > 0;
			// A resumed run keeps its id; a new one gets a fresh id.
			const run_id = opts.runId ?? stored?.run_id ?? newCliRunId(opts);
			const told =
				opts.answerMaxTokens === 'auto'
					? await engine.contextWindow(opts.model, io.signal)
					: undefined;
			// A run made before the header cut was recorded used the whole header, and resumes with it.
			const user_header = stored ? (stored.config.user_header ?? 'template') : undefined;
			const prepared = await prepareRun(
				cliRunValues(opts, {
					run_id,
					template,
					items,
					context_window: told?.tokens,
					models,
					user_header
				}),
				{ stored }
			);
			const { config } = prepared;
			checkStoredRun(stored, hasRecords, prepared.resume, opts, io.stderr);
			if (opts.answerMaxTokens === 'auto')
				io.stderr.write(`${answerLimitNote(config.answer_max_tokens, told)}\n`);
			// The set-up's warning, by the same rule: a window below the automatic floor cannot hold the run.
			const misfit = misfitText(contextFit({ ...config, answer_tokens_auto: false }, told?.tokens));
			if (misfit) io.stderr.write(`Warning: ${misfit}\n`);
			io.stderr.write(headerNote(template, config));
			return prepared;
		}
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
