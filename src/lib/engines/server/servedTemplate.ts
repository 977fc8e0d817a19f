/**
 * The chat template a server applies, where it says: llama-server answers GET /props with the
 * GGUF's own `chat_template` and its `bos_token` / `eos_token` (tools/server, handle_props). vLLM,
 * SGLang, Ollama and hosted APIs have no /props, so there it stays unknown and set-up asks for a
 * repo, URL or file. Pure: the engine fetches, this reads.
 */
import type { ChatTemplate } from '../../probe/template.ts';

/** The server's /props beside its /v1 root ("http://host:8080/v1" → "http://host:8080/props"). */
export function propsUrl(v1Root: string): string {
	return `${v1Root.replace(/\/v1$/, '')}/props`;
}

/** The owners vLLM and SGLang give each model in GET /v1/models: servers with no /props. */
const NO_PROPS_OWNERS: ReadonlySet<string> = new Set(['vllm', 'sglang']);

/**
 * Whether /props is worth asking, by the server's GET /v1/models reply: not when it names itself
 * vLLM or SGLang (they answer 404, which a browser logs as an error); yes otherwise, since
 * llama-server and unknown servers may serve it.
 */
export function mayServeProps(modelsReply: unknown): boolean {
	const data = (modelsReply as { data?: unknown } | null | undefined)?.data;
	if (!Array.isArray(data)) return true;
	return !data.some((e) =>
		NO_PROPS_OWNERS.has((e as { owned_by?: unknown } | null)?.owned_by as string)
	);
}

function text(x: unknown): string | null {
	return typeof x === 'string' && x !== '' ? x : null;
}

/**
 * The template in a /props reply, validated and hashed like any other, marked with where it came
 * from; undefined when the reply carries none.
 * @throws TemplateError when the served template cannot render a probe exchange.
 */
export async function templateFromProps(
	reply: unknown,
	url: string
): Promise<ChatTemplate | undefined> {
	if (typeof reply !== 'object' || reply === null) return undefined;
	const r = reply as Record<string, unknown>;
	const source = text(r.chat_template);
	if (!source) return undefined;
	// The template checks (Jinja) load when a server serves a template, not with the server engine,
	// which set-up holds before it paints.
	const { templateFromFile } = await import('../../probe/templateSource.ts');
	const t = await templateFromFile(source, {
		bos_token: text(r.bos_token),
		eos_token: text(r.eos_token)
	});
	t.server = url;
	return t;
}
