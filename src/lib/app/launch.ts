/**
 * Starting and resuming runs in the browser: the glue between the set-up and run views, the
 * stored run (manifest, items, template) and the tab's RunController.
 */
import { AppError } from '../errors/appError.ts';
import { DATASETS, loadDataset } from '../datasets/registry.ts';
import type { SweepGenerator } from '../engines/provider.ts';
import { providerOf, type EngineKind } from '../engines/registry.ts';
import { checkResume, describeVanished, type ModelFingerprint } from '../probe/identity.ts';
import { prepareConfig, prepareRun, type PreparedRun } from '../probe/prepare.ts';
import type { RunValues } from '../probe/runConfig.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { DatasetItem } from '../probe/types.ts';
import type { RunController, RunSetup } from '../state/runner.svelte.ts';
import { RunActiveError } from '../state/runner.svelte.ts';
import type { EngineSettings } from '../state/settings.svelte.ts';
import type { SetupState, StartStep } from '../state/setup.svelte.ts';
import { generatorContextWindow } from './contextWindow.ts';
import { startWithLock } from './runLocks.ts';
import { browserAnswersOpaque, checkServer, type ServerCheckDeps } from './serverCheck.ts';
import { formRunValues, newRunId } from '../setup/runForm.ts';
import {
	configFromManifest,
	createRun,
	initialManifest,
	loadRunInputs,
	forgetLaunch,
	readLaunch,
	saveLaunch,
	type RunLaunch
} from '../setup/runInputs.ts';
import { APP_VERSION, type AppServices } from './services.ts';
import type { SkippedModel } from '../setup/sweeps.ts';
import { servedTemplateSpec } from '../setup/sweepPlan.ts';
import { readTemplateCheck, type TemplateCheck } from '../setup/templateCheck.ts';
import { errorText } from '../errors/describe.ts';
import { reloadToIsolate } from './isolation.ts';

export interface EngineChoice {
	engine: EngineKind;
	base_url?: string;
	/** Used for requests only; never stored with the run. */
	api_key?: string;
	/** GPU adapter info for the manifest (vendor, architecture). */
	adapter?: Record<string, string>;
}

export class ResumeError extends AppError {
	constructor(message: string) {
		super(message, { code: 'resume' });
		this.name = 'ResumeError';
	}
}

/** @throws EngineError when the engine cannot be reached as chosen (no server URL). */
function setupFor(services: AppServices, choice: EngineChoice, template: ChatTemplate): RunSetup {
	const opened = providerOf(choice.engine).open(services, choice);
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
	await start(services, runner, prepared, run.template, run.choice, () =>
		discardEmptyRun(services, config.run_id, config.items)
	);
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
async function modelsOf(
	services: AppServices,
	generator: string,
	judge: string,
	choice: EngineChoice
): Promise<{ generator?: ModelFingerprint; judge?: ModelFingerprint }> {
	return providerOf(choice.engine).open(services, choice).fingerprints({ generator, judge });
}

/** How the run reached its engine last time, for the resume form's defaults. */
export function storedLaunch(runId: string): RunLaunch | undefined {
	return readLaunch(storage(), runId);
}

/**
 * Resume a stored run with exactly its config: the pipeline skips every stored key.
 * @throws ResumeError when the run or its stored inputs are missing; RunActiveError;
 *   RunElsewhereError when another tab is running it.
 */
export async function resumeRun(
	services: AppServices,
	runner: RunController,
	runId: string,
	choice: EngineChoice
): Promise<void> {
	if (runner.active) throw new RunActiveError(runner.runId ?? '?');
	const manifest = await services.runStore().getManifest(runId);
	if (!manifest) throw new ResumeError(`No run "${runId}" in this browser.`);
	const inputs = await loadRunInputs(services.runInputStore(), runId);
	if (!inputs) {
		throw new ResumeError(
			'This run was imported or made by the CLI: its items and template are not stored here, so it cannot be resumed in the browser.'
		);
	}
	const config = configFromManifest(manifest, inputs.items);
	// The same rule as the CLI's: other weights behind the same model id, another runtime or judge
	// prompt would mix records that mean different things into one run.
	// Its items are stored with it and cannot change, so the dataset's hash is the one it was made
	// with (identity.ts: the rule, and why runs hashed the old way resume).
	const stored = manifest.identity?.dataset_sha256;
	const prepared = await prepareConfig({
		config,
		template_sha256: inputs.template.sha256,
		dataset_sha256: typeof stored === 'string' ? stored : undefined,
		models: await modelsOf(services, config.generator.id, config.judge.id, choice)
	});
	const check = checkResume(manifest, runId, prepared.identity);
	if (check.conflict !== null) {
		throw new ResumeError(
			`This run was made with another setup: ${check.conflict}. Its records would mix with new ones that mean something else; start a new run from set-up instead.`
		);
	}
	// Refused, never resumed without it: the stored identity keeps every fingerprint (identity.ts).
	if (check.vanished.length > 0) {
		throw new ResumeError(
			`This run was made with ${describeVanished(manifest, check.vanished)}, which the server no longer reports, so it cannot be checked that the same weights answer; start a new run from set-up instead.`
		);
	}
	await start(services, runner, prepared, inputs.template, choice);
	saveLaunch(storage(), runId, launchOf(choice));
}

/**
 * Start the run in this tab while holding its lock (one tab runs a run). Resolves once it has
 * started; the run outlives this call and the controller reports its end as state.
 * @throws RunElsewhereError when another tab holds the run.
 */
async function start(
	services: AppServices,
	runner: RunController,
	prepared: PreparedRun,
	template: ChatTemplate,
	choice: EngineChoice,
	discardIfEmpty?: () => Promise<boolean>
): Promise<void> {
	const { config, manifestExtras, needs } = prepared;
	// A first visit isolates itself now, not while it was read: the run is stored, the page reloads
	// into its view, which starts it there with the engine's threads.
	if (
		providerOf(choice.engine).threadsNeedIsolation === true &&
		// The run view's address (routing/routes.ts href, which imports this folder's context).
		(await reloadToIsolate(config.run_id, `#/run/${encodeURIComponent(config.run_id)}`))
	) {
		return;
	}
	return startWithLock(config.run_id, () =>
		runner.start({
			config,
			store: services.runStore(),
			discardIfEmpty,
			prepare: async (signal) => {
				const setup = setupFor(services, choice, template);
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

function launchOf(choice: EngineChoice): RunLaunch {
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
}

/**
 * The set-up view's Start: template, items, config, stored run, started run.
 * @returns the new run's id.
 * @throws the provider's EngineError (e.g. 'webgpu_unavailable') before anything loads or is
 *   stored when this device cannot run the chosen engine (the run could only fail);
 *   TemplateError, DatasetError, RunActiveError, or AbortError when `signal` aborts.
 */
export async function startFromSetup(r: NewRunRequest): Promise<string> {
	const generator = r.settings.generatorId(r.gpu);
	const {
		runs: [run]
	} = await runsFromSetup(r, [generator]);
	r.step('storing');
	const { config } = await createAndStart(r.services, r.runner, run);
	return config.run_id;
}

/**
 * One run per generator model, all else the same (items, seeds, conditions, judge): the server is
 * checked for every model and the dataset read once. The chosen template is the chosen (first)
 * generator's; each further model has its own, as a single run of it would read it (ownTemplate),
 * and its own context window, and a model whose template cannot be read is left out of the sweep
 * and said so (as the CLI goes on past a model).
 * @throws as startFromSetup when the chosen generator's (the first) cannot start.
 */
export async function runsFromSetup(
	r: NewRunRequest,
	generators: readonly string[]
): Promise<{ runs: NewRun[]; skipped: SkippedModel[] }> {
	const { services, settings, setup, gpu } = r;
	const provider = settings.provider;
	const unavailable = provider.unavailable(gpu);
	if (unavailable) throw unavailable;
	const values = setup.valuesNow;
	const conn = settings.connection();
	// Only an engine elsewhere is opened this early: one on this device would start its worker.
	const served = provider.onDevice ? undefined : provider.open(services, conn).listModels;
	if (served) {
		// A server that is down, blocked or lacks a model fails the start here, before the template
		// and the dataset load and before a run is stored: a failed start leaves no empty run behind.
		r.step('server');
		for (const model of generators) {
			const check = await checkServer(
				{
					baseUrl: conn.base_url ?? '',
					model,
					judge: values.judge_mode === 'rules' ? undefined : settings.judgeId(gpu),
					signal: r.signal
				},
				{
					listModels: served,
					answersOpaque: r.answersOpaque ?? browserAnswersOpaque
				}
			);
			const failed = check.lines.filter((l) => !l.ok);
			if (failed.length > 0) throw new Error(failed.map((l) => l.text).join(' '));
		}
	}
	r.step('template');
	const check = await setup.checkTemplate(settings.templateSpec(gpu), (spec) =>
		services.appTemplate(spec, r.signal)
	);
	if (!check) throw new Error(setup.templateError ?? 'No chat template.');
	r.step('dataset');
	const choice = setup.dataset.current;
	let items: DatasetItem[];
	let datasetName: string;
	let datasetNote: string | undefined;
	if (choice === 'upload') {
		if (!setup.upload) throw new Error('Choose a dataset file first.');
		items = setup.upload.items;
		datasetName = setup.upload.name;
	} else {
		items = await loadDataset(choice, {
			fetch: (url, init) => fetch(url, init),
			cache: services.datasetCache(),
			signal: r.signal,
			onProgress: (done, total) => setup.setRows(done, total),
			// loadDataset hands it only to a dataset that needs one, which sends it to the Hub only.
			token: settings.hfToken
		});
		datasetName = choice;
		datasetNote = DATASETS[choice].note;
	}
	const contextWindow = await generatorContextWindow(services, settings, gpu, r.signal);
	const chosen = settings.generatorId(gpu);
	const runs: NewRun[] = [];
	const skipped: SkippedModel[] = [];
	for (const generator of generators) {
		let own: { check: TemplateCheck; contextWindow?: number } = { check, contextWindow };
		if (generator !== chosen) {
			r.step('template');
			const found = await ownTemplate(r, generator);
			if ('reason' in found) {
				skipped.push(found);
				continue;
			}
			own = found;
		}
		// Rules-only runs never call a judge; the generator stands in so the manifest is complete.
		const judge = values.judge_mode === 'rules' ? generator : settings.judgeId(gpu);
		const runValues = formRunValues(values, {
			run_id: newRunId(),
			dataset: datasetName,
			dataset_note: datasetNote,
			items,
			generator: { id: generator, template_repo: own.check.template.repo },
			judge: { id: judge },
			thinking_default: own.check.thinking,
			user_header_default: own.check.markup.headerDefault,
			reasoning_effort_default: own.check.markup.effortDefault,
			context_window: own.contextWindow
		});
		runs.push({
			values: runValues,
			template: own.check.template,
			choice: { engine: settings.engine.current, ...conn, adapter: gpu.adapter }
		});
	}
	return { runs, skipped };
}

/**
 * A sweep's further model: its own chat template and context window, or why it is left out. On
 * this device the catalog's repo or the file's own; on a server what its served name names
 * (servedTemplateSpec), and the context window the server states for it.
 * @throws AbortError when the start is stopped.
 */
export async function ownTemplate(
	r: Pick<NewRunRequest, 'services' | 'settings' | 'gpu' | 'signal'>,
	generator: string
): Promise<{ check: TemplateCheck; contextWindow?: number } | SkippedModel> {
	const { provider, chosen } = r.settings;
	const found: Pick<SweepGenerator, 'template' | 'context_window'> | null | undefined =
		provider.onDevice
			? chosen.sweepGenerator?.(generator, r.gpu)
			: { template: servedTemplateSpec(generator) };
	if (!found?.template) {
		return {
			model: generator,
			reason: provider.onDevice
				? 'not a model this engine loads, or no chat template known'
				: 'its served name is not a Hugging Face repo, so its chat template is unknown (run it alone with its template chosen)'
		};
	}
	try {
		const template = await r.services.appTemplate(found.template, r.signal);
		const ask = provider.askContextWindow;
		const told =
			found.context_window === undefined && ask
				? await ask(r.services, r.settings.connection(), generator, r.signal)
				: undefined;
		return {
			check: await readTemplateCheck(JSON.stringify(found.template), template),
			contextWindow: found.context_window ?? told?.tokens
		};
	} catch (err) {
		if (r.signal.aborted) throw err;
		return { model: generator, reason: `its chat template could not be read: ${errorText(err)}` };
	}
}
