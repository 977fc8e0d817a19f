/**
 * Asking a server to return special tokens as text. vLLM and SGLang decode with
 * `skip_special_tokens: true` by default and match `stop` strings on the decoded text, so without
 * these fields gpt-oss's channel tags and GLM's role tags vanish from replies and the stops that
 * are special tokens ("<|end|>", "<|assistant|>") never match. `spaces_between_special_tokens:
 * false` keeps them from being padded with spaces ("<|end|> <|start|>"), which would put spaces
 * into the markup the probe reads. llama-server returns special tokens anyway and Ollama ignores
 * fields it does not know; hosted APIs that reject unknown fields get the request again without
 * them (the markup check in the core then says whether the model can run there).
 *
 * On vLLM and SGLang the stops that are single special tokens also go as `stop_token_ids` (their ids
 * from the server's own tokenize route), so a turn ends on the token itself, whatever the decoded
 * text looks like.
 */
import type { CompletionRequest } from '../../probe/engine.ts';
import { HttpError } from './http.ts';

/** The request fields, as vLLM's and SGLang's sampling parameters name them. */
export const KEEP_SPECIAL_TOKENS = {
	skip_special_tokens: false,
	spaces_between_special_tokens: false
} as const;

/** The field for stops given as token ids, sent only to a server known to take it. */
const STOP_TOKEN_IDS = 'stop_token_ids';
const FIELD_NAMES = [...Object.keys(KEEP_SPECIAL_TOKENS), STOP_TOKEN_IDS];

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

function isRecord(x: unknown): x is Record<string, unknown> {
	return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * The servers that take `stop_token_ids`, by the owner they give each model in GET /v1/models, and
 * where each tokenizes a string (relative to the server's root): vLLM at POST /tokenize, SGLang at
 * POST /v1/tokenize. Both take `{ model, prompt, add_special_tokens }` and answer `{ tokens }`.
 */
const TOKENIZE_ROUTES: Readonly<Record<string, string>> = {
	vllm: '/tokenize',
	sglang: '/v1/tokenize'
};

/** Where the server that gave this GET /v1/models reply tokenizes, or undefined when unknown. */
export function tokenizeRouteOf(reply: unknown): string | undefined {
	const data = isRecord(reply) ? reply.data : undefined;
	if (!Array.isArray(data)) return undefined;
	for (const e of data) {
		const owner = isRecord(e) ? e.owned_by : undefined;
		if (typeof owner === 'string' && Object.hasOwn(TOKENIZE_ROUTES, owner)) {
			return TOKENIZE_ROUTES[owner];
		}
	}
	return undefined;
}

/** The one id a tokenize route gives a stop string, or undefined when it is not one token. */
export function singleTokenId(reply: unknown): number | undefined {
	const tokens = isRecord(reply) ? reply.tokens : undefined;
	return Array.isArray(tokens) && tokens.length === 1 && Number.isInteger(tokens[0])
		? (tokens[0] as number)
		: undefined;
}

/** GET `url` (or POST `body` to it) as JSON; undefined on any failure but an abort. */
export type QuietJson = (url: string, signal?: AbortSignal, body?: unknown) => Promise<unknown>;

/**
 * vLLM and SGLang: the ids of the stops that are one token each ("<|end|>"), from the server's
 * tokenize route, asked once per model and stop list. [] on other servers, or when the server
 * cannot say. Which server it is comes from the /v1/models reply the engine reads anyway when it
 * loads (noteModels), so no other server gets a request it did not ask for.
 */
export class StopTokenIds {
	#apiRoot: string;
	#get: QuietJson;
	/** Where the server said (by its /v1/models reply) it tokenizes; undefined for other servers. */
	#route: string | undefined;
	#ids = new Map<string, number[]>();

	/** @param apiRoot the engine's normalised base URL, ending in /v1. */
	constructor(apiRoot: string, get: QuietJson) {
		this.#apiRoot = apiRoot;
		this.#get = get;
	}

	/** Read which server this is off its GET /v1/models reply. */
	noteModels(reply: unknown): void {
		this.#route = tokenizeRouteOf(reply);
	}

	/** @throws AbortError when the request's signal aborts. */
	async of(req: Pick<CompletionRequest, 'model' | 'stop' | 'signal'>): Promise<number[]> {
		const route = this.#route;
		if (req.stop.length === 0 || route === undefined) return [];
		const key = JSON.stringify([req.model, req.stop]);
		let ids = this.#ids.get(key);
		if (ids === undefined) {
			const tokenize = `${this.#apiRoot.replace(/\/v1$/, '')}${route}`;
			const found = await Promise.all(
				req.stop.map(async (prompt) => {
					const body = { model: req.model, prompt, add_special_tokens: false };
					return singleTokenId(await this.#get(tokenize, req.signal, body));
				})
			);
			ids = found.filter((id): id is number => id !== undefined);
			this.#ids.set(key, ids);
		}
		return ids;
	}
}
