/**
 * What the two engines that run on this device (web-llm, and wllama on the CPU) share on the page
 * side: every Engine call and cache query is forwarded to their worker (WorkerClient) the same way,
 * over protocols with the same kinds. Each subclass says how it loads and what it can do.
 */
import type { CompletionRequest, CompletionResult, JsonChatRequest } from '../../probe/engine.ts';
import type { AdviceTable } from './errors.ts';
import type { CacheOp, CacheQueryResult, CacheSizes } from './protocol.ts';
import { WorkerClient, type WorkerPort } from './client.ts';

export abstract class WorkerEngine<Req extends { kind: string; id: number }> {
	protected worker: WorkerClient<Req>;
	readonly #what: string;
	readonly #advice: AdviceTable | undefined;

	/**
	 * @param what names the worker in the error a crash gives, e.g. "engine worker".
	 * @param advice how this engine words its worker's uncoded errors (errors.ts).
	 */
	constructor(port: WorkerPort<Req>, what: string, advice?: AdviceTable) {
		this.#what = what;
		this.#advice = advice;
		this.worker = new WorkerClient(port, what, advice);
	}

	/**
	 * Stop the worker, then start another from `spawn` (stopped first: never two alive at once).
	 * Calls pending on the old one reject with AbortError.
	 */
	protected restartWorker(spawn: () => WorkerPort<Req>): void {
		this.worker.terminate();
		this.worker = new WorkerClient(spawn(), this.#what, this.#advice);
	}

	/** A cache query's body: its op and model, and whatever else this worker needs to answer. */
	protected cacheQuery(op: CacheOp, model: string): object {
		return { op, model };
	}

	async unload(): Promise<void> {
		await this.worker.request('unload', {});
	}

	/** @throws EngineError, AbortError when `req.signal` fires. */
	complete(req: CompletionRequest): Promise<CompletionResult> {
		return this.worker.complete(req);
	}

	chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		return this.worker.chatJson(req);
	}

	/** Is all of the model in this browser's cache (nothing to download)? */
	async isCached(model: string): Promise<boolean> {
		return (await this.#cacheQuery('has', model)).cached === true;
	}

	/** Delete the model's files from the cache. */
	async deleteCached(model: string): Promise<void> {
		await this.#cacheQuery('delete', model);
	}

	async cacheSizes(model: string): Promise<CacheSizes> {
		return (await this.#cacheQuery('sizes', model)).sizes ?? { model };
	}

	/** Stop the worker and free its memory; pending calls reject with AbortError. */
	terminate(): void {
		this.worker.terminate();
	}

	#cacheQuery(op: CacheOp, model: string): Promise<CacheQueryResult> {
		return this.worker.request(
			'cacheQuery',
			this.cacheQuery(op, model)
		) as Promise<CacheQueryResult>;
	}
}
