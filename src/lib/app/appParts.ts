/**
 * The parts of the app context (context.ts) as the browser makes them: the services over IndexedDB
 * and the real engines, the settings, the tab's state. Loaded beside the first view, not with the
 * page's first script: it brings Dexie, the probe core and the chat-template renderer.
 */
import { DeviceBench } from '../state/deviceBench.svelte.ts';
import { DownloadSizes } from '../state/downloadSizes.svelte.ts';
import { ModelCacheState } from '../state/modelCache.svelte.ts';
import { Playground } from '../state/playground.svelte.ts';
import { RunController } from '../state/runner.svelte.ts';
import { EngineSettings } from '../state/settings.svelte.ts';
import { SetupState } from '../state/setup.svelte.ts';
import { composeAppContext, type AppContext, type AppDefaults, type AppParts } from './context.ts';
import { makeEnvironment } from './environmentPart.ts';
import { createAppServices } from './services.ts';

export const APP_DEFAULTS: AppDefaults = {
	services: (app) => createAppServices({ customModels: () => app.settings.webgpu.customModels }),
	settings: () => new EngineSettings(),
	environment: makeEnvironment,
	setup: () => new SetupState(),
	runner: () => new RunController(),
	playground: () => new Playground(),
	modelCache: () => new ModelCacheState(),
	deviceBench: (app) => new DeviceBench({ store: app.services.benchmarkStore() }),
	downloadSizes: () => new DownloadSizes()
};

/** The app with real services and state, made lazily; `parts` replace any of them. */
export function createAppContext(parts: AppParts = {}): AppContext {
	return composeAppContext(() => APP_DEFAULTS, parts);
}
