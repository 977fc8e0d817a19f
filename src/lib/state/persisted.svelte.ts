/**
 * A preference that survives reloads: rune state mirrored to localStorage as JSON (after
 * site-kit's Persisted.svelte.ts). Reading happens when the object is made, never at import time.
 * A value of the wrong type in storage (an old version, a hand edit) is ignored for the fallback.
 */

/** The slice of Storage used here; tests pass a Map-backed fake. */
export interface KeyValueStorage {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
	removeItem(key: string): void;
}

/** localStorage, or undefined where it is missing or throws (privacy modes, sandboxed frames). */
export function browserStorage(): KeyValueStorage | undefined {
	try {
		return typeof localStorage === 'undefined' ? undefined : localStorage;
	} catch {
		return undefined;
	}
}

export class Persisted<T> {
	readonly #key: string;
	readonly #storage: KeyValueStorage | undefined;
	#value: T;

	constructor(key: string, fallback: T, storage: KeyValueStorage | undefined = browserStorage()) {
		this.#key = key;
		this.#storage = storage;
		this.#value = $state(read(storage, key, fallback));
	}

	get current(): T {
		return this.#value;
	}

	set current(value: T) {
		this.#value = value;
		try {
			this.#storage?.setItem(this.#key, JSON.stringify(value));
		} catch {
			// Quota or disabled storage: the value still holds for this session.
		}
	}

	/** Forget the stored value (the state keeps its current value for this session). */
	forget(): void {
		try {
			this.#storage?.removeItem(this.#key);
		} catch {
			// Nothing stored, nothing to do.
		}
	}
}

function read<T>(storage: KeyValueStorage | undefined, key: string, fallback: T): T {
	try {
		const raw = storage?.getItem(key);
		if (raw == null) return fallback;
		const value: unknown = JSON.parse(raw);
		return sameShape(value, fallback) ? (value as T) : fallback;
	} catch {
		return fallback;
	}
}

function sameShape(value: unknown, fallback: unknown): boolean {
	if (fallback === null) return true;
	if (Array.isArray(fallback)) return Array.isArray(value);
	return typeof value === typeof fallback && value !== null;
}
