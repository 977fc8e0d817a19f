/**
 * The page side of an engine worker, shared by the web-llm and CPU (wllama) engines, whose
 * protocols share their replies (protocol.ts): every request gets exactly one terminal reply
 * (result or error), with token and progress events on the way. An abort rejects at once (cancel
 * must feel instant) and tells the worker; its late reply is dropped. A worker that dies fails
 * every pending and later call with the same error.
 */
import {
	EngineError,
	type CompletionRequest,
	type CompletionResult,
	type JsonChatRequest,
	type LoadProgress
} from '../../probe/engine.ts';
import { AbortError } from '../../errors/appError.ts';
import { BROWSER_TABLE, fromWireError, type AdviceTable } from './errors.ts';
import { isWorkerReply, type WorkerReply } from './protocol.ts';

/** A Worker, or any port that behaves like one (tests pass an in-memory pair). */
export interface WorkerPort<Req> {
	postMessage(message: Req): void;
	addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
	addEventListener(type: 'error', listener: (event: { message?: string }) => void): void;
	terminate(): void;
}

export interface RequestHooks {
	signal?: AbortSignal;
	onToken?: (delta: string) => void;
	onProgress?: (p: LoadProgress) => void;
}

interface Pending {
	resolve: (value: unknown) => void;
	reject: (err: EngineError | AbortError) => void;
	onToken?: (delta: string) => void;
	onProgress?: (p: LoadProgress) => void;
}

export class WorkerClient<Req extends { kind: string; id: number }> {
	readonly #worker: WorkerPort<Req>;
	readonly #pending = new Map<number, Pending>();
	#nextId = 1;
	/** Set once the worker died: every later call fails fast with this. */
	#broken: EngineError | AbortError | null = null;
	readonly #advice: AdviceTable;

	/**
	 * @param what names the worker in the error a crash gives, e.g. "engine worker".
	 * @param advice how this engine words the uncoded errors its worker sends (errors.ts).
	 */
	constructor(worker: WorkerPort<Req>, what: string, advice: AdviceTable = BROWSER_TABLE) {
		this.#worker = worker;
		this.#advice = advice;
		worker.addEventListener('message', (event) => this.#onReply(event.data));
		worker.addEventListener('error', (event) =>
			this.#die(
				new EngineError(
					'unknown',
					`The ${what} stopped${event.message ? `: ${event.message}` : '.'}`,
					'Reload the page; the run pauses and resumes where it stopped.'
				)
			)
		);
	}

	/** Send one request; resolves with the worker's result. */
	request(kind: Req['kind'], body: object, hooks: RequestHooks = {}): Promise<unknown> {
		if (this.#broken) return Promise.reject(this.#broken);
		const { signal, ...callbacks } = hooks;
		if (signal?.aborted) return Promise.reject(new AbortError());
		const id = this.#nextId++;
		return new Promise((resolve, reject) => {
			const onAbort = () => {
				if (!this.#pending.delete(id)) return;
				this.#post({ kind: 'abort', id: this.#nextId++, target: id } as unknown as Req);
				reject(new AbortError());
			};
			const settle = () => signal?.removeEventListener('abort', onAbort);
			this.#pending.set(id, {
				resolve: (value) => {
					settle();
					resolve(value);
				},
				reject: (err) => {
					settle();
					reject(err);
				},
				...callbacks
			});
			signal?.addEventListener('abort', onAbort, { once: true });
			this.#post({ kind, id, ...body } as Req);
		});
	}

	/**
	 * The Engine's complete() over the worker. Callbacks stay on this side (a function cannot be
	 * posted); retries are the worker's own, so onRetry is never called.
	 * @throws EngineError (worded by the advice table), AbortError when `req.signal` fires.
	 */
	complete(req: CompletionRequest): Promise<CompletionResult> {
		const { signal, onToken, onRetry: _onRetry, ...wire } = req;
		if (!Number.isSafeInteger(wire.seed)) {
			return Promise.reject(
				new EngineError(
					'unknown',
					`The seed must be an integer, got ${wire.seed}.`,
					'Use an integer seed.'
				)
			);
		}
		return this.request(
			'complete',
			{ req: wire },
			{ signal, onToken }
		) as Promise<CompletionResult>;
	}

	/** The Engine's chatJson() over the worker. */
	chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		const { signal, ...wire } = req;
		return this.request('chatJson', { req: wire }, { signal }) as Promise<CompletionResult>;
	}

	/** Stop the worker; pending calls reject with AbortError. */
	terminate(): void {
		this.#die(new AbortError('The engine was shut down.'));
		this.#worker.terminate();
	}

	#post(msg: Req): void {
		try {
			this.#worker.postMessage(msg);
		} catch (err) {
			this.#pending
				.get(msg.id)
				?.reject(fromWireError({ name: 'DataCloneError', message: String(err) }, this.#advice));
			this.#pending.delete(msg.id);
		}
	}

	#onReply(data: unknown): void {
		if (!isWorkerReply(data)) return;
		const msg: WorkerReply = data;
		const pending = this.#pending.get(msg.id);
		if (!pending) return;
		switch (msg.kind) {
			case 'token':
				return pending.onToken?.(msg.delta);
			case 'progress':
				return pending.onProgress?.(msg.progress);
			case 'result':
				this.#pending.delete(msg.id);
				return pending.resolve(msg.value);
			case 'error':
				this.#pending.delete(msg.id);
				return pending.reject(fromWireError(msg.error, this.#advice));
		}
	}

	#die(err: EngineError | AbortError): void {
		this.#broken = err;
		for (const pending of this.#pending.values()) pending.reject(err);
		this.#pending.clear();
	}
}
