/**
 * The CLI's side of the start (probe/start.ts): the lock on --out, the servers' model lists, the
 * template, the dataset, and the run prepared from the flags and checked against --out's stored
 * run. `run` drives these steps and then the probe; what a step needs of the flags is here, so a
 * flag followed from the command line to the manifest passes through each file once.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppError } from '../lib/errors/appError.ts';
import { DATASETS, isDatasetName } from '../lib/datasets/registry.ts';
import type { OpenAIEngine } from '../lib/engines/server/client.ts';
import { requireServed } from '../lib/engines/server/served.ts';
import { describeVanished, type ResumeCheck } from '../lib/probe/identity.ts';
import { prepareRun, type PreparedRun } from '../lib/probe/prepare.ts';
import type { StartPorts } from '../lib/probe/start.ts';
import type { RunValues } from '../lib/probe/runConfig.ts';
import { RUN_DEFAULTS, runValues } from '../lib/probe/runValues.ts';
import { templateValues } from '../lib/probe/templateValues.ts';
import { contextFit, misfitText } from '../lib/setup/contextFit.ts';
import { userHeader, type ChatTemplate } from '../lib/probe/template.ts';
import { userHeaderDefault, userHeaderReason } from '../lib/probe/markup.ts';
import type { DatasetItem, ProbeConfig, RunManifest, UserHeaderCut } from '../lib/probe/types.ts';
import { UsageError, type RunOptions } from './args.ts';
import { readManifest, sidecarPaths } from './jsonlStore.ts';
import { acquireRunLock, type RunLock } from './lock.ts';
import { loadItems, loadTemplate, type InputIO } from './runInputs.ts';
import { realPaths } from './realPath.ts';

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
	stderr: InputIO['stderr']
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

export type RunModels = NonNullable<RunValues['models']>;

/** The CLI's store step leaves the run prepared, its identity checked against --out's run. */
export type CliStartPorts = StartPorts<RunModels, ChatTemplate, DatasetItem[], PreparedRun>;

/**
 * The CLI's side of the start (probe/start.ts): the lock on --out, the servers' model lists, the
 * template, the dataset, and --out's stored run checked against the prepared one. `held` gets the
 * lock, for the caller to release when the run ends.
 */
export function cliStartPorts(
	opts: RunOptions,
	io: InputIO,
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
