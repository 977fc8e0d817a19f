/**
 * Where chat templates come from at run time: a model repo's tokenizer_config.json on the Hugging
 * Face Hub, or a .jinja file the user provides. The network is injected, so the browser, the CLI
 * and the tests (a stub) share this code. We never guess a template: the probe's whole point is the
 * model's own user-role header, so a missing template is an error that names every place we looked.
 */
import { AbortError } from '../errors/appError.ts';
import type { FetchLike } from '../net/fetch.ts';
import { HttpStatusError, httpGet } from '../net/httpGet.ts';
import type { Sleep } from '../net/retry.ts';
import { TemplateError, validateTemplate, type ChatTemplate } from './template.ts';
import { templateChecker } from './templateChecker.ts';

/** Special tokens a bare .jinja file cannot carry; the user may type them. */
export interface TemplateTokens {
	bos_token?: string;
	eos_token?: string;
}

export type TemplateSpec =
	/** Tried in order; the first repo with a template wins. */
	| { kind: 'repo'; repos: string[] }
	| ({ kind: 'url'; url: string } & TemplateTokens)
	| ({ kind: 'file'; name: string; text: string } & TemplateTokens)
	/** A GGUF file's own metadata (bring-your-own CPU model): only its header is fetched. */
	| { kind: 'gguf'; url: string }
	/**
	 * The template the server at `baseUrl` applies (llama-server /props), else the repos' in
	 * order. `apiKey` is used for the request only.
	 */
	| { kind: 'server'; baseUrl: string; apiKey?: string; repos: string[] };

export const HF_BASE_URL = 'https://huggingface.co';

interface TokenizerFields {
	template: string | null;
	bos_token: string | null;
	eos_token: string | null;
}

/**
 * Read a tokenizer_config.json. `chat_template` may be a string or a list of named templates (the
 * "default" one is used); bos/eos may be strings or `{ content }` objects.
 * @throws TemplateError when the JSON is malformed, has no usable chat_template, or the template
 * cannot render a user/assistant/user exchange.
 */
export async function parseTokenizerConfig(
	json: string,
	repo: string,
	signal?: AbortSignal
): Promise<ChatTemplate> {
	const fields = readTokenizerConfig(json, repo);
	if (fields.template === null) {
		throw new TemplateError(`${repo}: tokenizer_config.json has no chat_template`);
	}
	return finish(fields.template, fields.bos_token, fields.eos_token, repo, signal);
}

/** How a template file is fetched: the network, the caller's signal, and the retry wait (tests). */
export interface TemplateFetch {
	fetch: FetchLike;
	signal?: AbortSignal;
	/** Between retries; the shared abortable sleep when not given. */
	sleep?: Sleep;
}

/**
 * GET a template file with the shared retry policy (net/httpGet.ts): the Hub's 429 and 5xx are
 * tried again after its Retry-After or the backoff, a dropped connection once more.
 * @throws HttpStatusError, HttpNoAnswerError or HttpDeadlineError; AbortError when `signal` aborts.
 */
export function getTemplateText(url: string, opts: TemplateFetch): Promise<string> {
	return httpGet(url, opts, (res) => res.text());
}

/** Why a template fetch failed, in a line ("HTTP 404", "no answer from huggingface.co …"). */
export function fetchFailure(err: unknown): string {
	if (err instanceof HttpStatusError) {
		return err.exhausted ? `HTTP ${err.status} on every attempt` : `HTTP ${err.status}`;
	}
	return err instanceof Error ? err.message : String(err);
}

/**
 * Try each repo in order (e.g. the MLC build first, then the original model) and return the first
 * chat template found: in tokenizer_config.json, or beside it in chat_template.jinja (where newer
 * transformers versions save it).
 * @throws TemplateError naming every URL tried and why it failed; the caller's AbortError as is.
 */
export async function fetchChatTemplate(
	opts: TemplateFetch & { repos: string[]; hfBase?: string }
): Promise<ChatTemplate> {
	const base = (opts.hfBase ?? HF_BASE_URL).replace(/\/+$/, '');
	const tried: string[] = [];
	const get = async (url: string): Promise<string | null> => {
		try {
			return await getTemplateText(url, opts);
		} catch (err) {
			// Cancelling is the caller's decision, not a reason to try the next repo.
			if (err instanceof AbortError || opts.signal?.aborted) throw err;
			tried.push(`${url}: ${fetchFailure(err)}`);
		}
		return null;
	};
	for (const repo of opts.repos) {
		const url = `${base}/${repo}/resolve/main/tokenizer_config.json`;
		const json = await get(url);
		if (json === null) continue;
		let at = url;
		try {
			const fields = readTokenizerConfig(json, repo);
			if (fields.template !== null) {
				return await finish(fields.template, fields.bos_token, fields.eos_token, repo, opts.signal);
			}
			tried.push(`${url}: no chat_template`);
			at = `${base}/${repo}/resolve/main/chat_template.jinja`;
			const source = await get(at);
			if (source !== null) {
				return await finish(source, fields.bos_token, fields.eos_token, repo, opts.signal);
			}
		} catch (err) {
			if (!(err instanceof TemplateError)) throw err;
			tried.push(`${at}: ${err.message}`);
		}
	}
	const list =
		tried.length > 0 ? tried.map((t) => `\n- ${t}`).join('') : ' (no repositories given)';
	throw new TemplateError(`No chat template found. Tried:${list}`, { missing: true });
}

/**
 * A user-provided .jinja file. Its special tokens are not in the file, so the caller supplies them.
 * @throws TemplateError when the template does not parse or cannot render a probe exchange.
 */
export async function templateFromFile(
	source: string,
	tokens: { bos_token?: string | null; eos_token?: string | null },
	signal?: AbortSignal
): Promise<ChatTemplate> {
	return finish(source, tokens.bos_token ?? null, tokens.eos_token ?? null, undefined, signal);
}

async function finish(
	source: string,
	bos_token: string | null,
	eos_token: string | null,
	repo: string | undefined,
	signal: AbortSignal | undefined
): Promise<ChatTemplate> {
	const t: ChatTemplate = { source, bos_token, eos_token };
	// In a shell's worker when it installed one: a runaway template can then be stopped.
	const check = templateChecker();
	if (check) await check(t, signal);
	else validateTemplate(t);
	t.sha256 = await sha256Hex(source);
	if (repo !== undefined) t.repo = repo;
	return t;
}

function readTokenizerConfig(json: string, repo: string): TokenizerFields {
	let config: unknown;
	try {
		config = JSON.parse(json);
	} catch (err) {
		throw new TemplateError(`${repo}: tokenizer_config.json is not valid JSON`, { cause: err });
	}
	if (!isRecord(config)) throw new TemplateError(`${repo}: tokenizer_config.json is not an object`);
	return {
		template: pickTemplate(config.chat_template, repo),
		bos_token: tokenText(config.bos_token),
		eos_token: tokenText(config.eos_token)
	};
}

function pickTemplate(value: unknown, repo: string): string | null {
	if (value === undefined || value === null) return null;
	if (typeof value === 'string') return value;
	if (Array.isArray(value)) {
		const named = value.filter(isRecord);
		const found = named.find((entry) => entry.name === 'default');
		if (found && typeof found.template === 'string') return found.template;
		const names = named.map((entry) => JSON.stringify(entry.name)).join(', ');
		throw new TemplateError(`${repo}: chat_template lists no "default" template (has ${names})`);
	}
	throw new TemplateError(`${repo}: chat_template is neither text nor a list of named templates`);
}

/** Special tokens are a string, an AddedToken-style `{ content }`, or absent. */
function tokenText(value: unknown): string | null {
	if (typeof value === 'string') return value;
	if (isRecord(value) && typeof value.content === 'string') return value.content;
	return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** crypto.subtle exists in browsers and Node 20 alike, so the manifest hash is the same in both. */
async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
	return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}
