/**
 * A stand-in for an object whose members are all async methods, usable before the object exists:
 * each call waits for `load` and then calls the real method. The app's stores are handed out this
 * way, so a view can hold one synchronously while Dexie and the store code load on the first call,
 * after the view has painted, instead of before it.
 */

/** The async methods of T (a class's #private fields are not in keyof, so they drop out). */
export type AsyncMethods<T> = {
	[K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R>
		? (...args: A) => Promise<R>
		: never;
};

/**
 * @param load called on every call; it should cache its result (and forget a failed load, so the
 * next call tries again).
 * @note The stand-in has no own keys and a null prototype: Svelte's $state does not proxy it, and
 * `await` does not take it for a promise (it has no `then`).
 */
export function deferred<T extends object>(load: () => Promise<T>): AsyncMethods<T> {
	const target = Object.create(null) as object;
	return new Proxy(target, {
		get(_, key) {
			if (typeof key === 'symbol' || key === 'then') return undefined;
			return async (...args: unknown[]) => {
				const real = await load();
				const method: unknown = Reflect.get(real, key);
				if (typeof method !== 'function')
					throw new TypeError(`No method ${key} on the loaded object.`);
				return method.apply(real, args) as unknown;
			};
		}
	}) as AsyncMethods<T>;
}
