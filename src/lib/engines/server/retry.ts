/**
 * Which OpenAI-server failures are transient: 429, 5xx, dropped connections, broken or stalled
 * streams. The waiting itself is the shared policy in ../../net/retry.ts.
 */
import { EngineError } from '../../probe/engine.ts';

/** An HTTP failure; `retryAfterMs` is the server's Retry-After, when it sent one we could read. */
export class HttpError extends EngineError {
	readonly status: number;
	readonly retryAfterMs?: number;
	constructor(status: number, message: string, recovery: string, retryAfterMs?: number) {
		super('http', message, recovery, status === 429 || status >= 500);
		this.name = 'HttpError';
		this.status = status;
		this.retryAfterMs = retryAfterMs;
	}
}

/**
 * Only transient failures. A timeout is retried only when it is marked retryable, which the
 * engine does for a stream that went silent mid-reply; a server that never answers is not retried
 * (a stuck server would otherwise stall a run for minutes before saying so).
 */
export function isRetryable(err: unknown): err is EngineError {
	return (
		err instanceof EngineError &&
		err.retryable &&
		(err.code === 'http' || err.code === 'network' || err.code === 'timeout')
	);
}

/** The shared loop's classifier for engine errors. */
export function classifyEngineError(err: unknown): false | { retryAfterMs?: number } {
	if (!isRetryable(err)) return false;
	return { retryAfterMs: err instanceof HttpError ? err.retryAfterMs : undefined };
}
