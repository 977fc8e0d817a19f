/**
 * Where the app gets a run's chat template: a Hugging Face repo (through the Dexie template cache,
 * so a second run needs no network), a URL, or a file the user picked. The cache stores a minimal
 * tokenizer_config.json ({chat_template, bos_token, eos_token}), because a template without its
 * special tokens would lose the stop strings the probe needs.
 */
import type { TemplateCache } from '../db/caches.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { FetchLike } from '../net/fetch.ts';
import type { Sleep } from '../net/retry.ts';
import { AbortError } from '../errors/appError.ts';
import {
	fetchChatTemplate,
	fetchFailure,
	getTemplateText,
	parseTokenizerConfig,
	templateFromFile,
	type TemplateSpec,
	type TemplateTokens
} from '../probe/templateSource.ts';
import { TemplateError } from '../probe/template.ts';

export type { TemplateSpec, TemplateTokens } from '../probe/templateSource.ts';

export interface TemplateDeps {
	fetch: FetchLike;
	/** Between retries of a failed fetch; the shared abortable sleep when not given (tests). */
	sleep?: Sleep;
	/**
	 * A template that ships with the app for this repo (no network); tried before the cache and the
	 * Hub for every repo of a 'repo' spec.
	 */
	shipped?: (repo: string) => Promise<ChatTemplate | undefined>;
	/** The template the server applies (llama-server /props); undefined when it serves none. */
	served?: (server: { baseUrl: string; apiKey?: string }) => Promise<ChatTemplate | undefined>;
	cache?: TemplateCache;
	signal?: AbortSignal;
	now?: () => Date;
	/** A model mirror's base to read repos' tokenizer_config.json from instead of the Hub. */
	hfBase?: string;
}

/**
 * @throws TemplateError when no template is found or it cannot render a probe exchange; the
 * caller's AbortError as is.
 */
export async function loadTemplate(spec: TemplateSpec, deps: TemplateDeps): Promise<ChatTemplate> {
	switch (spec.kind) {
		case 'repo':
			return loadFromRepos(spec.repos, deps);
		case 'url': {
			let text: string;
			try {
				text = await getTemplateText(spec.url, deps);
			} catch (err) {
				if (err instanceof AbortError || deps.signal?.aborted) throw err;
				throw new TemplateError(`${spec.url}: ${fetchFailure(err)}`, { cause: err });
			}
			return fromText(text, spec.url, spec, deps.signal);
		}
		case 'file':
			return fromText(spec.text, spec.name, spec, deps.signal);
		case 'gguf':
			return loadFromGguf(spec.url, deps);
		case 'server':
			return loadServerTemplate(spec, deps);
	}
}

/**
 * What the server really applies comes first (llama-server /props), then the repos'. Only reached
 * when the user chose no template: a chosen one always wins.
 * @throws TemplateError when neither gives one.
 */
export async function loadServerTemplate(
	spec: Extract<TemplateSpec, { kind: 'server' }>,
	deps: TemplateDeps
): Promise<ChatTemplate> {
	const served = await deps.served?.(spec);
	if (served) return served;
	if (spec.repos.length > 0) return loadFromRepos(spec.repos, deps);
	throw new TemplateError(
		'No chat template: the server does not serve one (llama-server does, at /props) and the model id is not a Hugging Face repo.',
		{ missing: true }
	);
}

/** Cached under the file's URL, so a second run (or a resume) reads no header again. */
async function loadFromGguf(url: string, deps: TemplateDeps): Promise<ChatTemplate> {
	const hit = await deps.cache?.get(url);
	if (hit) {
		try {
			return await decodeTemplate(hit.template, url);
		} catch {
			// A stale entry: read the header again below.
		}
	}
	const { templateFromGguf } = await import('./ggufTemplate.ts');
	const t = await templateFromGguf(url, {
		fetch: deps.fetch as unknown as typeof fetch,
		signal: deps.signal
	});
	await putTemplate(deps.cache, url, t, deps.now);
	return t;
}

/**
 * A JSON object is a tokenizer_config.json; anything else is Jinja source. Templates start with
 * "{%" or "{{" too, so only a parse tells the two apart.
 */
async function fromText(
	text: string,
	name: string,
	tokens: TemplateTokens,
	signal: AbortSignal | undefined
): Promise<ChatTemplate> {
	if (/\.json(\?|$)/i.test(name) || isJsonObject(text)) {
		const t = await parseTokenizerConfig(text, name, signal);
		// A tokenizer_config is named after its repo by the parser; a file has none.
		delete t.repo;
		return t;
	}
	return templateFromFile(
		text,
		{ bos_token: tokens.bos_token || null, eos_token: tokens.eos_token || null },
		signal
	);
}

function isJsonObject(text: string): boolean {
	if (!text.trimStart().startsWith('{')) return false;
	try {
		const v: unknown = JSON.parse(text);
		return typeof v === 'object' && v !== null && !Array.isArray(v);
	} catch {
		return false;
	}
}

/** Each repo's shipped template, then the cache, then the Hub. */
export async function loadFromRepos(repos: string[], deps: TemplateDeps): Promise<ChatTemplate> {
	const wanted = repos.filter((r) => r.trim() !== '');
	for (const repo of wanted) {
		const t = await deps.shipped?.(repo);
		if (t) return t;
	}
	for (const repo of wanted) {
		const hit = await deps.cache?.get(repo);
		if (hit) {
			try {
				return await decodeTemplate(hit.template, repo);
			} catch {
				// A stale or corrupt entry: fetch afresh below and overwrite it.
			}
		}
	}
	const t = await fetchChatTemplate({
		repos: wanted,
		hfBase: deps.hfBase,
		fetch: deps.fetch,
		signal: deps.signal,
		sleep: deps.sleep
	});
	if (t.repo) await putTemplate(deps.cache, t.repo, t, deps.now);
	return t;
}

/** Store a template under any key (a repo, or a run's own key). */
export async function putTemplate(
	cache: TemplateCache | undefined,
	key: string,
	t: ChatTemplate,
	now: () => Date = () => new Date()
): Promise<void> {
	await cache?.put({
		repo: key,
		template: encodeTemplate(t),
		sha256: t.sha256 ?? '',
		fetched_at: now().toISOString()
	});
}

/** A ChatTemplate as a minimal tokenizer_config.json, plus the fields the parser does not know. */
export function encodeTemplate(t: ChatTemplate): string {
	return JSON.stringify({
		chat_template: t.source,
		bos_token: t.bos_token,
		eos_token: t.eos_token,
		// Absent stays absent, so a template read back equals the one stored.
		extra_stop_tokens: t.extra_stop_tokens,
		repo: t.repo ?? null
	});
}

/**
 * The inverse of encodeTemplate. The template is validated and hashed again, so a cache entry can
 * never hand the pipeline a template that does not render.
 * @throws TemplateError when the stored text is not a usable template.
 */
export async function decodeTemplate(json: string, label: string): Promise<ChatTemplate> {
	const t = await parseTokenizerConfig(json, label);
	const extra = JSON.parse(json) as { extra_stop_tokens?: unknown; repo?: unknown };
	if (Array.isArray(extra.extra_stop_tokens)) {
		t.extra_stop_tokens = extra.extra_stop_tokens.filter((s): s is string => typeof s === 'string');
	}
	if (typeof extra.repo === 'string') t.repo = extra.repo;
	else delete t.repo;
	return t;
}
