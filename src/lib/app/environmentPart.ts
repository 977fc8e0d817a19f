/**
 * The one part the home view reads, made from a module that brings nothing else: the first screen
 * mounts with it alone, before appParts.ts (Dexie, the probe core, the engines) has loaded.
 */
import { Environment } from '../state/environment.svelte.ts';

/** What this browser can do; the GPU probe (web-llm's adapter check) loads only when asked. */
export function makeEnvironment(): Environment {
	return new Environment({
		probeGpu: () => import('../engines/webgpu/gpu.ts').then((m) => m.probeGpu()),
		storage: typeof navigator !== 'undefined' ? navigator.storage : undefined
	});
}
