/**
 * How the judge asks a server for JSON. Servers differ: vLLM, llama.cpp and recent Ollama take
 * OpenAI's `json_schema` response format; older ones only `json_object`; some take neither. The
 * engine starts at the strictest form and steps down once per rejection, remembering the result.
 */
import type { ChatMessage } from '../../probe/types.ts';
import { HttpError } from './http.ts';

export const JSON_FORMS = ['json_schema', 'json_object', 'prompt'] as const;
export type JsonForm = (typeof JSON_FORMS)[number];

/** The 400 an older server gives for a response_format it does not know. */
const REJECTS_FORMAT = /response_format|json_schema|json_object|structured output|guided/i;

/** The next weaker form when `err` says the server refused this one; undefined otherwise. */
export function fallbackFor(form: JsonForm, err: unknown): JsonForm | undefined {
	if (!(err instanceof HttpError) || (err.status !== 400 && err.status !== 422)) return undefined;
	if (!REJECTS_FORMAT.test(err.message)) return undefined;
	return JSON_FORMS[JSON_FORMS.indexOf(form) + 1];
}

export function responseFormat(
	form: JsonForm,
	schema: Record<string, unknown>
): Record<string, unknown> | undefined {
	if (form === 'json_schema') {
		return { type: 'json_schema', json_schema: { name: 'judgment', schema, strict: true } };
	}
	if (form === 'json_object') return { type: 'json_object' };
	return undefined;
}

/**
 * Forms that cannot enforce the schema put it in the system prompt instead (OpenAI's json_object
 * mode also insists the word JSON appears in the messages).
 */
export function messagesFor(
	form: JsonForm,
	messages: ChatMessage[],
	schema: Record<string, unknown>
): ChatMessage[] {
	if (form === 'json_schema') return messages;
	const instruction =
		'Answer with only a JSON object that matches this JSON Schema, with no other text:\n' +
		JSON.stringify(schema);
	const [first, ...rest] = messages;
	if (first?.role === 'system') {
		return [{ role: 'system', content: `${first.content}\n\n${instruction}` }, ...rest];
	}
	return [{ role: 'system', content: instruction }, ...messages];
}
