import type { EngineSettings } from '../state/settings.svelte.ts';
import type { AppServices } from './services.ts';

/**
 * The chosen generator's context window, where it is known: web-llm's catalog says it, a server
 * may (vLLM, llama-server). The answer limit is sized from it, in a run and in the playground.
 */
export async function generatorContextWindow(
	services: AppServices,
	settings: EngineSettings,
	gpu: { canRunModels: boolean; shaderF16: boolean },
	signal?: AbortSignal
): Promise<number | undefined> {
	const engine = settings.engine.current;
	if (engine === 'webllm') return settings.generator(gpu)?.context_window;
	if (engine !== 'openai') return undefined;
	const server = services.serverEngine(
		settings.baseUrl.current.trim(),
		settings.apiKey || undefined
	);
	return (await server.contextWindow(settings.generatorId(gpu), signal))?.tokens;
}
