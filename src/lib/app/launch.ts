/**
 * Starting runs in the browser: the glue between the set-up and run views, the stored run
 * (manifest, items, template) and the tab's RunController. A resume is resume.ts.
 */
import { DATASETS, loadDataset } from '../datasets/registry.ts';
import { providerOf, type EngineKind } from '../engines/registry.ts';
import type { Connection } from '../engines/provider.ts';
import type { ModelFingerprint } from '../probe/identity.ts';
import { prepareRun, type PreparedRun } from '../probe/prepare.ts';
import type { RunValues } from '../probe/runConfig.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { DatasetItem } from '../probe/types.ts';
import type { RunController, RunSetup } from '../state/runner.svelte.ts';
import { RunActiveError } from '../state/runner.svelte.ts';
import type { EngineSettings } from '../state/settings.svelte.ts';
import type { SetupState, StartStep } from '../state/setup.svelte.ts';
import { driveStart, type StartPorts, type StartStep as CoreStartStep } from '../probe/start.ts';
import { generatorContextWindow } from './contextWindow.ts';
import { runHolding, takeRunLock, type HeldRunLock } from './runLocks.ts';
import { browserAnswersOpaque, checkServer, type ServerCheckDeps } from './serverCheck.ts';
import { formRunValues, newRunId } from '../setup/runForm.ts';
import {
	createRun,
	initialManifest,
	forgetLaunch,
	readLaunch,
	saveLaunch,
	type RunLaunch
} from '../setup/runInputs.ts';
import { APP_VERSION, type AppServices } from './services.ts';
import type { SkippedModel } from '../setup/sweeps.ts';
import type { TemplateCheck } from '../setup/templateCheck.ts';
import { ownTemplate } from './sweepTemplates.ts';
import { reloadToIsolate } from './isolation.ts';

export interface EngineChoice {
	engine: EngineKind;
	base_url?: string;
	/** Used for requests only; never stored with the run. */
	api_key?: string;
	/** GPU adapter info for the manifest (vendor, architecture). */
	adapter?: Record<string, string>;
}

/** @throws EngineError when the engine cannot be reached as chosen (no server URL). */
async function setupFor(
	services: AppServices,
	choice: EngineChoice,
	template: ChatTemplate
): Promise<RunSetup> {
	const opened = await providerOf(choice.engine).open(services, choice);
	return {
		engine: opened.engine,
		judge: opened.judge,
		template,
		manifestExtras: opened.version
			? { engine_version: opened.version, adapter: choice.adapter }
			: undefined,
		release: opened.release
	};
}

/**
 * Prepare the run from its values and what the engine tells of its models (prepare.ts), store it
 * whole (manifest, items, template, launch), then start it in the background. Resolves once the
 * run is stored, so the caller can navigate to it.
 * @throws RunActiveError before writing anything when a run is active in this tab; the server
 *   engine's errors when /v1/models cannot be read.
 */
export async function createAndStart(
	services: AppServices,
	runner: RunController,
	run: NewRun
): Promise<PreparedRun> {
	if (runner.active) throw new RunActiveError(runner.runId ?? '?');
	const prepared = await createStored(services, run);
	const { config } = prepared;
	// A single new run that made nothing is removed if its start fails (a sweep's runs stay: the
	// sweep resumes them).
	await startPrepared(services, runner, prepared, run.template, run.choice, {
		discardIfEmpty: () => discardEmptyRun(services, config.run_id, config.items)
	});
	return prepared;
}

/** A run to store: its values, template and engine. */
export interface NewRun {
	/** The models and the template's hash are added here, from the engine and `template`. */
	values: Omit<RunValues, 'models' | 'template_sha256'>;
	template: ChatTemplate;
	choice: EngineChoice;
}

/** Prepares and stores a run whole (manifest, items, template, launch) without starting it. */
export async function createStored(services: AppServices, run: NewRun): Promise<PreparedRun> {
	const { template, choice } = run;
	const models = await modelsOf(services, run.values.generator.id, run.values.judge.id, choice);
	const prepared = await prepareRun({ ...run.values, template_sha256: template.sha256, models });
	const { config, manifestExtras } = prepared;
	const manifest = await initialManifest(config, {
		engine: providerOf(choice.engine).runtime,
		template,
		appVersion: APP_VERSION,
		extras: manifestExtras
	});
	await createRun(services.runInputStore(), manifest, { items: config.items, template });
	saveLaunch(storage(), config.run_id, launchOf(choice));
	return prepared;
}

/**
 * Remove a new run that made nothing (no answer, no record): a start that failed before its models
 * loaded leaves no empty paused run in Runs, nor its model id under the results' cross-run chart.
 * @returns whether the run was removed (false: it holds work, which resume can continue).
 */
export async function discardEmptyRun(
	services: Pick<AppServices, 'runStore'>,
	runId: string,
	items: readonly { id: string }[]
): Promise<boolean> {
	const store = services.runStore();
	if ((await store.getRecords(runId)).length > 0) return false;
	for (const item of items) if (await store.getAnswer(runId, item.id)) return false;
	await store.deleteRun(runId);
	forgetLaunch(storage(), runId);
	return true;
}

/**
 * The models as far as the engine can tell (identity.ts): a server's /v1/models entry (vLLM's
 * root, llama-server's meta), or the model id with the runtime version for this device's engines.
 * @throws the server engine's errors when /v1/models cannot be read.
 */
export async function modelsOf(
	services: AppServices,
	generator: string,
	judge: string,
	choice: EngineChoice
): Promise<{ generator?: ModelFingerprint; judge?: ModelFingerprint }> {
	return (await providerOf(choice.engine).open(services, choice)).fingerprints({
		generator,
		judge
	});
}

/** How the run reached its engine last time, for the resume form's defaults. */
export function storedLaunch(runId: string): RunLaunch | undefined {
	return readLaunch(storage(), runId);
}

/**
 * Start the run in this tab while holding its lock (one tab runs a run): `held` when the start's
 * lock step took it (a resume), else taken here (a new run, whose fresh id no other tab holds).
 * Resolves once it has started; the run outlives this call and the controller reports its end as
 * state; the lock is let go when the run stops.
 * @throws RunElsewhereError when another tab holds the run.
 */
export async function startPrepared(
	services: AppServices,
	runner: RunController,
	prepared: PreparedRun,
	template: ChatTemplate,
	choice: EngineChoice,
	options: { held?: HeldRunLock; discardIfEmpty?: () => Promise<boolean> } = {}
): Promise<void> {
	const { config, manifestExtras, needs } = prepared;
	const { discardIfEmpty } = options;
	// A first visit isolates itself now, not while it was read: the run is stored, the page reloads
	// into its view, which starts it there with the engine's threads.
	if (
		providerOf(choice.engine).threadsNeedIsolation === true &&
		// The run view's address (routing/routes.ts href, which imports this folder's context).
		(await reloadToIsolate(config.run_id, `#/run/${encodeURIComponent(config.run_id)}`))
	) {
		options.held?.release();
		return;
	}
	const held = options.held ?? (await takeRunLock(config.run_id));
	runHolding(held, () =>
		runner.start({
			config,
			store: services.runStore(),
			discardIfEmpty,
			prepare: async (signal) => {
				const setup = await setupFor(services, choice, template);
				const nlp = needs.nlp ? await services.englishNlp(signal) : undefined;
				return {
					...setup,
					nlp: nlp?.nlp,
					manifestExtras: { ...setup.manifestExtras, ...manifestExtras, nlp_data: nlp?.note }
				};
			},
			appVersion: APP_VERSION
		})
	);
}

export function launchOf(choice: EngineChoice): RunLaunch {
	return providerOf(choice.engine).onDevice
		? { engine: choice.engine }
		: { engine: choice.engine, base_url: choice.base_url };
}

/** This browser's localStorage, where a run's launch and its sweep are kept; none in Node. */
export function storage(): Storage | undefined {
	try {
		return typeof localStorage === 'undefined' ? undefined : localStorage;
	} catch {
		return undefined;
	}
}

export interface NewRunRequest {
	services: AppServices;
	runner: RunController;
	settings: EngineSettings;
	setup: SetupState;
	gpu: { canRunModels: boolean; shaderF16: boolean; adapter?: Record<string, string> };
	step: (s: StartStep) => void;
	signal: AbortSignal;
	/** The server check's opaque probe (tests inject one); defaults to the browser's fetch. */
	answersOpaque?: ServerCheckDeps['answersOpaque'];
	/** Set by a test: the start's ports, given the app's own (to log or fail one). */
	startPorts?: <Stored>(ports: AppStartPorts<Stored>) => AppStartPorts<Stored>;
}

/**
 * The set-up view's Start: the start's steps (probe/start.ts), then the stored run, started.
 * @returns the new run's id.
 * @throws the provider's EngineError (e.g. 'webgpu_unavailable') before anything loads or is
 *   stored when this device cannot run the chosen engine (the run could only fail);
 *   RunActiveError, the server check's EngineError (serverCheck.ts `failure`: the CLI's code for
 *   the same fault), TemplateError, DatasetError, or AbortError when
 *   `signal` aborts.
 */
export async function startFromSetup(r: NewRunRequest): Promise<string> {
	const generator = r.settings.generatorId(r.gpu);
	return startRuns(r, [generator], async ({ runs: [run] }) => {
		const { config } = await createAndStart(r.services, r.runner, run);
		return config.run_id;
	});
}

/** The runs a start made (one per generator model) and the models it left out. */
export interface SetupRuns {
	runs: NewRun[];
	skipped: SkippedModel[];
}

/** What the app's template step reads: the chosen template, and a sweep's further models' own. */
interface SetupTemplates {
	check: TemplateCheck;
	own: Map<string, { check: TemplateCheck; contextWindow?: number } | SkippedModel>;
}

interface SetupDataset {
	items: DatasetItem[];
	name: string;
	note?: string;
}

export type AppStartPorts<Stored> = StartPorts<void, SetupTemplates, SetupDataset, Stored>;

/** The set-up view's step for each of the start's (none for the lock, taken at once). */
const SHOWN_STEP: Record<CoreStartStep, StartStep | null> = {
	lock: null,
	server: 'server',
	template: 'template',
	dataset: 'dataset',
	store: 'storing'
};

/**
 * One run per generator model, all else the same (items, seeds, conditions, judge), through the
 * start's steps in their one order: the tab's one run, the server (checked for every model), the
 * templates, the dataset (read once), then `store` with the runs. The chosen template is the
 * chosen (first) generator's; each further model has its own, as a single run of it would read it
 * (ownTemplate), and its own context window, and a model whose template cannot be read is left
 * out of the sweep and said so (as the CLI goes on past a model).
 * @throws as startFromSetup when the chosen generator's (the first) cannot start.
 */
export async function startRuns<Stored>(
	r: NewRunRequest,
	generators: readonly string[],
	store: (made: SetupRuns) => Promise<Stored>
): Promise<Stored> {
	const unavailable = r.settings.provider.unavailable(r.gpu);
	if (unavailable) throw unavailable;
	const ports = setupStartPorts(r, generators, store);
	const started = await driveStart(r.startPorts?.(ports) ?? ports, (event) => {
		const shown = event.type === 'step' ? SHOWN_STEP[event.step] : null;
		if (shown) r.step(shown);
	});
	return started.stored;
}

/** The app's side of the start: what each step is in this tab. */
export function setupStartPorts<Stored>(
	r: NewRunRequest,
	generators: readonly string[],
	store: (made: SetupRuns) => Promise<Stored>
): AppStartPorts<Stored> {
	const { services, settings, setup, gpu } = r;
	const provider = settings.provider;
	const values = setup.valuesNow;
	const conn = settings.connection();
	const chosen = settings.generatorId(gpu);
	return {
		// One run at a time in a tab: refused before anything loads or is stored.
		lock: () => {
			if (r.runner.active) throw new RunActiveError(r.runner.runId ?? '?');
		},
		// A server that is down, blocked or lacks a model fails the start here, before the template
		// and the dataset load and before a run is stored: a failed start leaves no empty run behind.
		// Only an engine elsewhere is checked this early: one on this device would start its worker.
		server: provider.onDevice
			? undefined
			: () =>
					checkServed(services, settings.engine.current, conn, {
						generators,
						judge: values.judge_mode === 'rules' ? undefined : settings.judgeId(gpu),
						signal: r.signal,
						answersOpaque: r.answersOpaque
					}),
		template: async () => {
			const check = await setup.checkTemplate(settings.templateSpec(gpu), (spec) =>
				services.appTemplate(spec, r.signal)
			);
			if (!check) throw new Error(setup.templateError ?? 'No chat template.');
			const own: SetupTemplates['own'] = new Map();
			for (const generator of generators)
				if (generator !== chosen) own.set(generator, await ownTemplate(r, generator));
			return { check, own };
		},
		dataset: async () => {
			const choice = setup.dataset.current;
			if (choice !== 'upload') {
				const items = await loadDataset(choice, {
					fetch: (url, init) => fetch(url, init),
					cache: services.datasetCache(),
					signal: r.signal,
					onProgress: (done, total) => setup.setRows(done, total),
					// loadDataset hands it only to a dataset that needs one, which sends it to the Hub only.
					token: settings.hfToken
				});
				return { items, name: choice, note: DATASETS[choice].note };
			}
			if (!setup.upload) throw new Error('Choose a dataset file first.');
			return { items: setup.upload.items, name: setup.upload.name };
		},
		store: async ({ template, data }) => {
			const contextWindow = await generatorContextWindow(services, settings, gpu, r.signal);
			const made: SetupRuns = { runs: [], skipped: [] };
			for (const generator of generators) {
				const own = template.own.get(generator) ?? { check: template.check, contextWindow };
				if ('reason' in own) {
					made.skipped.push(own);
					continue;
				}
				// Rules-only runs never call a judge; the generator stands in so the manifest is complete.
				const judge = values.judge_mode === 'rules' ? generator : settings.judgeId(gpu);
				const runValues = formRunValues(values, {
					run_id: newRunId(),
					dataset: data.name,
					dataset_note: data.note,
					items: data.items,
					generator: { id: generator, template_repo: own.check.template.repo },
					judge: { id: judge },
					thinking_default: own.check.thinking,
					user_header_default: own.check.markup.headerDefault,
					reasoning_effort_default: own.check.markup.effortDefault,
					context_window: own.contextWindow
				});
				made.runs.push({
					values: runValues,
					template: own.check.template,
					choice: { engine: settings.engine.current, ...conn, adapter: gpu.adapter }
				});
			}
			return store(made);
		}
	};
}

/**
 * The start's server step for an engine elsewhere: the server answers and serves every generator
 * (and the judge), checked by set-up's own check (serverCheck.ts), so a start and a resume say a
 * failure in the same words.
 * @throws EngineError naming each failed line (serverCheck.ts `failure`); AbortError when
 *   `signal` aborts.
 */
export async function checkServed(
	services: AppServices,
	engine: EngineKind,
	conn: Connection,
	models: {
		generators: readonly string[];
		/** Undefined when no judge is called (a rules-only run). */
		judge: string | undefined;
		signal?: AbortSignal;
		answersOpaque?: ServerCheckDeps['answersOpaque'];
	}
): Promise<void> {
	const served = (await providerOf(engine).open(services, conn)).listModels;
	if (!served) return;
	for (const model of models.generators) {
		const check = await checkServer(
			{ baseUrl: conn.base_url ?? '', model, judge: models.judge, signal: models.signal },
			{ listModels: served, answersOpaque: models.answersOpaque ?? browserAnswersOpaque }
		);
		// The same EngineError, of the same code, as the CLI's server step (serverCheck.ts).
		if (check.failure) throw check.failure;
	}
}
