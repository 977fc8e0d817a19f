/**
 * Starting and resuming runs in the browser: the glue between the set-up and run views, the
 * stored run (manifest, items, template) and the tab's RunController.
 */
import { DATASETS, loadDataset } from '../datasets/registry.ts';
import { sampleItems } from '../datasets/sample.ts';
import { EngineError, type Engine } from '../probe/engine.ts';
import {
	checkResume,
	describeVanished,
	datasetSha256,
	identityHash,
	runIdentity,
	type ModelFingerprint,
	type RunIdentity
} from '../probe/identity.ts';
import { judgePromptHash } from '../probe/judge.ts';
import { itemsUseNlp } from '../probe/scoring/index.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { DatasetItem, ProbeConfig } from '../probe/types.ts';
import type { RunController, RunSetup } from '../state/runner.svelte.ts';
import { RunActiveError } from '../state/runner.svelte.ts';
import type { EngineSettings } from '../state/settings.svelte.ts';
import type { SetupState, StartStep } from '../state/setup.svelte.ts';
import { startWithLock } from './runLocks.ts';
import { browserAnswersOpaque, checkServer, type ServerCheckDeps } from './serverCheck.ts';
import { buildConfig, newRunId } from '../setup/runForm.ts';
import {
	configFromManifest,
	createRun,
	initialManifest,
	loadRunInputs,
	readLaunch,
	saveLaunch,
	type EngineKind,
	type RunLaunch
} from '../setup/runInputs.ts';
import { APP_VERSION, type AppServices } from './services.ts';

export interface EngineChoice {
	engine: EngineKind;
	base_url?: string;
	/** Used for requests only; never stored with the run. */
	api_key?: string;
	/** GPU adapter info for the manifest (vendor, architecture). */
	adapter?: Record<string, string>;
}

export class ResumeError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ResumeError';
	}
}

/** Engine codes after which the device engine is broken and must be made anew. */
const BROKEN_DEVICE = new Set(['device_lost', 'unknown']);

function setupFor(services: AppServices, choice: EngineChoice, template: ChatTemplate): RunSetup {
	if (choice.engine === 'openai') {
		if (!choice.base_url) {
			throw new EngineError('network', 'No server URL was given.', 'Enter the server URL.');
		}
		const engine: Engine = services.serverEngine(choice.base_url, choice.api_key || undefined);
		return { engine, judge: engine, template };
	}
	const cpu = choice.engine === 'wllama';
	const device = cpu ? services.cpuEngine() : services.deviceEngine();
	return {
		engine: device.engine,
		judge: device.engine,
		template,
		manifestExtras: { engine_version: device.version, adapter: choice.adapter },
		release: async (why, error) => {
			if (why === 'cancel') await device.unload();
			if (why === 'fatal' && error instanceof EngineError && BROKEN_DEVICE.has(error.code)) {
				if (cpu) services.resetCpuEngine();
				else services.resetDeviceEngine();
			}
		}
	};
}

/**
 * Store the new run whole (manifest, items, template, launch), then start it in the background.
 * Resolves once the run is stored, so the caller can navigate to it.
 * @throws RunActiveError before writing anything when a run is active in this tab.
 */
export async function createAndStart(
	services: AppServices,
	runner: RunController,
	run: { config: ProbeConfig; template: ChatTemplate; choice: EngineChoice }
): Promise<void> {
	if (runner.active) throw new RunActiveError(runner.runId ?? '?');
	const { config, template, choice } = run;
	const manifest = await initialManifest(config, {
		engine: choice.engine,
		template,
		appVersion: APP_VERSION
	});
	const identity = await identityOf(services, config, template, choice);
	const stamped = { ...manifest, identity, config_hash: await identityHash(identity) };
	await createRun(services.runInputStore(), stamped, { items: config.items, template });
	saveLaunch(storage(), config.run_id, launchOf(choice));
	await start(services, runner, config, template, choice, identity);
}

/**
 * What the run's records mean (identity.ts): its config, template, dataset and judge prompt, and
 * its models as far as the engine can tell: a server's /v1/models entry (vLLM's root, llama-server's
 * meta), or the model id with the runtime version for this device's engines.
 * @throws the server engine's errors when /v1/models cannot be read.
 */
async function identityOf(
	services: AppServices,
	config: ProbeConfig,
	template: ChatTemplate,
	choice: EngineChoice
): Promise<RunIdentity> {
	let models: { generator?: ModelFingerprint; judge?: ModelFingerprint };
	if (choice.engine === 'openai' && choice.base_url) {
		const served = await services
			.serverEngine(choice.base_url, choice.api_key || undefined)
			.modelFingerprints();
		models = { generator: served.get(config.generator.id), judge: served.get(config.judge.id) };
	} else {
		const device = choice.engine === 'wllama' ? services.cpuEngine() : services.deviceEngine();
		const runtime = device.version;
		models = {
			generator: { id: config.generator.id, runtime },
			judge: { id: config.judge.id, runtime }
		};
	}
	return runIdentity({
		config,
		template_sha256: template.sha256,
		judge_prompt_hash: await judgePromptHash(),
		dataset_sha256: await datasetSha256(config.items),
		...models
	});
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
	const identity = await identityOf(services, config, inputs.template, choice);
	const check = checkResume(manifest, runId, identity);
	if (check.conflict !== null) {
		throw new ResumeError(
			`This run was made with another setup: ${check.conflict}. Its records would mix with new ones that mean something else; start a new run from set-up instead.`
		);
	}
	if (check.vanished.length > 0) {
		throw new ResumeError(
			`This run was made with ${describeVanished(manifest, check.vanished)}, which the server no longer reports, so it cannot be checked that the same weights answer; start a new run from set-up instead.`
		);
	}
	await start(services, runner, config, inputs.template, choice, check.identity);
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
	config: ProbeConfig,
	template: ChatTemplate,
	choice: EngineChoice,
	identity: RunIdentity
): Promise<void> {
	const config_hash = await identityHash(identity);
	return startWithLock(config.run_id, () =>
		runner.start({
			config,
			store: services.runStore(),
			prepare: async (signal) => {
				const setup = setupFor(services, choice, template);
				const nlp = itemsUseNlp(config.items) ? await services.englishNlp(signal) : undefined;
				return {
					...setup,
					nlp: nlp?.nlp,
					manifestExtras: { ...setup.manifestExtras, identity, config_hash, nlp_data: nlp?.note }
				};
			},
			appVersion: APP_VERSION
		})
	);
}

function launchOf(choice: EngineChoice): RunLaunch {
	return choice.engine === 'openai'
		? { engine: 'openai', base_url: choice.base_url }
		: { engine: choice.engine };
}

function storage(): Storage | undefined {
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
 * @throws EngineError('webgpu_unavailable') before anything loads or is stored when the device
 *   engine is chosen on a device that cannot run models (the run could only fail);
 *   TemplateError, DatasetError, RunActiveError, or AbortError when `signal` aborts.
 */
export async function startFromSetup(r: NewRunRequest): Promise<string> {
	const { services, settings, setup, gpu } = r;
	if (settings.engine.current === 'webllm' && !gpu.canRunModels) {
		throw new EngineError(
			'webgpu_unavailable',
			'This device cannot run models in the browser (no WebGPU adapter).',
			'Choose the OpenAI-compatible server engine.'
		);
	}
	const values = setup.valuesNow;
	if (settings.engine.current === 'openai') {
		// A server that is down, blocked or lacks a model fails the start here, before the template
		// and the dataset load and before a run is stored: a failed start leaves no empty run behind.
		r.step('server');
		const baseUrl = settings.baseUrl.current.trim();
		if (!baseUrl) {
			throw new EngineError('network', 'No server URL was given.', 'Enter the server URL.');
		}
		const server = services.serverEngine(baseUrl, settings.apiKey || undefined);
		const check = await checkServer(
			{
				baseUrl,
				model: settings.generatorId(gpu),
				judge: values.judge_mode === 'rules' ? undefined : settings.judgeId(gpu),
				signal: r.signal
			},
			{
				listModels: (signal) => server.listModels(signal),
				answersOpaque: r.answersOpaque ?? browserAnswersOpaque
			}
		);
		const failed = check.lines.filter((l) => !l.ok);
		if (failed.length > 0) throw new Error(failed.map((l) => l.text).join(' '));
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
			// Only a gated set gets the token, and loadGpqa sends it to huggingface.co only.
			token: DATASETS[choice].gated ? settings.hfToken : undefined
		});
		datasetName = choice;
		datasetNote = DATASETS[choice].note;
	}
	const chosen = sampleItems(items, values.n, values.seed);
	const generator = settings.generatorId(gpu);
	const engine = settings.engine.current;
	// Rules-only runs never call a judge; the generator stands in so the manifest is complete.
	const judge = values.judge_mode === 'rules' ? generator : settings.judgeId(gpu);
	let contextWindow = engine === 'webllm' ? settings.generator(gpu)?.context_window : undefined;
	if (engine === 'openai') {
		// Checked above (models listed, the chosen ones served). Where the server tells its context
		// (vLLM, llama-server), the answer limit follows it.
		const server = services.serverEngine(
			settings.baseUrl.current.trim(),
			settings.apiKey || undefined
		);
		contextWindow = (await server.contextWindow(generator, r.signal))?.tokens;
	}
	const config = buildConfig(values, {
		run_id: newRunId(),
		dataset: datasetName,
		dataset_note: datasetNote,
		items: chosen,
		generator: { id: generator, template_repo: check.template.repo },
		judge: { id: judge },
		thinking_default: check.thinking,
		context_window: contextWindow
	});
	r.step('storing');
	await createAndStart(services, r.runner, {
		config,
		template: check.template,
		choice: {
			engine,
			base_url: settings.baseUrl.current.trim(),
			api_key: settings.apiKey,
			adapter: gpu.adapter
		}
	});
	return config.run_id;
}
