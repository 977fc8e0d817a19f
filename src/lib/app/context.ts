/**
 * The composition root: createAppContext() (appParts.ts) makes the services and the tab's state
 * once, App.svelte hands them down with provideAppContext(), and views read them with
 * useServices(), useSettings()…
 * (the createX/useX context pair of chat-ui). A view test renders with its own context in the map
 * appContextMap() gives, so it passes services instead of mocking modules. Each state object is made on
 * first use: a view that never starts a run makes no RunController. This module imports only types,
 * so the page's first script stays small; appParts.ts, which makes the parts, loads with the views
 * that need it (the home view needs only environmentPart.ts).
 */
import { getContext, setContext } from 'svelte';
import type { DeviceBench } from '../state/deviceBench.svelte.ts';
import type { DownloadSizes } from '../state/downloadSizes.svelte.ts';
import type { ModelMirror } from '../state/modelMirror.svelte.ts';
import type { Environment } from '../state/environment.svelte.ts';
import type { ModelCacheState } from '../state/modelCache.svelte.ts';
import type { Playground } from '../state/playground.svelte.ts';
import type { RunController } from '../state/runner.svelte.ts';
import type { EngineSettings } from '../state/settings.svelte.ts';
import type { SetupState } from '../state/setup.svelte.ts';
import type { AppServices } from './services.ts';

/** Everything the views share in one tab. */
export interface AppContext {
	readonly services: AppServices;
	/** Engine settings shared by set-up and the playground (persisted in localStorage). */
	readonly settings: EngineSettings;
	/** What this device can do (WebGPU, storage). */
	readonly environment: Environment;
	/** The set-up form: survives a visit to another view. */
	readonly setup: SetupState;
	/** The tab's one run controller: it outlives the views that show it. */
	readonly runner: RunController;
	/** One playground per tab, so a typed conversation survives a visit to another view. */
	readonly playground: Playground;
	/** Which catalog models are cached, for the pickers' badges. */
	readonly modelCache: ModelCacheState;
	/** "Benchmark this device": a result in progress survives leaving the set-up view. */
	readonly deviceBench: DeviceBench;
	/** Download sizes measured in this browser (persisted), shown by the model pickers. */
	readonly downloadSizes: DownloadSizes;
	/** Where catalog models download from (Hugging Face or a school's mirror); the home view sets it from a class link. */
	readonly modelMirror: ModelMirror;
}

/** What a test (or the root) may give instead of the defaults. */
export type AppParts = Partial<{ [K in keyof AppContext]: AppContext[K] | (() => AppContext[K]) }>;

/** How each part is made when nothing replaces it (appParts.ts holds the real ones). */
export type AppDefaults = { [K in keyof AppContext]: (app: AppContext) => AppContext[K] };

/**
 * The app from `defaults`, each part made lazily on first read; `parts` replace any of them (a
 * value, or a function that makes it on first use). `defaults` is itself read on the first part that
 * needs it, and may hold only some parts yet, so the root can provide the context before the
 * modules that make the parts (Dexie, the probe core, the engines) have loaded: each view mounts
 * once the parts it reads are there (App.svelte).
 * @throws Error on reading a part whose maker has not loaded yet.
 */
export function composeAppContext(
	defaults: () => Partial<AppDefaults>,
	parts: AppParts = {}
): AppContext {
	const made = new Map<keyof AppContext, unknown>();
	const fromDefaults = <K extends keyof AppContext>(key: K): AppContext[K] => {
		const make = defaults()[key];
		if (!make) throw new Error(`The app is still loading (${key}).`);
		return make(app);
	};
	const get = <K extends keyof AppContext>(key: K): AppContext[K] => {
		if (!made.has(key)) {
			const part = parts[key];
			const value =
				part === undefined ? fromDefaults(key) : typeof part === 'function' ? part() : part;
			made.set(key, value);
		}
		return made.get(key) as AppContext[K];
	};
	const app = {} as AppContext;
	for (const key of APP_PARTS) {
		Object.defineProperty(app, key, { get: () => get(key), enumerable: true });
	}
	return app;
}

/** Every part's name (a Record, so the compiler checks that none is missing). */
const PART_NAMES: Record<keyof AppContext, true> = {
	services: true,
	settings: true,
	environment: true,
	setup: true,
	runner: true,
	playground: true,
	modelCache: true,
	deviceBench: true,
	downloadSizes: true,
	modelMirror: true
};
const APP_PARTS = Object.keys(PART_NAMES) as (keyof AppContext)[];

const APP_KEY = Symbol('user-turn-probe app');

/** At the root: make `app` what every useX() below returns. */
export function provideAppContext(app: AppContext): AppContext {
	return setContext(APP_KEY, app);
}

/** The context map for mount() or a test's render(): the same as provideAppContext at a root. */
export function appContextMap(app: AppContext): Map<unknown, unknown> {
	return new Map([[APP_KEY, app]]);
}

/** @throws Error when called outside a component under a root that provided the app. */
export function useAppContext(): AppContext {
	const app = getContext<AppContext | undefined>(APP_KEY);
	if (!app) throw new Error('No app in context: render under App.svelte or pass appContextMap().');
	return app;
}

export const useServices = (): AppServices => useAppContext().services;
export const useSettings = (): EngineSettings => useAppContext().settings;
export const useEnvironment = (): Environment => useAppContext().environment;
export const useSetup = (): SetupState => useAppContext().setup;
export const useRunner = (): RunController => useAppContext().runner;
export const usePlayground = (): Playground => useAppContext().playground;
export const useModelCache = (): ModelCacheState => useAppContext().modelCache;
export const useDeviceBench = (): DeviceBench => useAppContext().deviceBench;
export const useDownloadSizes = (): DownloadSizes => useAppContext().downloadSizes;
export const useModelMirror = (): ModelMirror => useAppContext().modelMirror;
