/**
 * The app's long-lived objects, made by createAppServices() once at the root (App.svelte) and
 * handed down through Svelte context (context.ts): the database, the run store, the caches and the
 * engines. Each is created on first use, so opening a view costs no IndexedDB connection and no
 * worker it does not need; a test makes its own services over a private database and fake engines.
 */
import { AnnotationStore } from '../db/annotations.ts';
import { dexieAnnotationBackend } from '../db/annotationBackend.ts';
import { DexieBenchmarkStore } from '../db/benchmarks.ts';
import { DexieDatasetCache, DexieTemplateCache } from '../db/caches.ts';
import { DexieRunInputs } from '../db/runInputs.ts';
import { DexieRunStore } from '../db/runs.ts';
import { createDB, type ProbeDB } from '../db/schema.ts';
import type { AnnotationBackend } from '../annotate/backend.ts';
import type { DatasetCache } from '../datasets/registry.ts';
import { OpenAIEngine } from '../engines/server/client.ts';
import { datasetCacheOf } from './datasets.ts';
import { createCpuDevice, createWebgpuDevice, type DeviceEngine } from './deviceEngine.ts';
import { createWebLLMEngine } from '../engines/webgpu/client.ts';
import { customAppConfig, type CustomMlcModel } from '../engines/webgpu/custom.ts';
import { loadTemplate, type TemplateSpec } from '../setup/templates.ts';
import { shipsTemplate } from './shippedRepos.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { LoadedNlp } from '../nlp/support.ts';
import type { ResourceCache } from '../nlp/load.ts';
import { appVersion } from '../version.ts';

export const APP_VERSION = appVersion('web');

export interface AppServices {
	db(): ProbeDB;
	runStore(): DexieRunStore;
	/** Each run's own items and template, for resuming offline. */
	runInputStore(): DexieRunInputs;
	/** The device benchmark's history. */
	benchmarkStore(): DexieBenchmarkStore;
	/** Labels people give in the annotate view, with the runs they label. */
	annotationBackend(): AnnotationBackend;
	templateCache(): DexieTemplateCache;
	datasetCache(): DatasetCache;
	/** The WebGPU engine: creating it starts the worker, which downloads web-llm once. */
	webgpuEngine(): DeviceEngine;
	/** Whether the WebGPU engine exists yet (so the cache badges need not start a worker). */
	hasWebgpuEngine(): boolean;
	/** Drop a broken WebGPU engine (GPU device lost, worker crashed); the next use makes a new one. */
	resetWebgpuEngine(): void;
	/**
	 * The CPU engine: creating it starts its worker, which downloads wllama (and its wasm) once.
	 * Never created together with the web-llm engine by the same run: each run uses one.
	 */
	cpuEngine(): DeviceEngine;
	hasCpuEngine(): boolean;
	/** Drop a broken CPU engine; the next use makes a new worker. */
	resetCpuEngine(): void;
	/**
	 * One engine per server and key, so its concurrency limit and JSON-mode fallback are shared.
	 * @throws EngineError('network') when the URL is not http(s).
	 */
	serverEngine(baseUrl: string, apiKey?: string): OpenAIEngine;
	/** @throws TemplateError, or AbortError when `signal` aborts. */
	appTemplate(spec: TemplateSpec, signal?: AbortSignal): Promise<ChatTemplate>;
	/**
	 * NLTK's English data and syllapy's word list for IFBench (and IFEval's sentence counts):
	 * downloaded once into the browser's Cache Storage, parsed once per tab. A failure is the
	 * result's reason, not an exception, and is tried again next time.
	 * @throws AbortError when `signal` aborts.
	 */
	englishNlp(signal?: AbortSignal): Promise<LoadedNlp>;
}

/** What the services are made from; each defaults to the browser's real one. */
export interface AppServiceDeps {
	/** Opens the database (IndexedDB through Dexie); called once, on first use. */
	openDb?: () => ProbeDB;
	/** Makes the web-llm engine (starts its worker). */
	makeWebgpuEngine?: () => DeviceEngine;
	/** Makes the wllama engine (starts its worker). */
	makeCpuEngine?: () => DeviceEngine;
	/** For chat templates and datasets. */
	fetch?: typeof fetch;
	/**
	 * The user's own MLC models, read at each web-llm load and cache query (so one added later
	 * counts); none when not given.
	 */
	customModels?: () => CustomMlcModel[];
	/** Where downloaded NLP data is kept; the browser's Cache Storage when it has one. */
	nlpCache?: ResourceCache;
}

export function createAppServices(deps: AppServiceDeps = {}): AppServices {
	const openDb = deps.openDb ?? (() => createDB());
	const customModels = deps.customModels ?? (() => []);
	const makeWebgpu =
		deps.makeWebgpuEngine ??
		(() =>
			createWebgpuDevice(() =>
				createWebLLMEngine({ appConfig: () => customAppConfig(customModels()) })
			));
	const makeCpu = deps.makeCpuEngine ?? (() => createCpuDevice());
	const fetchFn: typeof fetch = deps.fetch ?? ((url, init) => fetch(url, init));
	let database: ProbeDB | undefined;
	let runs: DexieRunStore | undefined;
	let inputs: DexieRunInputs | undefined;
	let benchmarks: DexieBenchmarkStore | undefined;
	let templates: DexieTemplateCache | undefined;
	let datasets: DatasetCache | undefined;
	let webgpu: DeviceEngine | undefined;
	let cpu: DeviceEngine | undefined;
	const servers = new Map<string, OpenAIEngine>();
	let nlp: Promise<LoadedNlp> | undefined;
	const loadNlp = async (signal?: AbortSignal): Promise<LoadedNlp> => {
		const [{ loadNlpSupport }, { browserCache }] = await Promise.all([
			import('../nlp/support.ts'),
			import('../nlp/browserCache.ts')
		]);
		const cache = deps.nlpCache ?? (typeof caches === 'undefined' ? undefined : browserCache());
		return loadNlpSupport({ fetch: fetchFn, signal, cache });
	};

	const services: AppServices = {
		db: () => (database ??= openDb()),
		runStore: () => (runs ??= new DexieRunStore(services.db())),
		runInputStore: () => (inputs ??= new DexieRunInputs(services.db(), services.runStore())),
		benchmarkStore: () => (benchmarks ??= new DexieBenchmarkStore(services.db())),
		annotationBackend: () =>
			dexieAnnotationBackend(services.runStore(), new AnnotationStore(services.db())),
		templateCache: () => (templates ??= new DexieTemplateCache(services.db())),
		datasetCache: () => (datasets ??= datasetCacheOf(new DexieDatasetCache(services.db()))),
		webgpuEngine: () => (webgpu ??= makeWebgpu()),
		hasWebgpuEngine: () => webgpu !== undefined,
		resetWebgpuEngine: () => {
			webgpu?.dispose();
			webgpu = undefined;
		},
		cpuEngine: () => (cpu ??= makeCpu()),
		hasCpuEngine: () => cpu !== undefined,
		resetCpuEngine: () => {
			cpu?.dispose();
			cpu = undefined;
		},
		serverEngine: (baseUrl, apiKey) => {
			const key = `${baseUrl}\u0000${apiKey ?? ''}`;
			let engine = servers.get(key);
			if (!engine) {
				engine = new OpenAIEngine({ baseUrl, apiKey });
				servers.set(key, engine);
			}
			return engine;
		},
		appTemplate: (spec, signal) =>
			loadTemplate(spec, {
				fetch: fetchFn,
				shipped: async (repo) =>
					shipsTemplate(repo)
						? (await import('./shippedTemplates.ts')).shippedTemplate(repo)
						: undefined,
				served: (server) =>
					services.serverEngine(server.baseUrl, server.apiKey).servedTemplate(signal),
				cache: services.templateCache(),
				signal
			}),
		englishNlp: async (signal) => {
			const loading = (nlp ??= loadNlp(signal));
			const loaded = await loading.catch((error: unknown) => {
				nlp = undefined;
				throw error;
			});
			if ('unavailable' in loaded.nlp && nlp === loading) nlp = undefined;
			return loaded;
		}
	};
	return services;
}
