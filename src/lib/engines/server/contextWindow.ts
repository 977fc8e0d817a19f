/**
 * How long a served model's context is, where the server says so: vLLM puts `max_model_len` in
 * each /v1/models entry, llama-server answers GET /props with `default_generation_settings.n_ctx`
 * (the context each request gets). Others (Ollama's OpenAI API, hosted APIs) do not say; then it
 * stays unknown and the app keeps the typed answer limit. Pure: the engine fetches, this reads.
 */

export interface ServerContextWindow {
	tokens: number;
	/** Where the number came from, for the set-up view ("llama-server /props n_ctx"). */
	source: string;
}

function isRecord(x: unknown): x is Record<string, unknown> {
	return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function positiveInt(x: unknown): number | undefined {
	return typeof x === 'number' && Number.isInteger(x) && x > 0 ? x : undefined;
}

/** vLLM: the /v1/models entry of `model` carries max_model_len. */
export function contextFromModels(reply: unknown, model: string): ServerContextWindow | undefined {
	const data = isRecord(reply) ? reply.data : undefined;
	if (!Array.isArray(data)) return undefined;
	const entry = data.find((e) => isRecord(e) && e.id === model) as
		Record<string, unknown> | undefined;
	const tokens = positiveInt(entry?.max_model_len);
	return tokens ? { tokens, source: 'max_model_len in /v1/models' } : undefined;
}

/**
 * llama-server: /props describes the one loaded model. It counts for `model` when it names it
 * (model_alias, model_path) or when the server serves a single model (whose id that is).
 */
export function contextFromProps(
	reply: unknown,
	model: string,
	servedIds: readonly string[]
): ServerContextWindow | undefined {
	if (!isRecord(reply)) return undefined;
	const settings = reply.default_generation_settings;
	const tokens = positiveInt(isRecord(settings) ? settings.n_ctx : undefined);
	if (!tokens) return undefined;
	const named = reply.model_alias === model || reply.model_path === model;
	if (!named && !(servedIds.length === 1 && servedIds[0] === model)) return undefined;
	return { tokens, source: 'n_ctx in llama-server /props' };
}
