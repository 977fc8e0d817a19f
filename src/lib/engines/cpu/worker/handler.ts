/**
 * The CPU worker's side of the protocol: routes page messages onto wllama (llama.cpp compiled to
 * WebAssembly), one request at a time, and answers every request exactly once. Knows wllama only
 * through CpuRuntime/CpuModel, so it runs in Node tests against a fake.
 *
 * Both turns and the judge are streamed raw completions. wllama 3.x serializes every llama.cpp
 * result with nlohmann::json's strict dump(), which throws "invalid UTF-8 byte" (and kills the
 * wasm runtime) when a result holds a token that is not valid UTF-8 on its own: a byte-level BPE
 * piece of a CJK character or an emoji, left dangling when generation stops mid-character. In
 * streaming mode llama.cpp holds such bytes back until the character is complete and sends the
 * final result without text, so nothing invalid is ever serialized; non-streamed completions and
 * chat completions (whose last chunk re-sends the parsed message) do serialize it, so the handler
 * never uses them while a template is known. If a runtime dies anyway, the model is reopened from
 * the cache and the request fails alone.
 */
import { EngineError } from '../../../probe/engine.ts';
import { AbortError } from '../../../errors/appError.ts';
import { HUB_BLOCKED_RECOVERY, isHubBlocked } from '../../../errors/hubBlocked.ts';
import { assistantPrompt, stopSequences, type ChatTemplate } from '../../../probe/template.ts';
import type { FinishReason, Usage } from '../../../probe/types.ts';
import { toWireError } from '../../webgpu/errors.ts';
import { samplingFields } from '../../requestFields.ts';
import { SerialQueue } from '../../webgpu/queue.ts';
import type {
	CacheQueryResult,
	CpuCacheQueryMessage,
	CpuRequestKind,
	CpuWorkerRequest,
	CpuWorkerStats,
	WireCompletionRequest,
	WireJsonChatRequest,
	WorkerReply
} from '../protocol.ts';
import { isWorkerRequest } from '../protocol.ts';
import { cpuThreads, threadFactsHere } from '../threads.ts';
import type { MirrorSource } from './mirrorFetch.ts';

/** The fields of llama.cpp's streamed completion chunk we read (wllama RawCompletionChunk). */
export interface CpuChunk {
	choices: { text?: string; finish_reason?: string | null }[];
	usage?: { prompt_tokens: number; completion_tokens: number } | null;
	timings?: {
		prompt_ms?: number;
		prompt_per_second?: number;
		predicted_ms?: number;
		predicted_per_second?: number;
	};
}

/** What the handler sends per completion: llama-server's /v1/completions body, streamed. */
export interface CpuCompletionParams {
	prompt: string;
	max_tokens: number;
	temperature: number;
	top_p: number;
	seed: number;
	stop: string[];
	/** Grammar-constrained output (llama.cpp turns the schema into a GBNF grammar). */
	json_schema?: Record<string, unknown>;
	stream: true;
	onData: (chunk: CpuChunk) => void;
	abortSignal: AbortSignal;
}

/** One model resident in its own wllama instance (and wasm runtime). */
export interface CpuModel {
	createCompletion(params: CpuCompletionParams): Promise<void>;
	/** tokenizer.chat_template from the GGUF metadata, or null. */
	getChatTemplate(): string | null;
	getNumThreads?(): number;
	exit(): Promise<void>;
}

export interface OpenOptions {
	n_ctx: number;
	/** Threads llama.cpp computes with (1 unless the worker is cross-origin isolated). */
	n_threads: number;
	signal: AbortSignal;
	/** Bytes of the GGUF file(s) downloaded so far; `loaded === total` when served from cache. */
	onProgress: (p: { loaded: number; total: number }) => void;
	/** Where a catalog file not yet cached is fetched from instead of the Hub (mirrorFetch.ts). */
	mirror?: MirrorSource;
}

/** Opening models and reading the model cache (wllama's ModelManager over OPFS/Cache API). */
export interface CpuRuntime {
	open(url: string, opts: OpenOptions): Promise<CpuModel>;
	isCached?(url: string): Promise<boolean>;
	deleteCached?(url: string): Promise<void>;
	cachedBytes?(url: string): Promise<number | undefined>;
	storageEstimate?(): Promise<{ usage?: number; quota?: number }>;
}

export type Post = (msg: WorkerReply) => void;

/** Share of a model's bar the download fills; opening the file in wasm fills the rest. */
const DOWNLOAD_SHARE = 0.9;

/** Does this look like the wasm runtime dying (wllama's WllamaRuntimeError, an abort)? */
export function isRuntimeDeath(err: unknown): boolean {
	const e = err as { name?: unknown; message?: unknown } | null;
	const text = typeof e?.message === 'string' ? e.message : String(err);
	return e?.name === 'RuntimeError' || /invalid UTF-8 byte|\(ABORT\)|Aborted\(/.test(text);
}

/**
 * @param plannedThreads threads when the page does not ask for a count: this worker's own plan
 *   (half the cores when isolated, else 1).
 */
export function createCpuHandler(
	runtime: CpuRuntime,
	post: Post,
	plannedThreads: () => number = () => cpuThreads(threadFactsHere()).threads
): (data: unknown) => void {
	const queue = new SerialQueue<CpuRequestKind>();
	const controls = new Map<number, AbortController>();
	const models = new Map<string, CpuModel>();
	/** Models that generated at least once: a runtime death then is the runtime's, not the file's. */
	const proven = new Set<string>();
	/** Runtime deaths of models that never generated. */
	const unproven = new Map<string, number>();
	let nCtx = 4096;
	let nThreads = 1;
	let restarts = 0;

	const fail = (id: number, err: unknown) => post({ kind: 'error', id, error: toWireError(err) });
	const answer = async (id: number, run: () => Promise<unknown>) => {
		try {
			post({ kind: 'result', id, value: (await run()) as never });
		} catch (err) {
			fail(id, err);
		}
	};

	function enqueue(msg: CpuWorkerRequest, run: (signal: AbortSignal) => Promise<unknown>): void {
		const ctrl = new AbortController();
		controls.set(msg.id, ctrl);
		queue.push({
			id: msg.id,
			kind: msg.kind,
			run: () =>
				answer(msg.id, async () => {
					try {
						const value = await run(ctrl.signal);
						if (ctrl.signal.aborted) throw new AbortError();
						return value;
					} catch (err) {
						throw ctrl.signal.aborted ? new AbortError() : err;
					} finally {
						controls.delete(msg.id);
					}
				})
		});
	}

	async function exitAll(keep: ReadonlySet<string> = new Set()): Promise<void> {
		for (const [url, model] of [...models]) {
			if (keep.has(url)) continue;
			models.delete(url);
			await model.exit().catch(() => undefined);
		}
	}

	async function load(
		urls: string[],
		n_ctx: number,
		n_threads: number,
		id: number,
		signal: AbortSignal,
		mirror?: MirrorSource
	) {
		const unique = [...new Set(urls)];
		// Both are fixed when a model opens: a change reopens every model.
		if (n_ctx !== nCtx || n_threads !== nThreads) await exitAll();
		nCtx = n_ctx;
		nThreads = n_threads;
		await exitAll(new Set(unique));
		for (const url of unique) {
			if (models.has(url)) {
				post({ kind: 'progress', id, progress: { model: url, fraction: 1, phase: 'ready' } });
				continue;
			}
			let fraction = 0;
			const model = await runtime
				.open(url, {
					n_ctx,
					n_threads,
					signal,
					...(mirror?.base ? { mirror } : {}),
					onProgress: ({ loaded, total }) => {
						if (signal.aborted || !(total > 0)) return;
						fraction = Math.max(fraction, DOWNLOAD_SHARE * Math.min(1, loaded / total));
						post({
							kind: 'progress',
							id,
							progress: {
								model: url,
								fraction,
								phase: loaded >= total ? 'loading' : 'downloading',
								loaded_bytes: loaded,
								total_bytes: total
							}
						});
					}
				})
				.catch((err: unknown) => {
					throw toLoadError(err, url);
				});
			if (signal.aborted) {
				await model.exit().catch(() => undefined);
				throw new AbortError();
			}
			models.set(url, model);
			post({ kind: 'progress', id, progress: { model: url, fraction: 1, phase: 'ready' } });
		}
		return null;
	}

	function resident(url: string): CpuModel {
		const model = models.get(url);
		if (!model) {
			throw new EngineError(
				'model_not_loaded',
				`The model ${url} is not loaded in the CPU engine.`,
				'Load the model, then retry.'
			);
		}
		return model;
	}

	/**
	 * Reopen a model whose runtime died (from the cache: no download), then rethrow. A model that
	 * dies again before it ever generated is not restarted: the file itself is at fault (a GGUF
	 * with its header only, or cut off), and the error names it.
	 */
	async function restart(url: string, err: unknown): Promise<never> {
		const dead = models.get(url);
		models.delete(url);
		await dead?.exit().catch(() => undefined);
		const text = err instanceof Error ? err.message : String(err);
		const deaths = (unproven.get(url) ?? 0) + 1;
		if (!proven.has(url) && deaths >= 2) {
			unproven.delete(url);
			throw new EngineError(
				'bad_model',
				`The CPU engine cannot run ${url}: its runtime stopped on every generation with it (${text}), so the file is invalid or incomplete (e.g. a GGUF with its header only).`,
				'Check that the URL points at the whole .gguf model file, then load it again.'
			);
		}
		if (!proven.has(url)) unproven.set(url, deaths);
		restarts++;
		const ctrl = new AbortController();
		const model = await runtime.open(url, {
			n_ctx: nCtx,
			n_threads: nThreads,
			signal: ctrl.signal,
			onProgress: () => {}
		});
		models.set(url, model);
		throw new EngineError(
			'unknown',
			`The CPU engine's runtime stopped while generating with ${url} (${text}); it was restarted.`,
			proven.has(url)
				? 'Retry; the model stays loaded.'
				: 'Retry; if it stops again, the file is invalid or incomplete.'
		);
	}

	async function stream(
		url: string,
		params: Omit<CpuCompletionParams, 'stream' | 'onData' | 'abortSignal'>,
		signal: AbortSignal,
		onDelta?: (delta: string) => void
	) {
		const model = resident(url);
		let text = '';
		let chunks = 0;
		let finish: string | null = null;
		let usage: CpuChunk['usage'];
		let timings: CpuChunk['timings'];
		try {
			await model.createCompletion({
				...params,
				stream: true,
				abortSignal: signal,
				onData: (chunk) => {
					const choice = chunk.choices[0];
					const delta = choice?.text ?? '';
					if (delta) {
						text += delta;
						chunks++;
						onDelta?.(delta);
					}
					finish = choice?.finish_reason ?? finish;
					if (chunk.usage) usage = chunk.usage;
					if (chunk.timings) timings = chunk.timings;
				}
			});
		} catch (err) {
			if (signal.aborted) throw new AbortError();
			if (isRuntimeDeath(err)) return restart(url, err);
			throw toGenerationError(err);
		}
		proven.add(url);
		return { text, finish_reason: toFinishReason(finish), usage: toUsage(usage, timings, chunks) };
	}

	function complete(req: WireCompletionRequest, id: number, signal: AbortSignal) {
		return stream(
			req.model,
			{
				prompt: req.prompt,
				...samplingFields(req),
				stop: req.stop
			},
			signal,
			(delta) => post({ kind: 'token', id, delta })
		);
	}

	/** The judge: its messages rendered with the GGUF's own chat template, output held to the schema. */
	function chatJson(req: WireJsonChatRequest, signal: AbortSignal) {
		const source = resident(req.model).getChatTemplate();
		if (!source) {
			throw new EngineError(
				'bad_model',
				`The GGUF file ${req.model} carries no chat template (tokenizer.chat_template), which the judge needs.`,
				'Pick a judge model whose GGUF includes its chat template.'
			);
		}
		const template: ChatTemplate = { source, bos_token: null, eos_token: null };
		let stop: string[] = [];
		try {
			stop = stopSequences(template);
		} catch {
			// A template that cannot render a user/assistant/user exchange: the grammar still ends it.
		}
		return stream(
			req.model,
			{
				prompt: assistantPrompt(template, req.messages),
				...samplingFields(req),
				stop,
				json_schema: req.schema
			},
			signal
		);
	}

	async function cacheQuery({ op, model }: CpuCacheQueryMessage): Promise<CacheQueryResult> {
		const missing = () => new Error(`Cache query "${op}" is not available in this worker.`);
		switch (op) {
			case 'has':
				if (!runtime.isCached) throw missing();
				return { op, model, cached: await runtime.isCached(model) };
			case 'delete':
				if (!runtime.deleteCached) throw missing();
				if (models.has(model)) {
					await models.get(model)?.exit();
					models.delete(model);
				}
				await runtime.deleteCached(model);
				return { op, model };
			case 'sizes': {
				const bytes = await runtime.cachedBytes?.(model);
				const est = await runtime.storageEstimate?.().catch(() => undefined);
				return {
					op,
					model,
					sizes: {
						model,
						...(bytes !== undefined && { model_bytes: bytes }),
						...(est?.usage !== undefined && { usage_bytes: est.usage }),
						...(est?.quota !== undefined && { quota_bytes: est.quota })
					}
				};
			}
		}
	}

	function stats(): CpuWorkerStats {
		const first = models.values().next().value;
		return {
			loaded: [...models.keys()],
			running: queue.running?.kind ?? null,
			queued: queue.length,
			threads: first?.getNumThreads?.(),
			restarts
		};
	}

	function abort(target: number): boolean {
		const ctrl = controls.get(target);
		if (!ctrl || ctrl.signal.aborted) return false;
		if (queue.remove(target)) {
			controls.delete(target);
			fail(target, new AbortError());
			return true;
		}
		ctrl.abort();
		return true;
	}

	return (data) => {
		if (!isWorkerRequest(data)) {
			const id = (data as { id?: unknown } | null)?.id;
			if (typeof id === 'number') fail(id, new Error('Unknown request kind.'));
			return;
		}
		const msg = data as CpuWorkerRequest;
		switch (msg.kind) {
			case 'load':
				return enqueue(msg, (signal) =>
					load(msg.models, msg.n_ctx, msg.n_threads ?? plannedThreads(), msg.id, signal, msg.mirror)
				);
			case 'unload':
				return enqueue(msg, async () => {
					await exitAll();
					return null;
				});
			case 'complete':
				return enqueue(msg, (signal) => complete(msg.req, msg.id, signal));
			case 'chatJson':
				return enqueue(msg, (signal) => chatJson(msg.req, signal));
			case 'cacheQuery':
				if (msg.op === 'delete') return enqueue(msg, () => cacheQuery(msg));
				return void answer(msg.id, () => cacheQuery(msg));
			case 'abort':
				return void answer(msg.id, async () => ({ aborted: abort(msg.target) }));
			case 'stats':
				return void answer(msg.id, async () => stats());
		}
	};
}

function toFinishReason(reason: string | null): FinishReason {
	return reason === 'length' ? 'length' : 'stop';
}

function toUsage(usage: CpuChunk['usage'], timings: CpuChunk['timings'], chunks: number): Usage {
	const out: Usage = usage
		? { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens }
		: { prompt_tokens: 0, completion_tokens: chunks };
	if (isNum(timings?.prompt_per_second)) out.prefill_tps = timings.prompt_per_second;
	if (isNum(timings?.predicted_per_second)) out.decode_tps = timings.predicted_per_second;
	if (isNum(timings?.prompt_ms)) out.ttft_ms = timings.prompt_ms;
	if (isNum(timings?.prompt_ms) && isNum(timings?.predicted_ms)) {
		out.total_ms = timings.prompt_ms + timings.predicted_ms;
	}
	return out;
}

function isNum(x: unknown): x is number {
	return typeof x === 'number' && Number.isFinite(x);
}

/** llama.cpp's context overflow texts (server-context, as llama-server words them). */
const CONTEXT_OVERFLOW =
	/exceeds? the available context size|context size has been exceeded|exceed_context_size/i;

/** A failed generation: a prompt too long for n_ctx is the pipeline's per-item context error. */
function toGenerationError(err: unknown): unknown {
	const text = err instanceof Error ? err.message : String(err);
	if (!CONTEXT_OVERFLOW.test(text)) return err;
	return new EngineError(
		'context_window',
		`The prompt is longer than the CPU engine's context window (${text}).`,
		'Lower max tokens or shorten the conversation; the item is skipped.'
	);
}

/** A failed open → a typed error that names the model file. */
function toLoadError(err: unknown, url: string): unknown {
	if (err instanceof EngineError || (err as Error)?.name === 'AbortError') return err;
	const text = err instanceof Error ? err.message : String(err);
	if (/must ends? with "?\.gguf|Invalid model URL/i.test(text)) {
		return new EngineError(
			'bad_model',
			`${url} is not a GGUF file URL (it must end in .gguf).`,
			'Use the URL of the .gguf file itself, e.g. https://huggingface.co/<repo>/resolve/main/<file>.gguf.'
		);
	}
	if (/quota/i.test(text)) {
		return new EngineError(
			'quota_exceeded',
			`The browser ran out of storage space for ${url}.`,
			'Free space: delete cached models you no longer use, then retry.'
		);
	}
	if (/fetch|network|download|HTTP|status/i.test(text)) {
		const message = `Downloading ${url} failed (${text}).`;
		// A catalog model's URL was not typed by anyone: when the Hub cannot be reached at all, the
		// network is the cause, not the URL.
		return new EngineError(
			'network',
			message,
			isHubBlocked(message)
				? HUB_BLOCKED_RECOVERY
				: 'Check the URL and the connection (the host must allow cross-origin requests), then retry.',
			true
		);
	}
	return new EngineError(
		'bad_model',
		`The CPU engine could not open ${url} (${text}).`,
		'Check that the file is a GGUF model llama.cpp supports.'
	);
}
