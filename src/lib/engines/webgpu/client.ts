/**
 * The page side of the web-llm engine: an Engine that forwards every call to the engine worker
 * over our protocol. It never imports web-llm at run time, so the page stays small; the worker
 * (and its 2 MB of web-llm) loads only when createWebLLMEngine() runs.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import {
	type CompletionRequest,
	type CompletionResult,
	type Engine,
	type EngineCapabilities,
	type JsonChatRequest,
	type LoadProgress
} from '../../probe/engine.ts';
import { DEFAULT_VRAM_BUDGET_MB, fitsBudget, vramOf } from './catalog.ts';
import { WorkerClient, type RequestHooks, type WorkerPort } from '../workerClient.ts';
import type {
	CacheOp,
	CacheQueryResult,
	CacheSizes,
	RequestKind,
	ResultByKind,
	WorkerRequest,
	WorkerStats
} from './protocol.ts';

/** A Worker, or any port that behaves like one (tests pass an in-memory pair). */
export type WorkerLike = WorkerPort<WorkerRequest>;

export interface WebLLMEngineOptions {
	/** MB of VRAM the generator and judge may share; see DEFAULT_VRAM_BUDGET_MB. */
	vramBudgetMB?: number;
	/**
	 * Models outside the catalog (custom.ts); the worker adds them to web-llm's prebuilt list.
	 * Their vram_required_MB feeds can_co_load. A function is read at each call, so models the
	 * user adds after the engine was made are known to loads and cache queries.
	 */
	appConfig?: AppConfig | (() => AppConfig | undefined);
}

type RequestBody<K extends RequestKind> = Omit<Extract<WorkerRequest, { kind: K }>, 'id' | 'kind'>;

export class WebLLMEngine implements Engine {
	readonly name = 'webllm';
	readonly #worker: WorkerClient<WorkerRequest>;
	readonly #opts: WebLLMEngineOptions;

	constructor(worker: WorkerLike, opts: WebLLMEngineOptions = {}) {
		this.#worker = new WorkerClient(worker, 'engine worker');
		this.#opts = opts;
	}

	capabilities(): EngineCapabilities {
		const budget = this.#opts.vramBudgetMB ?? DEFAULT_VRAM_BUDGET_MB;
		return {
			json_schema: true,
			streaming: true,
			// One GPU pipeline: the worker serializes anyway, more in flight only queues.
			max_concurrency: 1,
			can_co_load: (models) =>
				fitsBudget(models, budget, (id) => vramOf(id, this.#appConfig())).fits
		};
	}

	async load(
		models: string[],
		opts: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {}
	): Promise<void> {
		const appConfig = this.#appConfig();
		await this.#request('load', appConfig ? { models, appConfig } : { models }, {
			signal: opts.signal,
			onProgress: opts.onProgress
		});
	}

	async unload(): Promise<void> {
		await this.#request('unload', {});
	}

	/** @throws EngineError, AbortError when `req.signal` fires. */
	complete(req: CompletionRequest): Promise<CompletionResult> {
		return this.#worker.complete(req);
	}

	chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		return this.#worker.chatJson(req);
	}

	/** Are all of the model's files in the browser cache (no download needed)? */
	async isCached(model: string): Promise<boolean> {
		const res: CacheQueryResult = await this.#request('cacheQuery', this.#cacheQuery('has', model));
		return res.cached === true;
	}

	/** Delete the model's weights, config and wasm from the cache. */
	async deleteCached(model: string): Promise<void> {
		await this.#request('cacheQuery', this.#cacheQuery('delete', model));
	}

	async cacheSizes(model: string): Promise<CacheSizes> {
		const res: CacheQueryResult = await this.#request(
			'cacheQuery',
			this.#cacheQuery('sizes', model)
		);
		return res.sizes ?? { model };
	}

	stats(): Promise<WorkerStats> {
		return this.#request('stats', {});
	}

	/** Stop the worker and free the GPU; pending calls reject with AbortError. */
	terminate(): void {
		this.#worker.terminate();
	}

	/** A cache query carries the custom model list: the worker knows it only after a load. */
	#cacheQuery(op: CacheOp, model: string): RequestBody<'cacheQuery'> {
		const appConfig = this.#appConfig();
		return appConfig ? { op, model, appConfig } : { op, model };
	}

	#appConfig(): AppConfig | undefined {
		const { appConfig } = this.#opts;
		return typeof appConfig === 'function' ? appConfig() : appConfig;
	}

	#request<K extends RequestKind>(
		kind: K,
		body: RequestBody<K>,
		hooks: RequestHooks = {}
	): Promise<ResultByKind[K]> {
		return this.#worker.request(kind, body, hooks) as Promise<ResultByKind[K]>;
	}
}

/**
 * Start the engine worker and wrap it. Call this only when the user picks in-browser models:
 * creating the Worker is what downloads web-llm.
 */
export function createWebLLMEngine(opts: WebLLMEngineOptions = {}): WebLLMEngine {
	const worker = new Worker(new URL('../../../workers/webgpu.worker.ts', import.meta.url), {
		type: 'module',
		name: 'engine'
	});
	return new WebLLMEngine(worker, opts);
}
