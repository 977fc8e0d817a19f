/**
 * The base every named error of this app extends, so that any shell (a view, the CLI, the
 * worker protocol) reads what to do next through one type instead of probing for fields.
 *
 * Each subclass sets `this.name` itself: the production build minifies class names, and the name
 * is what survives a worker boundary and what tests and logs match on.
 */

export interface AppErrorOptions {
	/** A stable, machine-readable kind ("http", "dataset", "usage"); defaults to "error". */
	code?: string;
	/** What the person can do about it, in plain words; empty when there is nothing to add. */
	recovery?: string;
	/** Trying the same thing again later may succeed (a 429, a 5xx, a dropped connection). */
	retryable?: boolean;
	cause?: unknown;
}

export class AppError extends Error {
	readonly code: string;
	readonly recovery: string;
	readonly retryable: boolean;
	constructor(message: string, opts: AppErrorOptions = {}) {
		super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
		this.name = 'AppError';
		this.code = opts.code ?? 'error';
		this.recovery = opts.recovery ?? '';
		this.retryable = opts.retryable ?? false;
	}
}

/**
 * A stop the person (or the caller's AbortSignal) asked for. Not an engine failure: the network,
 * NLP and dataset loaders and the benchmark throw it too, and nothing should offer to retry it.
 */
export class AbortError extends AppError {
	constructor(message = 'The request was cancelled.') {
		super(message, { code: 'aborted' });
		this.name = 'AbortError';
	}
}
