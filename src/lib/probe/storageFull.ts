/**
 * Storage full: IndexedDB refuses a write with a QuotaExceededError, which Dexie may wrap (an
 * AbortError of the transaction, with the cause in `inner`). Such a run is paused, not failed:
 * once space is freed, Resume continues with nothing lost.
 */
import { AppError } from '../errors/appError.ts';

/**
 * A store's own full-disk error (the CLI's files): its message names the file and the space it
 * needs, which the browser's generic wording cannot.
 */
export class StorageFullError extends AppError {
	constructor(message: string, recovery: string, options?: { cause?: unknown }) {
		super(message, { ...options, code: 'storage_full', recovery });
		this.name = 'StorageFullError';
	}
}

/**
 * Whether `err`, or an error it wraps (`inner`, `cause`), is the browser's QuotaExceededError or
 * a store's StorageFullError.
 */
export function isStorageFull(err: unknown): boolean {
	let e: unknown = err;
	for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
		const name = (e as { name?: unknown }).name;
		if (name === 'QuotaExceededError' || name === 'StorageFullError') return true;
		const next = e as { inner?: unknown; cause?: unknown };
		e = next.inner ?? next.cause;
	}
	return false;
}

export const STORAGE_FULL_MESSAGE =
	"The browser's storage for this site is full: the last record could not be saved.";
export const STORAGE_FULL_RECOVERY =
	'Free some space, then Resume: everything stored so far is kept.';
