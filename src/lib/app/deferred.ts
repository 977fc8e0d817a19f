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
 * Every method name of T, as a Record so the compiler says when one is missing or unknown. The
 * stand-in has exactly these methods: code that tests for an optional one (the pipeline asks a
 * RunStore for getResumeRecords) sees what the real object has, not a method for every name.
 */
export type MethodNames<T> = Record<keyof AsyncMethods<T>, true>;

/**
 * @param load called on every call; it should cache its result (and forget a failed load, so the
 * next call tries again).
 */
export function deferred<T extends object>(
	load: () => Promise<T>,
	methods: MethodNames<T>
): AsyncMethods<T> {
	const standIn: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
	for (const name of Object.keys(methods)) {
		standIn[name] = async (...args) => {
			const real = (await load()) as Record<string, (...args: unknown[]) => Promise<unknown>>;
			return real[name](...args);
		};
	}
	return Object.freeze(standIn) as AsyncMethods<T>;
}
