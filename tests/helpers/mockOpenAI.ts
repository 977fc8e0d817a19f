/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 driven by the shared scripted brain, so the
 * OpenAI engine is tested over actual sockets, SSE framing and CORS, and the browser e2e tests can
 * point the app at it. Text equals the scripted engine's for the same request (applyScript).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatMessage } from '../../src/lib/probe/types.ts';
import {
	applyScript,
	defaultScript,
	type ScriptFn,
	type ScriptRequest,
	type ScriptedReply
} from './script.ts';
import { tokenIds, vllmGenerate, type VllmModel } from './vllmDecode.ts';

export type MockFailure =
	| { status: number; body?: string; retryAfter?: string }
	| { hang: true }
	| { garbageJson: true }
	| MidStreamFault
	| MidStreamError;

/**
 * A reply that starts well (200, `afterTokens` tokens) and then goes wrong: the connection is
 * reset, one event arrives mangled (the rest of the stream follows normally), or the server
 * stalls without ending the reply. A non-streamed reply fails the same way before its body.
 */
export interface MidStreamFault {
	midStream: 'reset' | 'malformed' | 'stall';
	afterTokens: number;
}

/**
 * llama-server when its KV cache fills during generation (parallel slots on a shared context):
 * a stream sends `afterTokens` tokens, then an error event and no [DONE]; a non-streamed
 * request gets HTTP 500 with the same error body.
 */
export interface MidStreamError {
	midStreamError: string;
	afterTokens?: number;
	legacyErrorField?: boolean;
}

export interface MockRequest {
	path: string;
	body: unknown;
	headers: Record<string, string | string[] | undefined>;
	/** performance.now() when its body had arrived. */
	receivedAt: number;
	/** performance.now() when its reply ended or its connection closed; unset while open. */
	endedAt?: number;
}

/** One streamed (or delayed) reply, to assert that the server stopped when the client left. */
export interface MockStream {
	path: string;
	tokensPlanned: number;
	tokensSent: number;
	outcome: 'streaming' | 'done' | 'disconnected';
}

export interface MockOpenAI {
	/** http://127.0.0.1:PORT (no /v1). */
	url: string;
	requests: MockRequest[];
	streams: MockStream[];
	setScript(s: ScriptFn): void;
	setModels(ids: string[]): void;
	/** Extra fields of a model's /v1/models entry, as real servers add (vLLM: root, parent). */
	modelFields: Record<string, Record<string, unknown>>;
	/** Delay before each streamed token (and per token before a non-streamed reply). */
	tokenDelayMs: number;
	/** Extra delay before a reply's first token, as a server's prompt processing takes. */
	firstTokenDelayMs: number;
	/** The next request (any path but OPTIONS) fails this way; failures queue up. */
	enqueueFailure(f: MockFailure): void;
	/**
	 * A standing fault schedule, asked for every request the queue does not cover: `n` counts
	 * requests from 0 (OPTIONS excluded). E.g. reset every third completion.
	 */
	faultPlan?: (n: number, req: MockRequest) => MockFailure | undefined;
	/** Answer 400 to response_format json_schema, like an older server. */
	rejectJsonSchema: boolean;
	close(): Promise<void>;
}

/** Where llama-server differs from OpenAI in ways clients must handle (tools/server/server.cpp). */
export interface LlamaServerFlavour {
	/** GGUF path given with -m: /v1/models lists it as the id unless an alias is given. */
	modelPath: string;
	/** --alias */
	alias?: string;
	/** Tokens per slot (-c / -np); a longer prompt gets HTTP 400 exceed_context_size_error. */
	contextSize?: number;
	/**
	 * The GGUF's chat template and special tokens, served in /props. Absent: the GGUF has none and,
	 * as llama-server does then, /props serves its ChatML fallback.
	 */
	chatTemplate?: { source: string; bos_token?: string; eos_token?: string };
}

/** llama.cpp's ChatML template, which llama-server applies (and serves) when a GGUF carries none. */
export const LLAMA_CPP_CHATML_FALLBACK =
	"{%- for message in messages -%}\n  {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' -}}\n{%- endfor -%}\n{%- if add_generation_prompt -%}\n  {{- '<|im_start|>assistant\\n' -}}\n{%- endif -%}";

/** llama-server's error for a prompt that does not fit the slot's context (its exact wording). */
export function exceedContextSizeBody(promptTokens: number, contextSize: number): string {
	return JSON.stringify({
		error: {
			code: 400,
			message: `request (${promptTokens} tokens) exceeds the available context size (${contextSize} tokens), try increasing it`,
			type: 'exceed_context_size_error',
			n_prompt_tokens: promptTokens,
			n_ctx: contextSize
		}
	});
}

/** llama-server's error when the KV cache fills during generation. */
export const CONTEXT_EXCEEDED_MESSAGE = 'Context size has been exceeded.';

/**
 * Where vLLM and SGLang differ from a text pipe (vllmDecode.ts): special tokens are dropped from
 * /v1/completions text unless the request sends `skip_special_tokens: false`, stop strings match
 * that text, EOS and `stop_token_ids` end generation. vLLM lists `max_model_len` and `root` in
 * /v1/models and serves POST /tokenize; SGLang lists `owned_by: "sglang"` and serves
 * GET /get_model_info and POST /v1/tokenize (the same `{ count, max_model_len, tokens }` reply). Both ignore request fields they do not know (vLLM logs them).
 */
export interface VllmFlavour extends VllmModel {
	server: 'vllm' | 'sglang';
	maxModelLen?: number;
}

/** OpenAI's own /v1/completions fields: a strict hosted API refuses any other with a 400. */
const OPENAI_COMPLETION_FIELDS = new Set([
	'model',
	'prompt',
	'best_of',
	'echo',
	'frequency_penalty',
	'logit_bias',
	'logprobs',
	'max_tokens',
	'n',
	'presence_penalty',
	'seed',
	'stop',
	'stream',
	'stream_options',
	'suffix',
	'temperature',
	'top_p',
	'user'
]);

export interface MockOpenAIOptions {
	/** Answer like llama-server: model id, context limit, `timings` beside usage. */
	llamaServer?: LlamaServerFlavour;
	/** Answer like vLLM or SGLang: special tokens dropped by default, stops matched on the text. */
	vllm?: VllmFlavour;
	/**
	 * Refuse /v1/completions fields OpenAI does not define, as OpenAI does (400 "Unrecognized
	 * request argument supplied: …"); other hosted APIs word it differently but refuse alike.
	 */
	rejectUnknownFields?: boolean;
	script?: ScriptFn;
	models?: string[];
	port?: number;
	/** When set, requests without "Authorization: Bearer <apiKey>" get 401 (like vLLM --api-key). */
	apiKey?: string;
}

export const DEFAULT_MOCK_MODELS = ['mock-model'];

const CORS_HEADERS = {
	'Access-Control-Allow-Origin': '*',
	'Access-Control-Allow-Headers': 'Authorization, Content-Type',
	'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
	'Access-Control-Max-Age': '600'
};

interface GenerationBody {
	skip_special_tokens?: unknown;
	spaces_between_special_tokens?: unknown;
	stop_token_ids?: unknown;
	model?: unknown;
	prompt?: unknown;
	messages?: unknown;
	temperature?: unknown;
	seed?: unknown;
	max_tokens?: unknown;
	stop?: unknown;
	stream?: unknown;
	stream_options?: { include_usage?: unknown };
	response_format?: { type?: unknown };
}

const num = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function stopList(stop: unknown): string[] {
	if (typeof stop === 'string') return [stop];
	return Array.isArray(stop) ? stop.filter((s): s is string => typeof s === 'string') : [];
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}): void {
	res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
	res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message: string, type: string): void {
	sendJson(res, status, { error: { message, type, param: null, code: status } });
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

class MockServer implements MockOpenAI {
	url = '';
	requests: MockRequest[] = [];
	streams: MockStream[] = [];
	tokenDelayMs = 0;
	firstTokenDelayMs = 0;
	rejectJsonSchema = false;
	modelFields: Record<string, Record<string, unknown>> = {};
	faultPlan?: (n: number, req: MockRequest) => MockFailure | undefined;
	#script: ScriptFn;
	#models: string[];
	#apiKey?: string;
	#failures: MockFailure[] = [];
	#llama?: LlamaServerFlavour;
	#vllm?: VllmFlavour;
	#strict: boolean;
	#server = createServer((req, res) => {
		this.#handle(req, res).catch((err: unknown) => {
			if (!res.headersSent) sendError(res, 500, String(err), 'mock_crash');
			else res.destroy();
		});
	});

	constructor(opts: MockOpenAIOptions) {
		this.#script = opts.script ?? defaultScript;
		this.#llama = opts.llamaServer;
		this.#vllm = opts.vllm;
		this.#strict = opts.rejectUnknownFields ?? false;
		this.#models = opts.llamaServer
			? [opts.llamaServer.alias ?? opts.llamaServer.modelPath]
			: (opts.models ?? DEFAULT_MOCK_MODELS);
		this.#apiKey = opts.apiKey;
	}

	async listen(port: number): Promise<void> {
		await new Promise<void>((resolve, reject) => {
			this.#server.once('error', reject);
			this.#server.listen(port, '127.0.0.1', () => resolve());
		});
		const { port: bound } = this.#server.address() as AddressInfo;
		this.url = `http://127.0.0.1:${bound}`;
	}

	setScript(s: ScriptFn): void {
		this.#script = s;
	}

	setModels(ids: string[]): void {
		this.#models = [...ids];
	}

	enqueueFailure(f: MockFailure): void {
		this.#failures.push(f);
	}

	close(): Promise<void> {
		// Hung and streaming requests would otherwise keep close() waiting forever.
		this.#server.closeAllConnections();
		return new Promise((resolve) => this.#server.close(() => resolve()));
	}

	async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
		res.on('error', () => {});
		if (req.method === 'OPTIONS') {
			// Chrome's Private Network Access preflight asks for this extra opt-in.
			if (req.headers['access-control-request-private-network']) {
				res.setHeader('Access-Control-Allow-Private-Network', 'true');
			}
			res.writeHead(204).end();
			return;
		}
		const path = new URL(req.url ?? '/', 'http://mock').pathname;
		const raw = await readBody(req);
		let body: unknown = raw === '' ? undefined : raw;
		try {
			if (raw !== '') body = JSON.parse(raw);
		} catch {
			// Recorded as text; POST handlers answer 400 below.
		}
		const request: MockRequest = {
			path,
			body,
			headers: { ...req.headers },
			receivedAt: performance.now()
		};
		res.on('close', () => (request.endedAt = performance.now()));
		this.requests.push(request);

		// A mid-reply failure waits for the next generation request; the others hit any request.
		const queued = this.#failures[0];
		if (queued && !isMidReply(queued)) {
			this.#failures.shift();
			return this.#fail(queued, res, body);
		}
		const planned = queued ? undefined : this.faultPlan?.(this.requests.length - 1, request);
		if (planned && !isMidReply(planned)) return this.#fail(planned, res, body);
		const failure = queued ?? planned;
		if (this.#apiKey && req.headers.authorization !== `Bearer ${this.#apiKey}`) {
			return sendError(res, 401, 'Invalid API key', 'authentication_error');
		}
		if (req.method === 'GET' && path === '/v1/models') {
			const data = this.#models.map((id) => ({
				id,
				object: 'model',
				created: 0,
				owned_by: this.#vllm?.server ?? 'mock',
				...(this.#vllm
					? { root: id, parent: null, max_model_len: this.#vllm.maxModelLen ?? 8192 }
					: {}),
				...this.modelFields[id]
			}));
			return sendJson(res, 200, { object: 'list', data });
		}
		if (req.method === 'GET' && path === '/props' && this.#llama) {
			// llama-server's GET /props (tools/server): the slot context the probe sizes answers by,
			// and the chat template it applies with the special tokens' text.
			const { modelPath, alias, contextSize, chatTemplate } = this.#llama;
			return sendJson(res, 200, {
				default_generation_settings: { n_ctx: contextSize ?? 4096 },
				total_slots: 1,
				model_path: modelPath,
				...(alias ? { model_alias: alias } : {}),
				chat_template: chatTemplate?.source ?? LLAMA_CPP_CHATML_FALLBACK,
				bos_token: chatTemplate?.bos_token ?? '',
				eos_token: chatTemplate?.eos_token ?? '<|im_end|>'
			});
		}
		if (req.method === 'GET' && path === '/get_model_info' && this.#vllm?.server === 'sglang') {
			const id = this.#models[0];
			return sendJson(res, 200, { model_path: id, tokenizer_path: id, is_generation: true });
		}
		const tokenizeAt = this.#vllm?.server === 'sglang' ? '/v1/tokenize' : '/tokenize';
		if (req.method === 'POST' && path === tokenizeAt && this.#vllm) {
			const prompt = String((body as { prompt?: unknown } | undefined)?.prompt ?? '');
			const ids = tokenIds(this.#vllm, prompt);
			return sendJson(res, 200, { count: ids.length, max_model_len: 8192, tokens: ids });
		}
		if (req.method === 'POST' && (path === '/v1/completions' || path === '/v1/chat/completions')) {
			if (typeof body !== 'object' || body === null) {
				return sendError(res, 400, 'The request body is not valid JSON.', 'BadRequestError');
			}
			const unknown = Object.keys(body).find((k) => !OPENAI_COMPLETION_FIELDS.has(k));
			if (this.#strict && path === '/v1/completions' && unknown !== undefined) {
				return sendError(
					res,
					400,
					`Unrecognized request argument supplied: ${unknown}`,
					'invalid_request_error'
				);
			}
			if (failure && failure === queued) this.#failures.shift();
			return this.#generate(path, body as GenerationBody, res, failure);
		}
		sendError(res, 404, `No route for ${req.method} ${path}`, 'NotFoundError');
	}

	async #fail(
		f: Exclude<MockFailure, MidStreamFault | MidStreamError>,
		res: ServerResponse,
		body: unknown
	): Promise<void> {
		if ('hang' in f) return; // Never answer; close() or the client's abort ends it.
		if ('garbageJson' in f) {
			if ((body as GenerationBody | undefined)?.stream === true) {
				res.writeHead(200, { 'Content-Type': 'text/event-stream' });
				res.end('data: {"choices": [{"text": "cut off\n\ndata: [DONE]\n\n');
			} else {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end('{"choices": [{"message": {"content": "cut of');
			}
			return;
		}
		const headers: Record<string, string> = { 'Content-Type': 'application/json' };
		if (f.retryAfter !== undefined) headers['Retry-After'] = f.retryAfter;
		res.writeHead(f.status, headers);
		res.end(
			f.body ??
				JSON.stringify({
					error: { message: `Mock failure ${f.status}`, type: 'mock', code: f.status }
				})
		);
	}

	get llamaServer(): LlamaServerFlavour | undefined {
		return this.#llama;
	}

	async #generate(
		path: string,
		b: GenerationBody,
		res: ServerResponse,
		failure?: MidStreamFault | MidStreamError
	): Promise<void> {
		const model = typeof b.model === 'string' ? b.model : '';
		if (!this.#models.includes(model)) {
			return sendError(res, 404, `The model \`${model}\` does not exist.`, 'NotFoundError');
		}
		const chat = path === '/v1/chat/completions';
		if (chat && this.rejectJsonSchema && b.response_format?.type === 'json_schema') {
			return sendError(
				res,
				400,
				"response_format type 'json_schema' is not supported; use 'json_object' or 'text'.",
				'BadRequestError'
			);
		}
		const messages = Array.isArray(b.messages) ? (b.messages as ChatMessage[]) : undefined;
		const request: ScriptRequest = {
			kind: chat ? 'chat' : 'complete',
			model,
			prompt: chat
				? (messages ?? []).map((m) => `${m.role}: ${m.content}`).join('\n')
				: String(b.prompt ?? ''),
			messages,
			temperature: num(b.temperature, 1),
			seed: num(b.seed, 0),
			// OpenAI's defaults: 16 for completions, unbounded (here: plenty) for chat.
			max_tokens: num(b.max_tokens, chat ? 4096 : 16),
			stop: stopList(b.stop)
		};
		const reply =
			this.#vllm && !chat
				? vllmReply(this.#vllm, this.#script(request), request, b)
				: applyScript(this.#script, request);
		const context = this.#llama?.contextSize;
		if (context !== undefined && reply.prompt_tokens >= context) {
			res.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8' });
			res.end(exceedContextSizeBody(reply.prompt_tokens, context));
			return;
		}
		const stream = new Reply(this, path, res, reply, model, chat, failure);
		if (b.stream === true) await stream.sse(b.stream_options?.include_usage === true);
		else await stream.whole();
	}
}

/** One reply, streamed token by token or sent whole; stops as soon as the client disconnects. */
class Reply {
	#server: MockServer;
	#res: ServerResponse;
	#reply: ScriptedReply;
	#record: MockStream;
	#closed = false;
	#head: { id: string; object: string; created: number; model: string };
	#chat: boolean;
	#fault?: MidStreamFault;
	#midStream?: MidStreamError;

	constructor(
		server: MockServer,
		path: string,
		res: ServerResponse,
		reply: ScriptedReply,
		model: string,
		chat: boolean,
		failure?: MidStreamFault | MidStreamError
	) {
		this.#server = server;
		if (failure && 'midStream' in failure) this.#fault = failure;
		if (failure && 'midStreamError' in failure) this.#midStream = failure;
		this.#res = res;
		this.#reply = reply;
		this.#chat = chat;
		this.#record = {
			path,
			tokensPlanned: reply.tokens.length,
			tokensSent: 0,
			outcome: 'streaming'
		};
		server.streams.push(this.#record);
		res.on('close', () => {
			this.#closed = true;
			if (this.#record.outcome === 'streaming') this.#record.outcome = 'disconnected';
		});
		this.#head = {
			id: `mock-${server.streams.length}`,
			object: chat ? 'chat.completion' : 'text_completion',
			created: Math.floor(Date.now() / 1000),
			model
		};
	}

	get #usage() {
		const { prompt_tokens, tokens } = this.#reply;
		return {
			prompt_tokens,
			completion_tokens: tokens.length,
			total_tokens: prompt_tokens + tokens.length
		};
	}

	/** llama-server's own measurements, sent beside usage. */
	get #timings() {
		const { prompt_tokens, tokens } = this.#reply;
		return {
			prompt_n: prompt_tokens,
			prompt_ms: prompt_tokens * 0.5,
			prompt_per_token_ms: 0.5,
			prompt_per_second: 2000,
			predicted_n: tokens.length,
			predicted_ms: tokens.length * 20,
			predicted_per_token_ms: 20,
			predicted_per_second: 50
		};
	}

	get #extras() {
		return this.#server.llamaServer ? { timings: this.#timings } : {};
	}

	#errorBody(message: string) {
		return { error: { code: 500, message, type: 'server_error' } };
	}

	async sse(includeUsage: boolean): Promise<void> {
		this.#res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
		const tokens = this.#reply.tokens.length > 0 ? this.#reply.tokens : [''];
		if (this.#server.firstTokenDelayMs > 0) await sleep(this.#server.firstTokenDelayMs);
		const object = this.#chat ? 'chat.completion.chunk' : 'text_completion';
		for (let i = 0; i < tokens.length; i++) {
			if (this.#midStream && i === (this.#midStream.afterTokens ?? 0)) {
				// llama-server: the error as a data event (older builds: an `error:` field), then the
				// stream ends without [DONE].
				const body = this.#errorBody(this.#midStream.midStreamError);
				if (this.#midStream.legacyErrorField) {
					this.#res.write(`error: ${JSON.stringify(body.error)}\n\n`);
				} else this.#send(body);
				this.#record.outcome = 'done';
				this.#res.end();
				return;
			}
			if (this.#server.tokenDelayMs > 0) await sleep(this.#server.tokenDelayMs);
			if (this.#closed) return;
			if (this.#fault && i === this.#fault.afterTokens) {
				const kind = this.#fault.midStream;
				if (kind !== 'malformed') return this.#breakOff(kind);
				this.#res.write('data: {"choices": [{"text": "mangl\n\n');
			}
			const finish_reason = i === tokens.length - 1 ? this.#reply.finish_reason : null;
			const choice = this.#chat
				? { index: 0, delta: { role: 'assistant', content: tokens[i] }, finish_reason }
				: { index: 0, text: tokens[i], logprobs: null, finish_reason };
			this.#send({ ...this.#head, object, choices: [choice] });
			if (tokens[i] !== '') this.#record.tokensSent++;
		}
		if (includeUsage) {
			this.#send({ ...this.#head, object, choices: [], usage: this.#usage, ...this.#extras });
		}
		this.#res.write('data: [DONE]\n\n');
		this.#record.outcome = 'done';
		this.#res.end();
	}

	/** Reset the connection, or stall with the reply unfinished until the client leaves. */
	async #breakOff(kind: 'reset' | 'stall'): Promise<void> {
		this.#record.outcome = 'disconnected';
		if (kind === 'stall') return;
		// Let what was written reach the client first, as when a real server dies mid-reply.
		this.#res.flushHeaders();
		await sleep(20);
		this.#res.destroy();
	}

	async whole(): Promise<void> {
		if (this.#fault) {
			const kind = this.#fault.midStream;
			if (kind !== 'malformed') return this.#breakOff(kind);
			this.#res.writeHead(200, { 'Content-Type': 'application/json' });
			this.#res.end('{"choices": [{"message": {"content": "mangl');
			return;
		}
		// The same generation as a stream's, only sent at its end: prefill, then every token.
		if (this.#server.firstTokenDelayMs > 0) await sleep(this.#server.firstTokenDelayMs);
		for (const _ of this.#reply.tokens) {
			if (this.#server.tokenDelayMs > 0) await sleep(this.#server.tokenDelayMs);
			if (this.#closed) return;
			this.#record.tokensSent++;
		}
		if (this.#midStream) {
			this.#record.outcome = 'done';
			sendJson(this.#res, 500, this.#errorBody(this.#midStream.midStreamError));
			return;
		}
		const { text, finish_reason } = this.#reply;
		const choice = this.#chat
			? { index: 0, message: { role: 'assistant', content: text }, finish_reason }
			: { index: 0, text, logprobs: null, finish_reason };
		this.#record.outcome = 'done';
		sendJson(this.#res, 200, {
			...this.#head,
			choices: [choice],
			usage: this.#usage,
			...this.#extras
		});
	}

	#send(event: unknown): void {
		this.#res.write(`data: ${JSON.stringify(event)}\n\n`);
	}
}

/** Start a mock on 127.0.0.1 (port 0 picks a free one). Close it in afterEach. */
export async function startMockOpenAI(opts: MockOpenAIOptions = {}): Promise<MockOpenAI> {
	const server = new MockServer(opts);
	await server.listen(opts.port ?? 0);
	return server;
}

/** What vLLM or SGLang would return for this request, given all the model would write. */
function vllmReply(
	flavour: VllmFlavour,
	raw: string,
	req: ScriptRequest,
	b: GenerationBody
): ScriptedReply {
	const ids = Array.isArray(b.stop_token_ids)
		? b.stop_token_ids.filter((x): x is number => typeof x === 'number')
		: [];
	const out = vllmGenerate(flavour, raw, {
		max_tokens: req.max_tokens,
		stop: req.stop,
		stop_token_ids: ids,
		skip_special_tokens: b.skip_special_tokens !== false,
		spaces_between_special_tokens: b.spaces_between_special_tokens !== false
	});
	return {
		tokens: out.deltas,
		text: out.text,
		finish_reason: out.finish_reason,
		prompt_tokens: tokenIds(flavour, req.prompt).length
	};
}

function isMidReply(f: MockFailure): f is MidStreamFault | MidStreamError {
	return 'midStream' in f || 'midStreamError' in f;
}
