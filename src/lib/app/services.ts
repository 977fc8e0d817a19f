/**
 * The app's long-lived objects, made by createAppServices() once at the root (App.svelte) and
 * handed down through Svelte context (context.ts): the database, the run store, the caches and the
 * engines. Each is created on first use, so opening a view costs no IndexedDB connection and no
 * worker it does not need, and no store code (Dexie) loads before a store is first called; a test
 * makes its own services over a private database and fake engines.
 */
import type { ProbeDB } from '../db/schema.ts';
import type { BrowserStores } from '../db/stores.ts';
import type { AnnotationBackend } from '../annotate/backend.ts';
import type { DatasetCache } from '../datasets/registry.ts';
import type { OpenAIEngine } from '../engines/server/client.ts';
import { datasetCacheOf } from './datasets.ts';
import { painted } from '../display/afterPaint.ts';
import { deferred, type AsyncMethods, type MethodNames } from './deferred.ts';
import {
	ANNOTATION_BACKEND_METHODS,
	BENCHMARK_STORE_METHODS,
	DATASET_CACHE_METHODS,
	RUN_INPUTS_METHODS,
	RUN_STORE_METHODS,
	TEMPLATE_CACHE_METHODS
} from './storeMethods.ts';
import { createCpuDevice, createWebgpuDevice, type DeviceEngine } from './deviceEngine.ts';
import { createWebLLMEngine } from '../engines/webgpu/client.ts';
import { createCpuEngine } from '../engines/cpu/client.ts';
import type { MirrorManifest } from '../engines/mirror.ts';
import type { EngineKind } from '../engines/registry.ts';
import { customAppConfig, type CustomMlcModel } from '../engines/webgpu/custom.ts';
import type { TemplateSpec } from '../setup/templates.ts';
import { shipsTemplate } from '../templates/packages.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { LoadedNlp } from '../nlp/support.ts';
import type { ResourceCache } from '../nlp/load.ts';
import { appVersion } from '../version.ts';

export const APP_VERSION = appVersion('web');

/** A store as the services hand it out: its async methods, the store itself loading on first call. */
export type StoreOf<K extends keyof BrowserStores> = AsyncMethods<BrowserStores[K]>;

/**
 * The stores are handed out synchronously but open lazily: Dexie and the store code load with the
 * first call to any store method (db/stores.ts), so a view that holds a store paints without them.
 */
export interface AppServices {
	/** Opens the database on the first call. */
	db(): Promise<ProbeDB>;
	runStore(): StoreOf<'runs'>;
	/** Each run's own items and template, for resuming offline. */
	runInputStore(): StoreOf<'inputs'>;
	/** The device benchmark's history. */
	benchmarkStore(): StoreOf<'benchmarks'>;
	/** Labels people give in the annotate view, with the runs they label. */
	annotationBackend(): AnnotationBackend;
	templateCache(): StoreOf<'templates'>;
	datasetCache(): DatasetCache;
	/**
	 * The engine of this kind on this device, made on first use: creating it starts its worker,
	 * which downloads its library (web-llm, or wllama and its wasm) once. A run uses one kind.
	 * @throws Error for a kind that does not run on this device (a server).
	 */
	device(kind: EngineKind): DeviceEngine;
	/** Whether that engine exists yet (so the cache badges need not start a worker). */
	hasDevice(kind: EngineKind): boolean;
	/** Drop a broken one (GPU device lost, worker crashed); the next use makes a new one. */
	resetDevice(kind: EngineKind): void;
	/**
	 * One engine per server and key, so its concurrency limit and JSON-mode fallback are shared.
	 * Its code loads with the first server used, not with set-up's first paint.
	 * @throws (rejects) EngineError('network') when the URL is not http(s).
	 */
	serverEngine(baseUrl: string, apiKey?: string): Promise<OpenAIEngine>;
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

/** How each engine on this device is made, by kind (those the registry's providers host there). */
type DeviceMakers = Record<'webgpu' | 'cpu', () => DeviceEngine>;

/** What the services are made from; each defaults to the browser's real one. */
export interface AppServiceDeps {
	/** Opens the database (IndexedDB through Dexie); called once, on first use. */
	openDb?: () => ProbeDB | Promise<ProbeDB>;
	/** Makes the engine of a kind on this device (starts its worker); the real one when absent. */
	makeDevice?: Partial<DeviceMakers>;
	/** For chat templates and datasets. */
	fetch?: typeof fetch;
	/**
	 * The user's own MLC models, read at each web-llm load and cache query (so one added later
	 * counts); none when not given.
	 */
	customModels?: () => CustomMlcModel[];
	/** The model mirror catalog models load from, read at each load; undefined: the Hub. */
	modelMirror?: () => { base: string; manifest?: MirrorManifest } | undefined;
	/** Where downloaded NLP data is kept; the browser's Cache Storage when it has one. */
	nlpCache?: ResourceCache;
	/** Resolves once the page has painted: the stores load after it (default: the next frame's). */
	painted?: () => Promise<void>;
}

export function createAppServices(deps: AppServiceDeps = {}): AppServices {
	const customModels = deps.customModels ?? (() => []);
	const modelMirror = deps.modelMirror ?? (() => undefined);
	const makers: DeviceMakers = {
		webgpu: () =>
			createWebgpuDevice(() =>
				createWebLLMEngine({
					appConfig: () => customAppConfig(customModels()),
					mirror: modelMirror
				})
			),
		cpu: () => createCpuDevice(() => createCpuEngine({ mirror: modelMirror })),
		...deps.makeDevice
	};
	const fetchFn: typeof fetch = deps.fetch ?? ((url, init) => fetch(url, init));
	let opened: Promise<{ db: ProbeDB; stores: BrowserStores }> | undefined;
	/** The stores' module and the database, once; a failed load (a chunk offline) is tried again. */
	const open = () =>
		(opened ??= (async () => {
			// A view that reads a store as it mounts would otherwise fetch Dexie before it paints.
			await (deps.painted ?? painted)();
			const { createDB, storesOver } = await import('../db/stores.ts');
			const db = await (deps.openDb ?? createDB)();
			return { db, stores: storesOver(db) };
		})().catch((error: unknown) => {
			opened = undefined;
			throw error;
		}));
	const store = <K extends keyof BrowserStores>(
		key: K,
		methods: MethodNames<BrowserStores[K]>
	): StoreOf<K> => deferred(async () => (await open()).stores[key], methods);
	const runs = store('runs', RUN_STORE_METHODS);
	const inputs = store('inputs', RUN_INPUTS_METHODS);
	const benchmarks = store('benchmarks', BENCHMARK_STORE_METHODS);
	const annotations = store('annotations', ANNOTATION_BACKEND_METHODS);
	const templates = store('templates', TEMPLATE_CACHE_METHODS);
	const datasets = datasetCacheOf(store('datasets', DATASET_CACHE_METHODS));
	const devices = new Map<EngineKind, DeviceEngine>();
	const servers = new Map<string, Promise<OpenAIEngine>>();
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
		db: async () => (await open()).db,
		runStore: () => runs,
		runInputStore: () => inputs,
		benchmarkStore: () => benchmarks,
		annotationBackend: () => annotations,
		templateCache: () => templates,
		datasetCache: () => datasets,
		device: (kind) => {
			let device = devices.get(kind);
			if (!device) {
				const make = makers[kind as keyof DeviceMakers] as (() => DeviceEngine) | undefined;
				if (!make) throw new Error(`The ${kind} engine does not run on this device.`);
				device = make();
				devices.set(kind, device);
			}
			return device;
		},
		hasDevice: (kind) => devices.has(kind),
		resetDevice: (kind) => {
			devices.get(kind)?.dispose();
			devices.delete(kind);
		},
		serverEngine: (baseUrl, apiKey) => {
			const key = `${baseUrl}\u0000${apiKey ?? ''}`;
			let engine = servers.get(key);
			if (!engine) {
				engine = import('../engines/server/client.ts').then(
					({ OpenAIEngine, BROWSER_QUEUED_REQUESTS }) =>
						new OpenAIEngine({ baseUrl, apiKey, queuedInBrowser: BROWSER_QUEUED_REQUESTS })
				);
				servers.set(key, engine);
				// A URL that is not http(s), or code that could not load (offline): asked anew next time.
				engine.catch(() => {
					if (servers.get(key) === engine) servers.delete(key);
				});
			}
			return engine;
		},
		// The template loaders and Jinja load with the first template, not with the views.
		appTemplate: async (spec, signal) =>
			(await import('../setup/templates.ts')).loadTemplate(spec, {
				fetch: fetchFn,
				hfBase: modelMirror()?.base || undefined,
				shipped: async (repo) =>
					shipsTemplate(repo)
						? (await import('../templates/shippedTemplates.ts')).shippedTemplate(repo)
						: undefined,
				served: async (server) =>
					(await services.serverEngine(server.baseUrl, server.apiKey)).servedTemplate(signal),
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
