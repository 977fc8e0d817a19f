/**
 * The engine registry: one provider per kind, in the order set-up offers them. Everything else
 * (the choices, settings, estimates, launch, resume) asks this table; kinds are compared nowhere
 * else.
 *
 * Adding an engine: write its provider (provider.ts's EngineProvider) with its settings class in
 * its own folder, add it below, and give it a model panel in components/engine/panels.ts; one that
 * runs in a worker of its own also gets a maker in the app's services (docs/architecture.md).
 */
import { cpu } from './cpu/provider.ts';
import type { EngineProvider } from './provider.ts';
import { server } from './server/provider.ts';
import { webgpu } from './webgpu/provider.ts';

export const ENGINES = { webgpu, cpu, server } as const;

/** Where the models run: this device's GPU, its processor, or a server. */
export type EngineKind = keyof typeof ENGINES;

/** Each engine's own settings class. */
export type ModelsOf<K extends EngineKind> = ReturnType<(typeof ENGINES)[K]['models']>;

/** The providers in the order they are offered. */
export const ENGINE_LIST: readonly EngineProvider<EngineKind>[] = Object.values(ENGINES);

export function providerOf(kind: EngineKind): EngineProvider<EngineKind> {
	return ENGINES[kind];
}

/**
 * The kind a stored value names: a kind, or a runtime name (manifests and benchmarks record the
 * runtime; settings and launches saved before the webgpu/cpu/server names hold it too).
 * @returns undefined for anything else.
 */
export function engineKindOf(stored: unknown): EngineKind | undefined {
	return ENGINE_LIST.find((p) => p.kind === stored || p.runtime === stored)?.kind;
}

/** The engine a device that knows its GPU defaults to: the first on-device one it can run. */
export function deviceDefault(device: { canRunModels: boolean }): EngineKind {
	const known = { canRunModels: device.canRunModels, shaderF16: false, checked: true };
	return ENGINE_LIST.find((p) => p.onDevice && p.unavailable(known) === null)?.kind ?? server.kind;
}
