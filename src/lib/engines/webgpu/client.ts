/**
 * The page side of the web-llm engine: an Engine that forwards every call to the engine worker
 * over our protocol. It never imports web-llm at run time, so the page stays small; the worker
 * (and its 2 MB of web-llm) loads only when createWebLLMEngine() runs.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type { MirrorSource } from '../mirror.ts';
import type { Engine, EngineCapabilities, LoadProgress } from '../../probe/engine.ts';
import { DEFAULT_VRAM_BUDGET_MB, fitsBudget, vramOf } from './catalog.ts';
import type { RequestHooks, WorkerPort } from '../worker/client.ts';
import { WorkerEngine } from '../worker/engine.ts';
import type { CacheOp } from '../worker/protocol.ts';
import { WEBLLM_ADVICE } from './errors.ts';
import type { RequestKind, ResultByKind, WorkerRequest, WorkerStats } from './protocol.ts';

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
	/**
	 * A model mirror's base and its manifest, read at each call ('' base or undefined: the Hub);
	 * engines/mirror.ts.
	 */
	mirror?: () => MirrorSource | undefined;
}

type RequestBody<K extends RequestKind> = Omit<Extract<WorkerRequest, { kind: K }>, 'id' | 'kind'>;

export class WebLLMEngine extends WorkerEngine<WorkerRequest> implements Engine {
	readonly name = 'webllm';
	readonly #opts: WebLLMEngineOptions;

	constructor(worker: WorkerLike, opts: WebLLMEngineOptions = {}) {
		super(worker, 'engine worker', WEBLLM_ADVICE);
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
		const mirror = this.#mirror();
		const body = { models, ...(appConfig && { appConfig }), ...(mirror && { mirror }) };
		await this.#request('load', body, {
			signal: opts.signal,
			onProgress: opts.onProgress
		});
	}

	stats(): Promise<WorkerStats> {
		return this.#request('stats', {});
	}

	/** A cache query carries the custom model list: the worker knows it only after a load. */
	protected override cacheQuery(op: CacheOp, model: string): RequestBody<'cacheQuery'> {
		const appConfig = this.#appConfig();
		const mirror = this.#mirror()?.base;
		return { op, model, ...(appConfig && { appConfig }), ...(mirror && { mirror }) };
	}

	#mirror(): MirrorSource | undefined {
		const source = this.#opts.mirror?.();
		return source?.base ? source : undefined;
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
		return this.worker.request(kind, body, hooks) as Promise<ResultByKind[K]>;
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
