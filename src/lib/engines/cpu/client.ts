/**
 * The page side of the CPU engine ("This device (CPU)"): an Engine that forwards every call to the
 * wllama worker over the same protocol as the web-llm worker. It never imports wllama, so the page
 * stays small; the worker (wllama's JS and its 8 MB wasm) loads only when createCpuEngine() runs.
 */
import {
	type CompletionRequest,
	type CompletionResult,
	type Engine,
	type EngineCapabilities,
	type JsonChatRequest,
	type LoadProgress
} from '../../probe/engine.ts';
import { WorkerClient, type RequestHooks, type WorkerPort } from '../workerClient.ts';
import { cpuCanCoLoad } from './catalog.ts';
import { cpuThreads, threadFactsHere } from './threads.ts';
import type {
	CacheQueryResult,
	CacheSizes,
	CpuRequestKind,
	CpuWorkerRequest,
	CpuWorkerStats
} from './protocol.ts';

export interface CpuEngineOptions {
	/** llama.cpp context per model; the probe's prompts and replies must fit. */
	n_ctx?: number;
	/** Threads to compute with; absent: the worker's plan (threads.ts). The bench sets 1 to compare. */
	n_threads?: number;
}

export const DEFAULT_N_CTX = 4096;

type Body<K extends CpuRequestKind> = Omit<Extract<CpuWorkerRequest, { kind: K }>, 'id' | 'kind'>;

/** The worker port as the client uses it: messages it sends are CPU-worker requests. */
export type CpuWorkerLike = WorkerPort<CpuWorkerRequest>;

export class CpuEngine implements Engine {
	readonly name = 'wllama';
	readonly #worker: WorkerClient<CpuWorkerRequest>;
	readonly #nCtx: number;
	readonly #nThreads: number | undefined;

	constructor(worker: CpuWorkerLike, opts: CpuEngineOptions = {}) {
		this.#worker = new WorkerClient(worker, 'CPU engine worker');
		this.#nCtx = opts.n_ctx ?? DEFAULT_N_CTX;
		this.#nThreads = opts.n_threads;
	}

	capabilities(): EngineCapabilities {
		return {
			json_schema: true,
			streaming: true,
			// One CPU: a second request in flight only competes for the same cores.
			max_concurrency: 1,
			can_co_load: cpuCanCoLoad
		};
	}

	async load(
		models: string[],
		opts: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {}
	): Promise<void> {
		await this.#request(
			'load',
			{ models, n_ctx: this.#nCtx, n_threads: this.#nThreads },
			{ signal: opts.signal, onProgress: opts.onProgress }
		);
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

	/** Is the GGUF file fully in the browser's model cache? */
	async isCached(model: string): Promise<boolean> {
		const res = (await this.#request('cacheQuery', { op: 'has', model })) as CacheQueryResult;
		return res.cached === true;
	}

	async deleteCached(model: string): Promise<void> {
		await this.#request('cacheQuery', { op: 'delete', model });
	}

	async cacheSizes(model: string): Promise<CacheSizes> {
		const res = (await this.#request('cacheQuery', { op: 'sizes', model })) as CacheQueryResult;
		return res.sizes ?? { model };
	}

	stats(): Promise<CpuWorkerStats> {
		return this.#request('stats', {}) as Promise<CpuWorkerStats>;
	}

	terminate(): void {
		this.#worker.terminate();
	}

	#request<K extends CpuRequestKind>(
		kind: K,
		body: Body<K>,
		hooks: RequestHooks = {}
	): Promise<unknown> {
		return this.#worker.request(kind, body, hooks);
	}
}

/**
 * Start the CPU worker and wrap it. Creating the Worker is what downloads wllama. The threads are
 * this page's plan (what set-up shows), unless `opts` names a count.
 */
export function createCpuEngine(opts: CpuEngineOptions = {}): CpuEngine {
	const worker = new Worker(new URL('../../../workers/cpu.worker.ts', import.meta.url), {
		type: 'module',
		name: 'cpu-engine'
	});
	const n_threads = opts.n_threads ?? cpuThreads(threadFactsHere()).threads;
	return new CpuEngine(worker as unknown as CpuWorkerLike, { ...opts, n_threads });
}
