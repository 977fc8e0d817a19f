/**
 * The OpenAI-shaped fields of a probe request, built once for every engine: the server client posts
 * them, the web-llm worker hands them to web-llm's OpenAI-shaped API, the CPU worker to wllama.
 */
import type { CompletionRequest } from '../probe/engine.ts';

type Sampling = Pick<CompletionRequest, 'temperature' | 'top_p' | 'seed' | 'max_tokens'>;

/** Sampling as the request sets it (the judge's and the generator's alike). */
export function samplingFields(req: Sampling) {
	return {
		temperature: req.temperature,
		top_p: req.top_p,
		seed: req.seed,
		max_tokens: req.max_tokens
	};
}

/** A streamed reply whose last chunk carries the usage (token counts for the speed shown). */
export const STREAMED = { stream: true, stream_options: { include_usage: true } } as const;

/**
 * A streamed completion of the prompt. The stop list goes only when it has entries: an empty one
 * says nothing, and some servers reject it.
 */
export function completionFields(
	req: Sampling & Pick<CompletionRequest, 'model' | 'prompt' | 'stop'>
) {
	return {
		model: req.model,
		prompt: req.prompt,
		...samplingFields(req),
		...(req.stop.length > 0 ? { stop: req.stop } : {}),
		...STREAMED
	};
}
