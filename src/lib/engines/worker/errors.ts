/**
 * Errors across a worker boundary. The worker flattens what it caught into a WireError, keeping
 * the class as `name` (and an AppError's code, recovery and retryable); the page rebuilds a typed
 * EngineError. An error without a code is worded from its engine's advice table: the class name
 * decides, then the message (for plain Errors and errors that arrive pre-stringified, as
 * "DeviceLostError: …").
 */
import { EngineError, type EngineErrorCode } from '../../probe/engine.ts';
import { AbortError, AppError } from '../../errors/appError.ts';
import { HUB_BLOCKED_RECOVERY } from '../../errors/hubBlocked.ts';
import type { WireError } from './protocol.ts';

export interface Advice {
	code: EngineErrorCode;
	message: string;
	recovery: string;
	retryable?: boolean;
}

/** How an engine words the uncoded errors its worker sends. */
export interface AdviceTable {
	/** Error class names (the library's own, DOMException names). */
	byName: Record<string, Advice>;
	/** Message patterns, tried in order, when no name matched. */
	byMessage: [RegExp, Advice][];
}

/** What any worker in a browser meets: the storage quota and the network. */
export const BROWSER_ADVICE = {
	quota_exceeded: {
		code: 'quota_exceeded',
		message: 'The browser ran out of storage space for model files.',
		recovery: 'Free space: delete cached models you no longer use, then retry.'
	},
	network: {
		code: 'network',
		message: 'Downloading the model files from Hugging Face (huggingface.co) failed.',
		recovery: HUB_BLOCKED_RECOVERY,
		retryable: true
	}
} as const satisfies Record<string, Advice>;

export const NETWORK_FAILURE =
	/Failed to fetch|NetworkError|Load failed|Network response was not ok|Unable to fetch|Cannot fetch|Request failed|ERR_(INTERNET|NETWORK|CONNECTION)/i;

/** The table for an engine with no advice of its own: quota and network failures only. */
export const BROWSER_TABLE: AdviceTable = {
	byName: {
		QuotaExceededError: BROWSER_ADVICE.quota_exceeded,
		NetworkError: BROWSER_ADVICE.network
	},
	byMessage: [
		[/quota/i, BROWSER_ADVICE.quota_exceeded],
		[NETWORK_FAILURE, BROWSER_ADVICE.network]
	]
};

/** "DeviceLostError: The WebGPU device…" → "DeviceLostError", for errors that arrive as strings. */
const NAME_PREFIX = /^([A-Z][A-Za-z0-9]*Error):\s/;

/** Flatten anything thrown into a postMessage-safe shape, keeping the class as `name`. */
export function toWireError(err: unknown): WireError {
	if (err instanceof AppError) {
		return {
			name: err.name,
			message: err.message,
			code: err.code,
			recovery: err.recovery,
			retryable: err.retryable
		};
	}
	if (err instanceof Error || isErrorLike(err)) {
		return { name: err.name || 'Error', message: String(err.message) };
	}
	return { name: 'Error', message: String(err) };
}

function isErrorLike(err: unknown): err is { name: string; message: string } {
	return typeof err === 'object' && err !== null && 'message' in err && 'name' in err;
}

/**
 * Rebuild a typed EngineError from a wire error. The original text stays in the message after the
 * plain-language summary, because people report bugs by pasting it.
 */
export function fromWireError(
	wire: WireError,
	table: AdviceTable = BROWSER_TABLE
): EngineError | AbortError {
	if (wire.name === 'AbortError' || wire.code === 'aborted') return new AbortError(wire.message);
	if (wire.code) {
		const err = new EngineError(
			wire.code as EngineErrorCode,
			wire.message,
			wire.recovery ?? '',
			wire.retryable ?? false
		);
		// The worker's own class name (an EngineError subclass) is what the view and the logs show.
		err.name = wire.name;
		return err;
	}
	const prefixed = NAME_PREFIX.exec(wire.message)?.[1];
	if (prefixed === 'AbortError') return new AbortError();
	const advice =
		table.byName[wire.name] ??
		(prefixed ? table.byName[prefixed] : undefined) ??
		table.byMessage.find(([pattern]) => pattern.test(wire.message))?.[1];
	if (!advice) {
		return new EngineError(
			'unknown',
			`${wire.name}: ${wire.message}`,
			'Reload the page and retry.'
		);
	}
	const detail = wire.message ? ` (${wire.name}: ${wire.message})` : '';
	return new EngineError(
		advice.code,
		advice.message + detail,
		advice.recovery,
		advice.retryable ?? false
	);
}

/** For errors caught on the page side (worker crash, postMessage failure). */
export function caughtError(
	err: unknown,
	table: AdviceTable = BROWSER_TABLE
): EngineError | AbortError {
	if (err instanceof EngineError || err instanceof AbortError) return err;
	return fromWireError(toWireError(err), table);
}
