import type { EngineHosts, GpuFacts } from '../engines/provider.ts';
import type { EngineSettings } from '../state/settings.svelte.ts';

/**
 * The chosen generator's context window, where it is known: the engine's catalog says it (WebGPU),
 * or the engine is asked (a server may say: vLLM, llama-server). The answer limit is sized from
 * it, in a run and in the playground.
 */
export async function generatorContextWindow(
	hosts: EngineHosts,
	settings: EngineSettings,
	gpu: GpuFacts,
	signal?: AbortSignal
): Promise<number | undefined> {
	const known = settings.chosen.knownContextWindow(gpu);
	if (known !== undefined) return known;
	const ask = settings.provider.askContextWindow;
	const told = ask?.(hosts, settings.connection(), settings.generatorId(gpu), signal ?? NEVER);
	return (await told)?.tokens;
}

/** For an ask nobody cancels. */
const NEVER = new AbortController().signal;
