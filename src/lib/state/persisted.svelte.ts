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
	/** A value was read from storage or set: the user's choice, which defaults never override. */
	#chosen = $state(false);

	/**
	 * @param parse migrates a stored value on read (an older vocabulary, say); undefined rejects it
	 *   for the fallback. The stored copy is rewritten only when the value is next set.
	 */
	constructor(
		key: string,
		fallback: T,
		storage: KeyValueStorage | undefined = browserStorage(),
		parse?: (stored: T) => T | undefined
	) {
		this.#key = key;
		this.#storage = storage;
		const stored = read(storage, key, fallback, parse);
		this.#chosen = stored !== null;
		this.#value = $state(stored === null ? fallback : stored.value);
	}

	/** Whether the value is a choice (stored or set), not the fallback. */
	get chosen(): boolean {
		return this.#chosen;
	}

	get current(): T {
		return this.#value;
	}

	set current(value: T) {
		this.#value = value;
		this.#chosen = true;
		try {
			this.#storage?.setItem(this.#key, JSON.stringify(value));
		} catch {
			// Quota or disabled storage: the value still holds for this session.
		}
	}

	/** Write the current value, after it was changed in place (bound object fields). */
	save(): void {
		this.current = $state.snapshot(this.#value) as T;
	}

	/**
	 * A better fallback learned after construction (e.g. from the device). It applies only while
	 * nothing was chosen, and it is not written: the next visit decides again.
	 */
	preferDefault(value: T): void {
		if (!this.#chosen) this.#value = value;
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

/** The stored value, or null when nothing usable is stored. */
function read<T>(
	storage: KeyValueStorage | undefined,
	key: string,
	fallback: T,
	parse?: (stored: T) => T | undefined
): { value: T } | null {
	try {
		const raw = storage?.getItem(key);
		if (raw == null) return null;
		const value: unknown = JSON.parse(raw);
		if (!sameShape(value, fallback)) return null;
		if (parse) {
			const parsed = parse(value as T);
			return parsed === undefined ? null : { value: parsed };
		}
		// Objects gain fields over versions: keep the new defaults for fields an old value lacks.
		return {
			value:
				isPlainObject(fallback) && isPlainObject(value)
					? ({ ...fallback, ...value } as T)
					: (value as T)
		};
	} catch {
		return null;
	}
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
	return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function sameShape(value: unknown, fallback: unknown): boolean {
	if (fallback === null) return true;
	if (Array.isArray(fallback)) return Array.isArray(value);
	return typeof value === typeof fallback && value !== null;
}
