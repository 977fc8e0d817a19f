/**
 * The parts the home view reads (what this device can do, where models come from), made from a module that brings nothing else: the first screen
 * mounts with it alone, before appParts.ts (Dexie, the probe core, the engines) has loaded.
 */
import { Environment } from '../state/environment.svelte.ts';
import { ModelMirror } from '../state/modelMirror.svelte.ts';

/** Where models download from: the home view reads it for the device line and a class link. */
export function makeModelMirror(): ModelMirror {
	return new ModelMirror();
}

/** What this browser can do; the GPU probe (web-llm's adapter check) loads only when asked. */
export function makeEnvironment(): Environment {
	return new Environment({
		probeGpu: () => import('../engines/webgpu/gpu.ts').then((m) => m.probeGpu()),
		storage: typeof navigator !== 'undefined' ? navigator.storage : undefined
	});
}
