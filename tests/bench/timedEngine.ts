/**
 * Wraps an engine and adds up the time spent inside it, so the bench can subtract model time and
 * keep only what the app adds. Only valid for an engine that does all its work synchronously inside
 * the call (the zero-latency scripted engine): then the time from call to returned promise is the
 * engine's CPU time, and nothing else can run in between. Time spent in the pipeline's onToken
 * callback is the app's, so it is taken back out.
 */
import type {
	CompletionRequest,
	CompletionResult,
	Engine,
	EngineCapabilities,
	JsonChatRequest,
	LoadProgress
} from '../../src/lib/probe/engine.ts';

export class TimedEngine implements Engine {
	readonly name: string;
	/** Milliseconds spent inside the wrapped engine's complete() and chatJson(). */
	engineMs = 0;
	readonly #inner: Engine;
	readonly #now: () => number;

	constructor(inner: Engine, now: () => number = () => performance.now()) {
		this.#inner = inner;
		this.name = inner.name;
		this.#now = now;
	}

	capabilities(): EngineCapabilities {
		return this.#inner.capabilities();
	}

	load(
		models: string[],
		opts?: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void }
	): Promise<void> {
		return this.#inner.load(models, opts);
	}

	unload(): Promise<void> {
		return this.#inner.unload();
	}

	complete(req: CompletionRequest): Promise<CompletionResult> {
		let callbackMs = 0;
		const onToken = req.onToken;
		const timedOnToken = onToken
			? (delta: string) => {
					const t = this.#now();
					onToken(delta);
					callbackMs += this.#now() - t;
				}
			: undefined;
		const t0 = this.#now();
		const pending = this.#inner.complete({ ...req, onToken: timedOnToken });
		this.engineMs += this.#now() - t0 - callbackMs;
		return pending;
	}

	chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		const t0 = this.#now();
		const pending = this.#inner.chatJson(req);
		this.engineMs += this.#now() - t0;
		return pending;
	}
}
