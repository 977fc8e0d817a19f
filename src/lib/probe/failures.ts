/**
 * How a failure counts for a run: a stop asked for, one spoiled item, or fatal (and then whether
 * the same config can resume), and how it is described in an `error` event.
 */
import { describeError, type ErrorDescription } from '../errors/describe.ts';
import { EngineError } from './engine.ts';
import type { ProbeEventOf, Stage } from './events.ts';
import {
	isStorageFull,
	StorageFullError,
	STORAGE_FULL_MESSAGE,
	STORAGE_FULL_RECOVERY
} from './storageFull.ts';

/** Errors that spoil one item (too long for the model) but not the run. */
const PER_ITEM_CODES = new Set(['context_window']);

/** A stop request; Dexie also names a transaction aborted by a full disk AbortError. */
export function isAbort(err: unknown): boolean {
	return err instanceof Error && err.name === 'AbortError' && !isStorageFull(err);
}

export function isPerItem(err: unknown): boolean {
	return err instanceof EngineError && PER_ITEM_CODES.has(err.code);
}

/** The run pauses (stored work stays, the same config resumes) rather than fails. */
export function isResumable(err: unknown): boolean {
	if (isStorageFull(err)) return true;
	return (
		err instanceof EngineError &&
		(err.retryable ||
			err.code === 'device_lost' ||
			err.code === 'network' ||
			err.code === 'timeout')
	);
}

/** describeError, except that a full disk is named as such whatever wrapper it arrived in. */
export function describeFailure(err: unknown): ErrorDescription {
	if (err instanceof StorageFullError)
		return { name: err.name, message: err.message, recovery: err.recovery };
	if (isStorageFull(err)) {
		return {
			name: 'QuotaExceededError',
			message: STORAGE_FULL_MESSAGE,
			recovery: STORAGE_FULL_RECOVERY
		};
	}
	return describeError(err);
}

/** Where a failure happened, so its report names the stage (not always `load`). */
export interface FailureSite {
	stage: Stage | 'load';
	item_id?: string;
	key?: string;
}

/**
 * A run's first fatal failure. Tasks failing together each throw; the first (the cause) is held,
 * every other task stops with it, and it alone is reported.
 */
export class FatalLatch {
	#error: unknown = null;
	#at: FailureSite = { stage: 'load' };

	get held(): boolean {
		return this.#error !== null;
	}

	/** The held failure, else `fallback`. */
	or(fallback: unknown): unknown {
		return this.#error ?? fallback;
	}

	hold(err: unknown, at: FailureSite = { stage: 'load' }): void {
		if (this.#error !== null) return;
		this.#error = err;
		this.#at = at;
	}

	/** @throws the held failure, or an AbortError once `signal` is aborted. */
	throwIfStopped(signal: AbortSignal): void {
		if (this.#error !== null) throw this.#error;
		if (signal.aborted) throw new DOMException('The run was stopped.', 'AbortError');
	}

	/** The fatal `error` event for `err`, at the site it was held at (else `load`). */
	report(err: unknown): ProbeEventOf<'error'> {
		const at = this.#error === err ? this.#at : { stage: 'load' as const };
		return { type: 'error', ...at, ...describeFailure(err), fatal: true };
	}
}
