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
import { assistantPrompt, stopSequences, type ChatTemplate } from '../../../probe/template.ts';
import type { FinishReason, Usage } from '../../../probe/types.ts';
import { samplingFields } from '../../requestFields.ts';
import type { CpuLoadMessage, CpuWorkerRequest, CpuWorkerStats } from '../protocol.ts';
import type {
	CacheQueryMessage,
	CacheQueryResult,
	Post,
	WireCompletionRequest,
	WireJsonChatRequest
} from '../../worker/protocol.ts';
import { createWorkerHost, type Job } from '../../worker/host.ts';
import { cpuThreads, threadFactsHere } from '../threads.ts';
import { isRuntimeDeath, toGenerationError, toLoadError } from './errors.ts';
import type { CpuChunk, CpuCompletionParams, CpuModel, CpuRuntime } from './surface.ts';

export type { Post };

/** Share of a model's bar the download fills; opening the file in wasm fills the rest. */
const DOWNLOAD_SHARE = 0.9;

/**
 * @param plannedThreads threads when the page does not ask for a count: this worker's own plan
 *   (half the cores when isolated, else 1).
 */
export function createCpuHandler(
	runtime: CpuRuntime,
	post: Post,
	plannedThreads: () => number = () => cpuThreads(threadFactsHere()).threads
): (data: unknown) => void {
	const models = new Map<string, CpuModel>();
	/** Models that generated at least once: a runtime death then is the runtime's, not the file's. */
	const proven = new Set<string>();
	/** Runtime deaths of models that never generated. */
	const unproven = new Map<string, number>();
	let nCtx = 4096;
	let nThreads = 1;
	let restarts = 0;

	async function exitAll(keep: ReadonlySet<string> = new Set()): Promise<void> {
		for (const [url, model] of [...models]) {
			if (keep.has(url)) continue;
			models.delete(url);
			await model.exit().catch(() => undefined);
		}
	}

	async function load(msg: CpuLoadMessage, job: Job) {
		const { n_ctx, mirror } = msg;
		const n_threads = msg.n_threads ?? plannedThreads();
		const { signal } = job;
		const unique = [...new Set(msg.models)];
		// Both are fixed when a model opens: a change reopens every model.
		if (n_ctx !== nCtx || n_threads !== nThreads) await exitAll();
		nCtx = n_ctx;
		nThreads = n_threads;
		await exitAll(new Set(unique));
		for (const url of unique) {
			if (models.has(url)) {
				job.progress({ model: url, fraction: 1, phase: 'ready' });
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
						job.progress({
							model: url,
							fraction,
							phase: loaded >= total ? 'loading' : 'downloading',
							loaded_bytes: loaded,
							total_bytes: total
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
			job.progress({ model: url, fraction: 1, phase: 'ready' });
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

	function complete(req: WireCompletionRequest, job: Job) {
		return stream(
			req.model,
			{ prompt: req.prompt, ...samplingFields(req), stop: req.stop },
			job.signal,
			job.token
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

	async function cacheQuery({ op, model }: CacheQueryMessage): Promise<CacheQueryResult> {
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
			running: host.running?.kind ?? null,
			queued: host.queued,
			threads: first?.getNumThreads?.(),
			restarts
		};
	}

	const host = createWorkerHost<CpuWorkerRequest>(
		{
			load: { run: load },
			unload: {
				line: 'final',
				run: async () => {
					await exitAll();
					return null;
				}
			},
			complete: { run: (msg, job) => complete(msg.req, job) },
			chatJson: { run: (msg, job) => chatJson(msg.req, job.signal) },
			cacheQuery: { line: (msg) => (msg.op === 'delete' ? 'final' : 'now'), run: cacheQuery },
			stats: { line: 'now', run: async () => stats() }
		},
		post
	);
	return host.handle;
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
