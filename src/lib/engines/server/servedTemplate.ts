/**
 * The chat template a server applies, where it says: llama-server answers GET /props with the
 * GGUF's own `chat_template` and its `bos_token` / `eos_token` (tools/server, handle_props). vLLM,
 * SGLang, Ollama and hosted APIs have no /props, so there it stays unknown and set-up asks for a
 * repo, URL or file. Pure: the engine fetches, this reads.
 */
import { templateFromFile } from '../../probe/templateSource.ts';
import type { ChatTemplate } from '../../probe/template.ts';

/** The server's /props beside its /v1 root ("http://host:8080/v1" → "http://host:8080/props"). */
export function propsUrl(v1Root: string): string {
	return `${v1Root.replace(/\/v1$/, '')}/props`;
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
	const t = await templateFromFile(source, {
		bos_token: text(r.bos_token),
		eos_token: text(r.eos_token)
	});
	t.server = url;
	return t;
}
