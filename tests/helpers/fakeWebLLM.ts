/**
 * A fake of the narrow web-llm surface our worker handler drives, plus a real MessageChannel
 * between the page-side client and the handler, so messages are structured-cloned and delivered
 * asynchronously exactly as with a Worker. Text comes from the shared scripted brain (script.ts).
 */
import type {
	AppConfig,
	ModelRecord,
	ChatCompletionChunk,
	ChatCompletionRequestStreaming,
	Completion,
	CompletionCreateParamsStreaming,
	CompletionUsage,
	InitProgressCallback,
	InitProgressReport
} from '@mlc-ai/web-llm';
import {
	WebLLMEngine,
	type WebLLMEngineOptions,
	type WorkerLike
} from '../../src/lib/engines/webgpu/client.ts';
import type { WorkerRequest } from '../../src/lib/engines/webgpu/protocol.ts';
import { modelBaseUrl } from '../../src/lib/engines/webgpu/worker/cacheSizes.ts';
import {
	createHandler,
	type CacheSurface,
	type HandlerOptions,
	type WebLLMSurface
} from '../../src/lib/engines/webgpu/worker/handler.ts';
import type { ChatMessage, Role } from '../../src/lib/probe/types.ts';
import { applyScript, defaultScript, type ScriptFn, type ScriptedReply } from './script.ts';
import type { FakeCacheStorage } from './fakeCaches.ts';

/** An Error shaped like web-llm's: the class name lives in `name`. */
export function webllmError(name: string, message = `${name} (fake)`): Error {
	const err = new Error(message);
	err.name = name;
	return err;
}

/** web-llm 0.2.86's DeviceLostError: how a load that runs out of GPU memory ends. */
export function deviceLostError(): Error {
	return webllmError(
		'DeviceLostError',
		'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM). To resolve this, try reloading with a model that has fewer parameters or uses a smaller context length.'
	);
}

/** The report sequence web-llm 0.2.86 emits for one model on a first (uncached) visit. */
export function firstVisitReports(shards = 4, mbPerShard = 100): InitProgressReport[] {
	const out: InitProgressReport[] = [
		{ progress: 0, timeElapsed: 0, text: 'Start to fetch params' }
	];
	for (let i = 1; i <= shards; i++) {
		const mb = i * mbPerShard;
		const pct = Math.floor((i * 100) / shards);
		out.push({
			progress: i / shards,
			timeElapsed: i * 2,
			text: `Fetching param cache[${i}/${shards}]: ${mb}MB fetched. ${pct}% completed, ${i * 2} secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.`
		});
	}
	for (let i = 1; i <= shards; i++) {
		const t = shards * 2 + i;
		out.push({
			progress: i / shards,
			timeElapsed: t,
			text: `Loading model from cache[${i}/${shards}]: ${i * mbPerShard}MB loaded. ${Math.floor((i * 100) / shards)}% completed, ${t} secs elapsed.`
		});
	}
	out.push(
		{
			progress: 0.5,
			timeElapsed: 1,
			text: 'Loading GPU shader modules[40/80]: 50% completed, 1 secs elapsed.'
		},
		{
			progress: 1,
			timeElapsed: 2,
			text: 'Loading GPU shader modules[80/80]: 100% completed, 2 secs elapsed.'
		},
		{
			progress: 1,
			timeElapsed: 14.2,
			text: 'Finish loading on WebGPU - SwiftShader Device (Subzero)'
		}
	);
	return out;
}

export interface FakeCall {
	kind: 'complete' | 'chat';
	request: CompletionCreateParamsStreaming | ChatCompletionRequestStreaming;
}

/**
 * The fake web-llm runtime: the knobs and logs every engine of one worker shares (one GPU, one
 * cache). The handler makes its engines with `createEngine()`, one per resident model, as the
 * worker makes MLCEngines; each behaves like 0.2.86's: reload frees every model of THAT engine.
 */
export class FakeWebLLM {
	script: ScriptFn = defaultScript;
	tokenDelayMs = 0;
	/** Delay between load progress reports, so a load can be aborted midway. */
	reportDelayMs = 0;
	reportsFor: (model: string) => InitProgressReport[] = () => firstVisitReports();
	/**
	 * How long reload() goes on after unload() cancels it: real web-llm finishes compiling its
	 * shaders first (≈10 s with SwiftShader), so the worker stays busy after a cancelled load.
	 */
	finishAfterCancelMs = 0;
	/** How long each unload() takes (web-llm waits for every pipeline's device to be destroyed). */
	unloadDelayMs = 0;
	/** Throw this from the next call of the named method, on whichever engine calls it first. */
	failNext: Partial<Record<'reload' | 'unload' | 'complete' | 'chat', Error>> = {};
	/**
	 * Throw this from the reload of the named model, once: web-llm's DeviceLostError (out of
	 * memory) or a download that fails for that model only.
	 */
	failLoadOf: Record<string, Error> = {};
	/** The list set by the last setAppConfig, on any engine. */
	appConfig?: AppConfig;
	/**
	 * web-llm's downloads: with this set, a reload fetches its model's files into these caches as
	 * web-llm 0.2.86 does (downloadLikeWebLLM), and fails as it does on a shard cut short.
	 */
	caches?: FakeCacheStorage;
	/** Every engine the handler made, in order. */
	readonly engines: FakeMLCEngine[] = [];
	/** Each engine's reload, as the models it was asked for. */
	readonly reloads: string[][] = [];
	readonly calls: FakeCall[] = [];
	unloads = 0;
	interrupts = 0;
	active = 0;
	maxActive = 0;
	#nextDelayMs?: number;

	/** What MLCEngine's constructor is to the worker. */
	createEngine = (): FakeMLCEngine => {
		const engine = new FakeMLCEngine(this);
		this.engines.push(engine);
		return engine;
	};

	/** Models resident in any engine, in the order the engines were made. */
	get resident(): string[] {
		return this.engines.flatMap((e) => e.resident);
	}

	/** Stream only the next request at this per-token delay. */
	slowNextRequest(ms: number): void {
		this.#nextDelayMs = ms;
	}

	/** @internal the next request's token delay, consumed. */
	takeDelay(): number {
		const delay = this.#nextDelayMs ?? this.tokenDelayMs;
		this.#nextDelayMs = undefined;
		return delay;
	}

	/** @internal */
	throwIfFailing(method: keyof FakeWebLLM['failNext']): void {
		const err = this.failNext[method];
		if (err) {
			delete this.failNext[method];
			throw err;
		}
	}
}

/** One fake MLCEngine: its own resident models, progress callback, reload and interrupt flag. */
export class FakeMLCEngine implements WebLLMSurface {
	resident: string[] = [];
	/**
	 * This engine's list. Like web-llm's findModelRecord, reload then refuses an id that is not in
	 * it (before any setAppConfig every id passes: the prebuilt list is not modelled).
	 */
	appConfig?: AppConfig;
	readonly reloads: string[][] = [];
	/** This engine's interruptGenerate() calls (the world counts every engine's). */
	interrupts = 0;
	#world: FakeWebLLM;
	#interrupted = false;
	#progress?: InitProgressCallback;
	#reloadAbort?: AbortController;

	constructor(world: FakeWebLLM) {
		this.#world = world;
	}

	setInitProgressCallback(cb: InitProgressCallback): void {
		this.#progress = cb;
	}

	setAppConfig(appConfig: AppConfig): void {
		this.appConfig = structuredClone(appConfig);
		this.#world.appConfig = structuredClone(appConfig);
	}

	async reload(models: string[]): Promise<void> {
		const world = this.#world;
		await this.unload();
		world.throwIfFailing('reload');
		for (const id of models) {
			if (this.appConfig && !this.appConfig.model_list.some((r) => r.model_id === id)) {
				throw webllmError(
					'ModelNotFoundError',
					`Cannot find model record in appConfig for ${id}. Please check if the model ID is correct and included in the model_list configuration.`
				);
			}
		}
		world.reloads.push([...models]);
		this.reloads.push([...models]);
		const ctrl = new AbortController();
		this.#reloadAbort = ctrl;
		// web-llm loads one model after another; a model that fails leaves the earlier ones loaded.
		const loaded: string[] = [];
		for (const model of models) {
			const record = this.appConfig?.model_list.find((r) => r.model_id === model);
			if (world.caches && record) await downloadLikeWebLLM(world.caches, record);
			const reports = world.reportsFor(model);
			const failure = world.failLoadOf[model];
			// A lost device (out of memory) surfaces at the end of that model's load, after its reports.
			for (const report of reports) {
				await sleep(world.reportDelayMs);
				// Like web-llm: unload() during reload aborts it, and reload returns quietly.
				if (ctrl.signal.aborted) {
					await sleep(world.finishAfterCancelMs);
					return;
				}
				this.#progress?.(report);
			}
			if (failure) {
				delete world.failLoadOf[model];
				// A lost device makes web-llm's device.lost handler unload the whole engine.
				this.resident = failure.name === 'DeviceLostError' ? [] : loaded;
				throw failure;
			}
			loaded.push(model);
			this.resident = [...loaded];
		}
	}

	async unload(): Promise<void> {
		const world = this.#world;
		world.unloads++;
		world.throwIfFailing('unload');
		await sleep(world.unloadDelayMs);
		this.resident = [];
		this.#reloadAbort?.abort();
	}

	interruptGenerate(): void {
		this.#world.interrupts++;
		this.interrupts++;
		this.#interrupted = true;
	}

	completions = {
		create: async (req: CompletionCreateParamsStreaming): Promise<AsyncIterable<Completion>> => {
			this.#world.throwIfFailing('complete');
			const reply = this.#reply('complete', req, req.prompt);
			return this.#stream(
				reply,
				req.stream_options?.include_usage === true,
				(text, finish): Completion => ({
					id: 'cmpl-fake',
					object: 'text_completion',
					created: 0,
					model: String(req.model),
					choices: [{ index: 0, text, finish_reason: finish }]
				})
			);
		}
	};

	chat = {
		completions: {
			create: async (
				req: ChatCompletionRequestStreaming
			): Promise<AsyncIterable<ChatCompletionChunk>> => {
				this.#world.throwIfFailing('chat');
				const prompt = req.messages.map((m) => `${m.role}: ${String(m.content)}`).join('\n');
				const reply = this.#reply('chat', req, prompt);
				return this.#stream(
					reply,
					req.stream_options?.include_usage === true,
					(text, finish): ChatCompletionChunk => ({
						id: 'chat-fake',
						object: 'chat.completion.chunk',
						created: 0,
						model: String(req.model),
						choices: [
							{
								index: 0,
								delta: finish ? {} : { content: text, role: 'assistant' },
								finish_reason: finish
							}
						]
					})
				);
			}
		}
	};

	#reply(
		kind: 'complete' | 'chat',
		req: CompletionCreateParamsStreaming | ChatCompletionRequestStreaming,
		prompt: string
	): ScriptedReply {
		// getModelIdToUse's names for the two requests.
		const request = kind === 'chat' ? 'ChatCompletionRequest' : 'CompletionCreateParams';
		if (this.resident.length === 0) {
			throw webllmError(
				'ModelNotLoadedError',
				`Model not loaded before trying to complete ${request}. Please ensure you have called MLCEngine.reload(model) to load the model before initiating APIs, or initialize your engine using CreateMLCEngine() with a valid model configuration.`
			);
		}
		const model = req.model ?? this.resident[0];
		if (!this.resident.includes(model)) {
			throw webllmError(
				'SpecifiedModelNotFoundError',
				`Specified model ${model} for ${request} is not found in loaded models. Please check if the correct model is loaded/specified. Currently loaded models are:\n${this.resident.join(', ')}`
			);
		}
		this.#world.calls.push({ kind, request: structuredClone(req) });
		const messages =
			'messages' in req
				? req.messages.map((m): ChatMessage => ({
						role: m.role as Role,
						content: String(m.content)
					}))
				: undefined;
		const stop = req.stop == null ? [] : Array.isArray(req.stop) ? req.stop : [req.stop];
		return applyScript(this.#world.script, {
			kind,
			model,
			prompt,
			messages,
			temperature: req.temperature ?? 1,
			seed: req.seed ?? 0,
			max_tokens: req.max_tokens ?? 1e9,
			stop
		});
	}

	async *#stream<C extends { usage?: CompletionUsage }>(
		reply: ScriptedReply,
		includeUsage: boolean,
		chunk: (text: string, finish: 'stop' | 'length' | 'abort' | null) => C
	): AsyncGenerator<C> {
		const world = this.#world;
		const delay = world.takeDelay();
		world.active++;
		world.maxActive = Math.max(world.maxActive, world.active);
		// web-llm clears the interrupt flag when a generation starts.
		this.#interrupted = false;
		try {
			let finish: 'stop' | 'length' | 'abort' =
				reply.finish_reason === 'length' ? 'length' : 'stop';
			let emitted = 0;
			for (const token of reply.tokens) {
				await sleep(delay);
				if (this.#interrupted) {
					finish = 'abort';
					break;
				}
				emitted++;
				yield chunk(token, null);
			}
			yield chunk('', finish);
			if (includeUsage) yield { ...chunk('', null), choices: [], usage: usage(reply, emitted) };
		} finally {
			world.active--;
		}
	}
}

function usage(reply: ScriptedReply, completion: number): CompletionUsage {
	return {
		prompt_tokens: reply.prompt_tokens,
		completion_tokens: completion,
		total_tokens: reply.prompt_tokens + completion,
		extra: {
			e2e_latency_s: 0.5,
			prefill_tokens_per_s: 400,
			decode_tokens_per_s: 25,
			time_to_first_token_s: 0.08,
			time_per_output_token_s: 0.04
		}
	};
}

/**
 * A model's files as web-llm 0.2.86's reloadInternal reads them (lib/index.js): the config into
 * "webllm/config", the model library into "webllm/wasm" (not cached from localhost), the tokenizer
 * and the tensor cache with its shards into "webllm/model", each fetched only when not cached
 * (ArtifactCache.addToCache). A shard shorter than a record in it fails in tvmjs's own words.
 */
export async function downloadLikeWebLLM(
	caches: FakeCacheStorage,
	record: ModelRecord
): Promise<void> {
	const base = modelBaseUrl(record.model);
	const fetchWithCache = async (scope: string, url: string) => {
		const cache = await caches.open(scope);
		if (!(await cache.match(url))) await cache.add(url);
		const copy = await cache.match(url);
		if (!copy) throw new Error(`Cannot fetch ${url}`);
		return new Uint8Array(await copy.arrayBuffer());
	};
	const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as unknown;
	const config = json(await fetchWithCache('webllm/config', `${base}mlc-chat-config.json`)) as {
		tokenizer_files?: string[];
	};
	if (!record.model_lib.includes('localhost'))
		await fetchWithCache('webllm/wasm', record.model_lib);
	const tokenizer = config.tokenizer_files?.includes('tokenizer.json')
		? 'tokenizer.json'
		: 'tokenizer.model';
	await fetchWithCache('webllm/model', `${base}${tokenizer}`);
	const list = json(await fetchWithCache('webllm/model', `${base}tensor-cache.json`)) as {
		records: { dataPath: string; records: { byteOffset: number; nbytes: number }[] }[];
	};
	for (const shard of list.records) {
		const bytes = await fetchWithCache('webllm/model', new URL(shard.dataPath, base).href);
		for (const { byteOffset, nbytes } of shard.records) {
			const end = byteOffset + nbytes;
			if (end > bytes.byteLength) {
				throw new Error(
					`Tensor-cache record range [${byteOffset}, ${end}) exceeds shard size ${bytes.byteLength}`
				);
			}
		}
	}
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A Worker stand-in over a real MessageChannel: the other end runs our handler in-process. */
export interface FakeWorker extends WorkerLike {
	/** Simulate the worker crashing (an `error` event on the Worker). */
	crash(message: string): void;
	readonly terminated: boolean;
	/** Every request the page posted, as the worker received it. */
	readonly received: WorkerRequest[];
}

export function connectFake(
	fake: FakeWebLLM,
	cache: CacheSurface = {},
	handlerOpts: HandlerOptions = {}
): { worker: FakeWorker; close: () => void } {
	const channel = new MessageChannel();
	const received: WorkerRequest[] = [];
	const handle = createHandler(
		fake.createEngine,
		(msg) => channel.port2.postMessage(msg),
		cache,
		handlerOpts
	);
	channel.port2.onmessage = (event) => {
		received.push(event.data as WorkerRequest);
		handle(event.data);
	};
	const errorListeners: ((event: { message?: string }) => void)[] = [];
	let terminated = false;
	const close = () => {
		channel.port1.close();
		channel.port2.close();
	};
	const worker: FakeWorker = {
		received,
		get terminated() {
			return terminated;
		},
		postMessage: (msg) => channel.port1.postMessage(msg),
		addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
			if (type === 'error') {
				errorListeners.push(listener as (event: { message?: string }) => void);
				return;
			}
			channel.port1.addEventListener('message', (event) =>
				(listener as (event: { data: unknown }) => void)({ data: (event as MessageEvent).data })
			);
			channel.port1.start();
		},
		terminate() {
			terminated = true;
			close();
		},
		crash(message) {
			for (const listener of errorListeners) listener({ message });
		}
	};
	return { worker, close };
}

/** A page-side WebLLMEngine wired to a fresh fake through the channel. */
export function fakeEngine(
	opts: WebLLMEngineOptions = {},
	cache: CacheSurface = {},
	handlerOpts: HandlerOptions = {}
) {
	const fake = new FakeWebLLM();
	const { worker, close } = connectFake(fake, cache, handlerOpts);
	return { fake, worker, engine: new WebLLMEngine(worker, opts), close };
}
