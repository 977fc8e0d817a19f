/**
 * Many requests share one long-lived signal (the run's). Each listening on it directly puts one
 * listener per request in flight on it, and Node warns past ten ("possible memory leak"). Here a
 * signal carries one listener while anyone waits on it, which calls every waiter, and none after.
 */

interface Waiters {
	fns: Set<() => void>;
	fire: () => void;
}

const bySignal = new WeakMap<AbortSignal, Waiters>();

/** Call `fn` once when `signal` aborts; returns the unsubscribe. The signal must not be aborted. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
	let w = bySignal.get(signal);
	if (!w) {
		const fns = new Set<() => void>();
		const fire = () => {
			bySignal.delete(signal);
			for (const f of fns) f();
		};
		w = { fns, fire };
		bySignal.set(signal, w);
		signal.addEventListener('abort', fire, { once: true });
	}
	const waiters = w;
	waiters.fns.add(fn);
	return () => {
		if (!waiters.fns.delete(fn) || waiters.fns.size > 0) return;
		if (bySignal.get(signal) !== waiters) return; // Already fired.
		bySignal.delete(signal);
		signal.removeEventListener('abort', waiters.fire);
	};
}
