/**
 * The Engine for any OpenAI-compatible server (vLLM, SGLang, llama.cpp, Ollama, hosted APIs), over
 * plain fetch so the same code runs in the browser and in the Node CLI. Raw text goes through
 * /v1/completions (the core renders the chat template itself); the judge uses /v1/chat/completions.
 */
import type {
	CompletionRequest,
	CompletionResult,
	Engine,
	EngineCapabilities,
	JsonChatRequest,
	LoadProgress
} from '../../probe/engine.ts';
import { fingerprintOfServerModel, type ModelFingerprint } from '../../probe/identity.ts';
import { type LimitHints, normalizeBaseUrl, notOpenAIError } from './http.ts';
import { contextFromModels, contextFromProps, type ServerContextWindow } from './contextWindow.ts';
import { fallbackFor, type JsonForm, messagesFor, responseFormat } from './jsonMode.ts';
import { Limiter } from './limit.ts';
import {
	PROPS_TIMEOUT_MS,
	replyMaxBytes,
	type ReplyLimitOptions,
	requestTotalMs,
	SMALL_REPLY_MAX_BYTES
} from './replyLimits.ts';
import { mayServeProps, propsUrl, templateFromProps } from './servedTemplate.ts';
import { requireServed } from './served.ts';
import type { ChatTemplate } from '../../probe/template.ts';
import { SpecialTokenFields, StopTokenIds } from './specialTokens.ts';
import { DEFAULT_RETRIES, sleep as defaultSleep, type Sleep } from '../../net/retry.ts';
import { buildUsage, mapFinish, parseReply, readStream } from './stream.ts';
import { completionFields, samplingFields } from '../requestFields.ts';
import { ServerTransport } from './transport.ts';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RETRIES = DEFAULT_RETRIES;
/**
 * Requests the server gets at once when the caller does not say (the browser's server engine; the
 * CLI passes --concurrency): a browser opens at most six HTTP/1.1 connections per host (Chromium,
 * Firefox, Safari). A server behind an HTTP/2 front end (one connection, many streams) lifts that
 * limit; pass maxConcurrency then.
 */
export const DEFAULT_MAX_CONCURRENCY = 6;
/**
 * Requests the app's browser engine hands fetch beyond those six, to wait in the browser's own
 * queue: when a reply ends, the browser sends the next at once. Sent from the page instead, each
 * waited for the tab to hear of the reply and answer (3 ms at the median on a quiet 2-core
 * machine; the server saw 5.6 of 6 requests at once where the CLI kept 5.85).
 */
export const BROWSER_QUEUED_REQUESTS = 2;
const LIST_RETRIES = 1;

export interface OpenAIEngineOptions {
	/** "http://host:8000" or "http://host:8000/v1"; a missing scheme means http. */
	baseUrl: string;
	/** Sent as "Authorization: Bearer …" only when given; never logged or put in messages. */
	apiKey?: string;
	/** Injected in tests; defaults to the global fetch (browsers, Node ≥ 18). */
	fetch?: typeof fetch;
	/** Longest silence from the server: before the reply starts, or between streamed chunks. */
	timeoutMs?: number;
	/**
	 * Retries after the first attempt, for 429, 5xx, network failures and replies that broke or
	 * stalled mid-stream (retried whole, with the same seed).
	 */
	maxRetries?: number;
	/** Injected in tests so backoff takes no real time. */
	sleep?: Sleep;
	/** Requests the server gets at once; more wait their turn. */
	maxConcurrency?: number;
	/**
	 * Requests handed to fetch beyond maxConcurrency, which wait in fetch's own queue for a
	 * connection: a browser's, over HTTP/1.1, where maxConcurrency is its six per host. Their
	 * deadlines start when they are sent (limit.ts, ConnectionSlots). Default 0: Node's fetch opens
	 * as many connections as it is asked for, so there is no such queue.
	 */
	queuedInBrowser?: number;
	/**
	 * The whole of one completion or judge request, reply included (default: the idle timeout plus
	 * MS_PER_TOKEN per token of max_tokens, replyLimits.ts).
	 */
	requestTimeoutMs?: number;
	/** The size of one streamed completion or judge body (default: per token of max_tokens). */
	maxReplyBytes?: number;
	/** How a person raises those limits (the CLI's flags), said in the errors. */
	limitHints?: LimitHints;
}

export class OpenAIEngine implements Engine {
	readonly name = 'openai';
	/** The normalised API root, ending in /v1. */
	readonly baseUrl: string;
	#io: ServerTransport;
	#timeoutMs: number;
	#limits: ReplyLimitOptions;
	#hints: LimitHints;
	#maxRetries: number;
	#limit: Limiter;
	/** The strongest JSON mode this server accepted; only ever weakens. */
	#jsonForm: JsonForm = 'json_schema';
	/** Whether completions still ask the server to keep special tokens in the text. */
	#specialTokens = new SpecialTokenFields();
	/** On vLLM, the stops that are single tokens, as ids. */
	#stopIds: StopTokenIds;

	/** @throws EngineError('network') when baseUrl is not an http(s) URL. */
	constructor(opts: OpenAIEngineOptions) {
		this.baseUrl = normalizeBaseUrl(opts.baseUrl);
		this.#timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		this.#limits = { requestTimeoutMs: opts.requestTimeoutMs, maxReplyBytes: opts.maxReplyBytes };
		this.#hints = opts.limitHints ?? {};
		this.#maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
		const connections = opts.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY;
		const queued = Math.max(0, Math.floor(opts.queuedInBrowser ?? 0));
		this.#io = new ServerTransport({
			baseUrl: this.baseUrl,
			apiKey: opts.apiKey || undefined,
			// Bound so a browser's fetch is not called with the engine as `this` (an "Illegal invocation").
			fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
			timeoutMs: this.#timeoutMs,
			sleep: opts.sleep ?? defaultSleep,
			hints: this.#hints,
			connections: queued > 0 ? connections : undefined
		});
		this.#limit = new Limiter(connections + queued);
		this.#stopIds = new StopTokenIds(this.baseUrl, (url, signal, body) =>
			this.#io.quietJson(url, signal, body)
		);
	}

	/** How the judge currently asks for JSON (for the run manifest and diagnostics). */
	get jsonForm(): JsonForm {
		return this.#jsonForm;
	}

	capabilities(): EngineCapabilities {
		return {
			json_schema: this.#jsonForm === 'json_schema',
			streaming: true,
			max_concurrency: this.#limit.max,
			// The server decides what is resident; load() only checks the names exist.
			can_co_load: () => true
		};
	}

	/**
	 * The model ids the server serves (GET /v1/models).
	 * @throws EngineError('network' | 'http' | 'timeout') or AbortError.
	 */
	async listModels(signal?: AbortSignal): Promise<string[]> {
		return [...(await this.modelFingerprints(signal)).keys()];
	}

	/**
	 * What GET /v1/models tells of each served model beyond its id (vLLM's root, llama-server's
	 * meta), keyed by id: resume compares it so other weights behind the same id are noticed.
	 * @throws like listModels.
	 */
	async modelFingerprints(signal?: AbortSignal): Promise<Map<string, ModelFingerprint>> {
		// The first contact: a wrong URL or a server that is down should be said at once, not after
		// a full backoff schedule, so only one retry here.
		const reply = await this.#io.retrying(signal, LIST_RETRIES, undefined, async () => {
			const { res, deadline, close } = await this.#io.open('GET', '/models', undefined, signal);
			try {
				return await this.#io.readJson(res, deadline, SMALL_REPLY_MAX_BYTES, 'the list of models');
			} finally {
				close();
			}
		});
		const data =
			typeof reply === 'object' && reply !== null ? (reply as { data?: unknown }).data : undefined;
		if (!Array.isArray(data)) throw notOpenAIError(this.baseUrl, JSON.stringify(reply));
		this.#stopIds.noteModels(reply);
		const out = new Map<string, ModelFingerprint>();
		for (const entry of data) {
			const fp = fingerprintOfServerModel(entry);
			if (typeof fp.id === 'string') out.set(fp.id, fp);
		}
		return out;
	}

	/**
	 * The context window of a served model where the server tells it (vLLM's max_model_len in
	 * /v1/models, llama-server's /props n_ctx); undefined when it does not say or cannot be asked.
	 * One attempt per endpoint, no retries: this only sets a default.
	 * @throws AbortError when `signal` aborts; nothing else.
	 */
	async contextWindow(
		model: string,
		signal?: AbortSignal
	): Promise<ServerContextWindow | undefined> {
		const models = await this.#io.quietJson(`${this.baseUrl}/models`, signal);
		const fromModels = contextFromModels(models, model);
		if (fromModels) return fromModels;
		const data = (models as { data?: unknown } | undefined)?.data;
		const ids = Array.isArray(data)
			? data.map((e) => (e as { id?: unknown } | null)?.id).filter((id) => typeof id === 'string')
			: [];
		if (!mayServeProps(models)) return undefined;
		const props = await this.#io.quietJson(
			propsUrl(this.baseUrl),
			signal,
			undefined,
			PROPS_TIMEOUT_MS
		);
		return contextFromProps(props, model, ids);
	}

	/**
	 * The chat template the server applies, where it serves one (llama-server /props); undefined
	 * when it does not say or cannot be asked. /v1/models is read first: vLLM and SGLang, which
	 * name themselves there, are not asked for a /props they do not have.
	 * @throws TemplateError when the served template is unusable; AbortError when `signal` aborts.
	 */
	async servedTemplate(signal?: AbortSignal): Promise<ChatTemplate | undefined> {
		if (!mayServeProps(await this.#io.quietJson(`${this.baseUrl}/models`, signal)))
			return undefined;
		const url = propsUrl(this.baseUrl);
		return templateFromProps(
			await this.#io.quietJson(url, signal, undefined, PROPS_TIMEOUT_MS),
			url
		);
	}

	/** @throws EngineError('bad_model') naming what is served, or listModels' errors. */
	async load(
		models: string[],
		opts: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {}
	): Promise<void> {
		requireServed(await this.listModels(opts.signal), models, this.baseUrl);
		for (const model of models) opts.onProgress?.({ model, fraction: 1, phase: 'ready' });
	}

	/** Nothing to release: the server owns its models. */
	async unload(): Promise<void> {}

	/**
	 * Stream a raw completion over a rendered prompt. A reply that breaks or stalls mid-stream is
	 * requested again from the start (same seed, so the same text), within the retry budget;
	 * `req.onRetry` tells the caller to drop the deltas it has seen.
	 * @throws AbortError, EngineError('http' | 'network' | 'timeout' | 'context_window').
	 */
	complete(req: CompletionRequest): Promise<CompletionResult> {
		return this.#limit.run(req.signal, async () => {
			for (;;) {
				const ids = this.#specialTokens.sent ? await this.#stopIds.of(req) : [];
				const fields = {
					...this.#specialTokens.fields,
					...(ids.length > 0 ? { stop_token_ids: ids } : {})
				};
				try {
					return await this.#completeOnce(req, fields);
				} catch (err) {
					// A server that rejects the special-token fields gets the request again without.
					if (!this.#specialTokens.refused(err, fields)) throw err;
				}
			}
		});
	}

	#completeOnce(req: CompletionRequest, fields: object): Promise<CompletionResult> {
		const body = { ...completionFields(req), ...fields };
		return this.#io.retrying(req.signal, this.#maxRetries, req.onRetry, async () => {
			const { res, deadline, sentAt, close } = await this.#io.open(
				'POST',
				'/completions',
				body,
				req.signal,
				this.#totalMs(req.max_tokens)
			);
			try {
				return await readStream(res, deadline, this.baseUrl, sentAt, req.onToken, {
					maxBytes: replyMaxBytes(req.max_tokens, this.#limits.maxReplyBytes),
					hints: this.#hints
				});
			} finally {
				close();
			}
		});
	}

	/**
	 * A JSON-constrained chat reply, returned raw (the core parses it tolerantly). Steps down from
	 * json_schema to json_object to a prompt instruction when the server rejects a form.
	 * @throws AbortError, EngineError('http' | 'network' | 'timeout').
	 */
	chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		return this.#limit.run(req.signal, async () => {
			for (;;) {
				const form = this.#jsonForm;
				try {
					return await this.#io.retrying(req.signal, this.#maxRetries, undefined, () =>
						this.#chatOnce(req, form)
					);
				} catch (err) {
					const weaker = fallbackFor(form, err);
					if (!weaker) throw err;
					// Another request may already have stepped down further; never step back up.
					if (this.#jsonForm === form) this.#jsonForm = weaker;
				}
			}
		});
	}

	async #chatOnce(req: JsonChatRequest, form: JsonForm): Promise<CompletionResult> {
		const body: Record<string, unknown> = {
			model: req.model,
			messages: messagesFor(form, req.messages, req.schema),
			...samplingFields(req),
			stream: false
		};
		const format = responseFormat(form, req.schema);
		if (format) body.response_format = format;
		const { res, deadline, sentAt, close } = await this.#io.open(
			'POST',
			'/chat/completions',
			body,
			req.signal,
			this.#totalMs(req.max_tokens)
		);
		try {
			const maxBytes = replyMaxBytes(req.max_tokens, this.#limits.maxReplyBytes);
			const text = await this.#io.readText(res, deadline, maxBytes, "the judge's reply");
			const reply = parseReply(text, this.baseUrl);
			const choice = reply.choices?.[0];
			if (!choice) throw notOpenAIError(this.baseUrl, JSON.stringify(reply));
			const content = choice.message?.content ?? '';
			return {
				text: content,
				finish_reason: mapFinish(choice.finish_reason),
				usage: buildUsage(reply, content ? 1 : 0, { sentAt, endAt: performance.now() })
			};
		} finally {
			close();
		}
	}

	/** One completion or judge request's whole time (replyLimits.ts). */
	#totalMs(maxTokens: number): number {
		return requestTotalMs(this.#timeoutMs, maxTokens, this.#limits.requestTimeoutMs);
	}
}
