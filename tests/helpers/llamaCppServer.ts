/**
 * A small test-only OpenAI-compatible server over real llama.cpp (node-llama-cpp, CPU): streamed
 * /v1/completions with usage and timings, /v1/chat/completions (the GGUF's own chat template; a
 * json_schema response_format becomes a llama.cpp grammar), /v1/models, /props. It answers like llama-server
 * where the probe depends on it: the model id is the model path unless an alias is given, a prompt
 * that does not fit the context is an HTTP 400 `exceed_context_size_error`, generation that reaches
 * the end of the context stops with finish_reason "length", and usage carries `timings`.
 *
 * Requests are served one at a time per slot (default 1 slot, 1 thread) on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Template } from '@huggingface/jinja';
import {
	getLlama,
	LlamaGrammarEvaluationState,
	LlamaText,
	type Llama,
	type LlamaContext,
	type LlamaContextSequence,
	type LlamaGrammar,
	type LlamaModel,
	type Token
} from 'node-llama-cpp';

export interface LlamaCppServerOptions {
	modelPath: string;
	/** Served model id; llama-server's --alias. Default: the model path, as llama-server does. */
	alias?: string;
	/** Tokens per slot (llama-server: -c / -np). Default 4096. */
	contextSize?: number;
	/** Parallel slots (llama-server -np). Default 1. */
	slots?: number;
	threads?: number;
	port?: number;
}

export interface GenerateRequest {
	prompt: string;
	maxTokens: number;
	temperature: number;
	topP: number;
	seed?: number;
	stop: string[];
	/** A JSON schema the output must follow (through a llama.cpp grammar). */
	schema?: Record<string, unknown>;
	signal?: AbortSignal;
	onDelta?: (text: string) => void;
}

export interface GenerateResult {
	text: string;
	finishReason: 'stop' | 'length';
	promptTokens: number;
	completionTokens: number;
	promptMs: number;
	predictedMs: number;
}

export interface LlamaCppServer {
	/** http://127.0.0.1:PORT (no /v1). */
	url: string;
	/** The id /v1/models lists. */
	modelId: string;
	/** Slot context size after llama.cpp's rounding. */
	contextSize: number;
	/** Generate directly, as the HTTP handlers do (tests compare the HTTP path against it). */
	generate(req: GenerateRequest): Promise<GenerateResult>;
	/** Test hook: the next generation waits this long per token and ignores end-of-generation. */
	slowNextRequest(tokenDelayMs: number): void;
	/** Requests answered, by path. */
	served: Record<string, number>;
	close(): Promise<void>;
}

class ContextOverflow extends Error {
	constructor(
		readonly promptTokens: number,
		readonly contextSize: number
	) {
		// llama-server's text (tools/server/server.cpp), so clients are tested against it.
		super(
			`request (${promptTokens} tokens) exceeds the available context size (${contextSize} tokens), try increasing it`
		);
	}
}

class BadRequest extends Error {}

/** Waits for a free sequence; requests are served in arrival order. */
class SlotPool {
	#free: LlamaContextSequence[];
	#waiting: ((s: LlamaContextSequence) => void)[] = [];
	constructor(sequences: LlamaContextSequence[]) {
		this.#free = sequences;
	}
	async use<T>(fn: (s: LlamaContextSequence) => Promise<T>): Promise<T> {
		const seq =
			this.#free.pop() ??
			(await new Promise<LlamaContextSequence>((resolve) => this.#waiting.push(resolve)));
		try {
			await seq.clearHistory();
			return await fn(seq);
		} finally {
			const next = this.#waiting.shift();
			if (next) next(seq);
			else this.#free.push(seq);
		}
	}
}

/** Longest suffix of `text` that is a proper prefix of some stop string: held back while streaming. */
function partialStopLength(text: string, stops: string[]): number {
	let longest = 0;
	for (const stop of stops) {
		for (let n = Math.min(stop.length - 1, text.length); n > longest; n--) {
			if (text.endsWith(stop.slice(0, n))) {
				longest = n;
				break;
			}
		}
	}
	return longest;
}

export async function startLlamaCppServer(opts: LlamaCppServerOptions): Promise<LlamaCppServer> {
	const slots = opts.slots ?? 1;
	const llama: Llama = await getLlama({ build: 'never', gpu: false, logLevel: 'error' as never });
	const model: LlamaModel = await llama.loadModel({ modelPath: opts.modelPath });
	const context: LlamaContext = await model.createContext({
		contextSize: (opts.contextSize ?? 4096) * slots,
		sequences: slots,
		threads: opts.threads ?? 1
	});
	const perSlot = Math.floor(context.contextSize / slots);
	const pool = new SlotPool(Array.from({ length: slots }, () => context.getSequence()));
	const modelId = opts.alias ?? opts.modelPath;
	const template = new Template(String(model.fileInfo.metadata.tokenizer?.chat_template ?? ''));
	const grammars = new Map<string, Promise<LlamaGrammar>>();
	let slow: number | undefined;
	const served: Record<string, number> = {};

	const grammarFor = (schema: Record<string, unknown>) => {
		const key = JSON.stringify(schema);
		let g = grammars.get(key);
		if (!g) {
			g = llama.createGrammarForJsonSchema(schema as never) as Promise<LlamaGrammar>;
			grammars.set(key, g);
		}
		return g;
	};

	async function generate(req: GenerateRequest): Promise<GenerateResult> {
		const tokens = model.tokenize(req.prompt, true);
		if (tokens.length >= perSlot) throw new ContextOverflow(tokens.length, perSlot);
		let grammar: LlamaGrammar | undefined;
		if (req.schema) {
			try {
				grammar = await grammarFor(req.schema);
			} catch (err) {
				grammars.delete(JSON.stringify(req.schema));
				throw new BadRequest(`Unsupported JSON schema: ${(err as Error).message}`);
			}
		}
		// node-llama-cpp's JSON grammars end in "\n\n\n\n" plus any newlines, and its chat stops there
		// and trims them; llama-server's grammars simply end after the JSON. Do as both: stop, trim.
		const stop = [...req.stop];
		if (grammar) {
			for (const t of grammar.stopGenerationTriggers) {
				const parts: readonly unknown[] =
					t instanceof LlamaText ? t.values : typeof t === 'string' ? [t] : t;
				stop.push(parts.filter((v): v is string => typeof v === 'string').join(''));
			}
		}
		const delay = slow;
		slow = undefined;
		return pool.use(async (seq) => {
			const started = performance.now();
			let firstAt: number | undefined;
			const out: Token[] = [];
			let sent = '';
			let finishReason: 'stop' | 'length' = 'length';
			const emit = (upTo: string) => {
				if (upTo.length > sent.length) req.onDelta?.(upTo.slice(sent.length));
				sent = upTo;
			};
			let text = '';
			const grammarEvaluationState = grammar
				? new LlamaGrammarEvaluationState({ model, grammar })
				: undefined;
			for await (const token of seq.evaluate(tokens, {
				temperature: req.temperature,
				topP: req.topP,
				// llama-server's default; OpenAI requests carry no top_k.
				topK: 40,
				seed: req.seed ?? 0,
				yieldEogToken: true,
				grammarEvaluationState
			})) {
				firstAt ??= performance.now();
				if (req.signal?.aborted) break;
				if (model.isEogToken(token) && delay === undefined) {
					finishReason = 'stop';
					break;
				}
				out.push(token);
				text = model.detokenize(out);
				const stopAt = Math.min(
					...stop.map((s) => text.indexOf(s)).filter((i) => i >= 0),
					Infinity
				);
				if (stopAt !== Infinity) {
					text = text.slice(0, stopAt);
					if (grammar?.trimWhitespaceSuffix) text = text.trimEnd();
					emit(text);
					finishReason = 'stop';
					break;
				}
				// A split UTF-8 character or a possible stop string waits for the next token.
				if (!text.endsWith('\uFFFD'))
					emit(text.slice(0, text.length - partialStopLength(text, stop)));
				if (delay) await new Promise((r) => setTimeout(r, delay));
				if (out.length >= req.maxTokens || tokens.length + out.length >= perSlot) break;
			}
			if (!req.signal?.aborted) emit(text);
			const end = performance.now();
			return {
				text,
				finishReason,
				promptTokens: tokens.length,
				completionTokens: out.length,
				promptMs: (firstAt ?? end) - started,
				predictedMs: end - (firstAt ?? end)
			};
		});
	}

	function timings(r: GenerateResult) {
		return {
			prompt_n: r.promptTokens,
			prompt_ms: r.promptMs,
			prompt_per_second: r.promptMs > 0 ? (r.promptTokens * 1000) / r.promptMs : 0,
			predicted_n: r.completionTokens,
			predicted_ms: r.predictedMs,
			predicted_per_second: r.predictedMs > 0 ? (r.completionTokens * 1000) / r.predictedMs : 0
		};
	}

	const usage = (r: GenerateResult) => ({
		prompt_tokens: r.promptTokens,
		completion_tokens: r.completionTokens,
		total_tokens: r.promptTokens + r.completionTokens
	});

	function sendJson(res: ServerResponse, status: number, body: unknown): void {
		res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
		res.end(JSON.stringify(body));
	}

	function sendError(res: ServerResponse, err: unknown): void {
		if (err instanceof ContextOverflow) {
			sendJson(res, 400, {
				error: {
					code: 400,
					message: err.message,
					type: 'exceed_context_size_error',
					n_prompt_tokens: err.promptTokens,
					n_ctx: err.contextSize
				}
			});
		} else if (err instanceof BadRequest) {
			sendJson(res, 400, {
				error: { code: 400, message: err.message, type: 'invalid_request_error' }
			});
		} else {
			sendJson(res, 500, {
				error: { code: 500, message: String((err as Error)?.message ?? err), type: 'server_error' }
			});
		}
	}

	function readParams(body: Record<string, unknown>) {
		const stop = body.stop;
		return {
			maxTokens: typeof body.max_tokens === 'number' ? body.max_tokens : perSlot,
			temperature: typeof body.temperature === 'number' ? body.temperature : 0.8,
			topP: typeof body.top_p === 'number' ? body.top_p : 0.95,
			seed: typeof body.seed === 'number' ? body.seed : undefined,
			stop: typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop.map(String) : []
		};
	}

	async function completions(
		body: Record<string, unknown>,
		req: IncomingMessage,
		res: ServerResponse
	) {
		if (typeof body.prompt !== 'string') throw new BadRequest('"prompt" must be a string');
		const ctrl = new AbortController();
		res.on('close', () => ctrl.abort());
		const created = Math.floor(Date.now() / 1000);
		const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
			id: 'cmpl-test',
			object: 'text_completion',
			created,
			model: modelId,
			choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
			...extra
		});
		if (body.stream !== true) {
			const r = await generate({ ...readParams(body), prompt: body.prompt, signal: ctrl.signal });
			sendJson(res, 200, {
				...chunk({ text: r.text, finish_reason: r.finishReason }),
				usage: usage(r),
				timings: timings(r)
			});
			return;
		}
		let headersSent = false;
		const open = () => {
			if (headersSent) return;
			headersSent = true;
			res.writeHead(200, {
				'Content-Type': 'text/event-stream',
				'Cache-Control': 'no-cache',
				Connection: 'keep-alive'
			});
		};
		const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
		const r = await generate({
			...readParams(body),
			prompt: body.prompt,
			signal: ctrl.signal,
			onDelta: (text) => {
				open();
				send(chunk({ text }));
			}
		});
		if (ctrl.signal.aborted) return;
		open();
		send(chunk({ text: '', finish_reason: r.finishReason }));
		send({ ...chunk({}), choices: [], usage: usage(r), timings: timings(r) });
		res.end('data: [DONE]\n\n');
		void req;
	}

	async function chat(body: Record<string, unknown>, res: ServerResponse) {
		if (!Array.isArray(body.messages)) throw new BadRequest('"messages" must be an array');
		const prompt = template.render({
			messages: body.messages,
			add_generation_prompt: true,
			bos_token: '',
			eos_token: '<|im_end|>'
		});
		const format = body.response_format as
			{ type?: string; json_schema?: { schema?: Record<string, unknown> } } | undefined;
		let schema: Record<string, unknown> | undefined;
		if (format?.type === 'json_schema') {
			schema = format.json_schema?.schema;
			if (!schema) throw new BadRequest('response_format.json_schema.schema is missing');
		} else if (format?.type === 'json_object') schema = { type: 'object' };
		const r = await generate({ ...readParams(body), prompt, schema });
		sendJson(res, 200, {
			id: 'chatcmpl-test',
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: modelId,
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content: r.text },
					finish_reason: r.finishReason
				}
			],
			usage: usage(r),
			timings: timings(r)
		});
	}

	const server = createServer((req, res) => {
		const path = (req.url ?? '/').split('?')[0];
		served[path] = (served[path] ?? 0) + 1;
		// Like llama-server (docs/servers.md), browsers on any origin may call it: every reply copies
		// the request's Origin into Access-Control-Allow-Origin, and preflights are answered.
		res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
		if (req.method === 'OPTIONS') {
			res.writeHead(200, {
				'Access-Control-Allow-Methods': 'GET, POST',
				'Access-Control-Allow-Headers': '*'
			});
			res.end();
			return;
		}
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			void (async () => {
				try {
					if (req.method === 'GET' && path === '/props') {
						// llama-server's GET /props, the fields a client reads: the context each request
						// gets (default_generation_settings.n_ctx), slots, the model and its template.
						sendJson(res, 200, {
							default_generation_settings: { n_ctx: perSlot },
							total_slots: slots,
							model_path: opts.modelPath,
							...(opts.alias ? { model_alias: opts.alias } : {}),
							chat_template: String(model.fileInfo.metadata.tokenizer?.chat_template ?? ''),
							bos_token: model.tokens.bosString ?? '',
							eos_token: model.tokens.eosString ?? ''
						});
						return;
					}
					if (req.method === 'GET' && path === '/v1/models') {
						sendJson(res, 200, {
							object: 'list',
							data: [{ id: modelId, object: 'model', created: 0, owned_by: 'llamacpp' }]
						});
						return;
					}
					if (req.method !== 'POST') {
						sendJson(res, 404, {
							error: { code: 404, message: 'File Not Found', type: 'not_found_error' }
						});
						return;
					}
					let body: Record<string, unknown>;
					try {
						body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
					} catch {
						throw new BadRequest('Failed to parse the request body as JSON');
					}
					if (path === '/v1/completions') await completions(body, req, res);
					else if (path === '/v1/chat/completions') await chat(body, res);
					else
						sendJson(res, 404, {
							error: { code: 404, message: 'File Not Found', type: 'not_found_error' }
						});
				} catch (err) {
					if (res.headersSent) {
						// llama-server reports a failure after the stream began as an error event.
						res.end(
							`data: ${JSON.stringify({ error: { code: 500, message: (err as Error).message, type: 'server_error' } })}\n\n`
						);
					} else sendError(res, err);
				}
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}`,
		modelId,
		contextSize: perSlot,
		generate,
		slowNextRequest: (ms) => (slow = ms),
		served,
		async close() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await context.dispose();
			await model.dispose();
			await llama.dispose();
		}
	};
}
