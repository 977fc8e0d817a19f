/**
 * Every part but the playground, as the browser makes them: what set-up (and the run it starts)
 * reads. Its own module so a first visit to set-up waits for no playground code (it runs the probe
 * core on its own); appParts.ts adds the playground.
 */
import { DeviceBench } from '../state/deviceBench.svelte.ts';
import { DownloadSizes } from '../state/downloadSizes.svelte.ts';
import { ModelCacheState } from '../state/modelCache.svelte.ts';
import { RunController } from '../state/runner.svelte.ts';
import { EngineSettings } from '../state/settings.svelte.ts';
import { SetupState } from '../state/setup.svelte.ts';
import type { AppDefaults } from './context.ts';
import { makeEnvironment, makeModelMirror } from './environmentPart.ts';
import { createAppServices } from './services.ts';

export const SETUP_DEFAULTS: Omit<AppDefaults, 'playground'> = {
	services: (app) =>
		createAppServices({
			customModels: () => app.settings.models.webgpu.customModels,
			modelMirror: () => app.settings.mirror.source()
		}),
	settings: (app) => new EngineSettings(undefined, app.modelMirror),
	environment: makeEnvironment,
	modelMirror: makeModelMirror,
	setup: () => new SetupState(),
	runner: (app) => new RunController({ onDownload: (s) => app.downloadSizes.recordSpeed(s) }),
	modelCache: () => new ModelCacheState(),
	deviceBench: (app) => new DeviceBench({ store: app.services.benchmarkStore() }),
	downloadSizes: () => new DownloadSizes()
};
