/**
 * Asking a server to return special tokens as text. vLLM and SGLang decode with
 * `skip_special_tokens: true` by default and match `stop` strings on the decoded text, so without
 * these fields gpt-oss's channel tags and GLM's role tags vanish from replies and the stops that
 * are special tokens ("<|end|>", "<|assistant|>") never match. `spaces_between_special_tokens:
 * false` keeps them from being padded with spaces ("<|end|> <|start|>"), which would put spaces
 * into the markup the probe reads. llama-server returns special tokens anyway and Ollama ignores
 * fields it does not know; hosted APIs that reject unknown fields get the request again without
 * them (the markup check in the core then says whether the model can run there).
 */
import { HttpError } from './retry.ts';

/** The request fields, as vLLM's and SGLang's sampling parameters name them. */
export const KEEP_SPECIAL_TOKENS = {
	skip_special_tokens: false,
	spaces_between_special_tokens: false
} as const;

const FIELD_NAMES = Object.keys(KEEP_SPECIAL_TOKENS);

/**
 * Whether `err` is a server refusing one of the fields: a 400 or 422 whose message names it, as
 * OpenAI's "Unrecognized request argument supplied: skip_special_tokens" does.
 */
export function refusesSpecialTokenFields(err: unknown): boolean {
	if (!(err instanceof HttpError) || (err.status !== 400 && err.status !== 422)) return false;
	return FIELD_NAMES.some((name) => err.message.includes(name));
}

/** Per engine: send the fields until the server refuses them once, then never again. */
export class SpecialTokenFields {
	#sent = true;

	/** The fields to merge into a /v1/completions body; {} once refused. */
	get fields(): Partial<typeof KEEP_SPECIAL_TOKENS> {
		return this.#sent ? KEEP_SPECIAL_TOKENS : {};
	}

	/** Whether the server takes them, as far as a request has shown (true until refused). */
	get sent(): boolean {
		return this.#sent;
	}

	/**
	 * True, and the fields are dropped from now on, when `err` refuses the `fields` a request sent
	 * (requests in flight together may each be refused; every one of them is worth sending again).
	 */
	refused(err: unknown, fields: object): boolean {
		if (Object.keys(fields).length === 0 || !refusesSpecialTokenFields(err)) return false;
		this.#sent = false;
		return true;
	}
}
