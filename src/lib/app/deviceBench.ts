/**
 * What "benchmark this device" measures, prepared when its button is pressed: the generator chosen
 * in the set-up view, on the chosen engine of this device (WebGPU or CPU), with the model's own
 * chat template (the same template check a run makes).
 */
import type { DeviceBenchRequest } from '../state/deviceBench.svelte.ts';
import type { EngineSettings } from '../state/settings.svelte.ts';
import type { SetupState } from '../state/setup.svelte.ts';
import type { AppServices } from './services.ts';
import type { DeviceFacts, EngineHosts, GpuFacts } from '../engines/provider.ts';

/**
 * Why the benchmark cannot run with these settings, or null when it can: it needs an engine on
 * this device, and then whatever a run there needs (settings.problems: WebGPU, a generator, a
 * template). It is no run (nothing stored, no identity, its items fixed), so of a start's steps
 * (probe/start.ts) only the lock applies: no run may be using the device, as for the playground.
 */
export function deviceBenchBlocker(
	settings: Pick<EngineSettings, 'provider' | 'problems'>,
	env: DeviceFacts,
	runner: { readonly active: boolean }
): string | null {
	if (!settings.provider.onDevice) {
		return 'The benchmark measures this device: choose “This device” (WebGPU or CPU) as the engine.';
	}
	// Two models in one device's memory, and a timing the run's work would skew.
	if (runner.active) return 'A run is using this device.';
	return settings.problems(env)[0] ?? null;
}

/** @throws Error naming why the template could not be had (the set-up view shows it). */
export async function deviceBenchRequest(
	services: Pick<AppServices, 'appTemplate'> & EngineHosts,
	settings: EngineSettings,
	setup: SetupState,
	gpu: GpuFacts
): Promise<DeviceBenchRequest> {
	const check = await setup.checkTemplate(settings.templateSpec(gpu), (spec) =>
		services.appTemplate(spec)
	);
	if (!check) throw new Error(setup.templateError ?? 'No chat template.');
	const device = settings.provider.device?.(services);
	return {
		engine: (await settings.provider.open(services, settings.connection())).engine,
		model: settings.generatorId(gpu),
		template: check.template,
		facts: device?.facts && (() => device.facts?.() ?? Promise.resolve({}))
	};
}
