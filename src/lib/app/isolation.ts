/**
 * The page's side of cross-origin isolation (the service worker's side: src/lib/sw/isolation.ts):
 * what state this load is in, the one reload that isolates a first visit, and the switch.
 *
 * A first visit is never isolated: the page arrived before the service worker that adds the
 * headers. When that worker takes control, the visitor has not touched the page yet and the view
 * is one a reload cannot disturb (home or set-up, not an opening share link or a run), the page
 * reloads itself once (at most once per tab: sessionStorage), so nothing typed is lost and a
 * browser that ignores the headers never loops. Otherwise set-up says a reload is needed.
 */
import { cpuThreads, type ThreadPlan } from '../engines/cpu/threads.ts';
import { isolationOff, setIsolationOff, type CacheStorageLike } from '../sw/isolation.ts';

/** Set in this tab's sessionStorage when it reloaded itself to become isolated. */
const RELOADED_KEY = 'isolation-reloaded';

export interface IsolationState {
	/** `crossOriginIsolated`: SharedArrayBuffer, so threads. */
	isolated: boolean;
	/** The user turned isolation off. */
	off: boolean;
	/** A service worker can run here (a secure context; not Firefox's private windows). */
	serviceWorker: boolean;
	/** This page load came through the app's service worker. */
	controlled: boolean;
	/** navigator.hardwareConcurrency. */
	cores: number;
}

export type IsolationWhy =
	'isolated' | 'few-cores' | 'off' | 'reload' | 'browser-ignored' | 'no-service-worker';

/**
 * Why the CPU engine has the threads it has, and how many it would have isolated. A reason that
 * advises a reload or the switch ('reload', 'off') is given only where isolation would add threads.
 */
export function isolationWhy(s: IsolationState): {
	plan: ThreadPlan;
	why: IsolationWhy;
	could: number;
} {
	const plan = cpuThreads({ isolated: s.isolated, cores: s.cores });
	const could = cpuThreads({ isolated: true, cores: s.cores }).threads;
	if (plan.reason === 'isolated' || plan.reason === 'few-cores') {
		return { plan, why: plan.reason, could };
	}
	// Isolated or not, this device's thread rule keeps 1 thread: a reload or the switch changes
	// nothing, so neither is advised.
	if (could === 1) return { plan, why: 'few-cores', could };
	if (s.off) return { plan, why: 'off', could };
	if (!s.serviceWorker) return { plan, why: 'no-service-worker', could };
	return { plan, why: s.controlled ? 'browser-ignored' : 'reload', could };
}

function caches(): CacheStorageLike | undefined {
	return typeof globalThis.caches === 'undefined' ? undefined : globalThis.caches;
}

export async function readIsolation(): Promise<IsolationState> {
	const sw = typeof navigator !== 'undefined' ? navigator.serviceWorker : undefined;
	return {
		isolated: globalThis.crossOriginIsolated === true,
		off: await isolationOff(caches()),
		serviceWorker: sw !== undefined,
		controlled: sw?.controller != null,
		cores: (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) || 1
	};
}

/**
 * Turn isolation on or off for this site, then reload so the page is served accordingly.
 * @throws when Cache Storage refuses the write (the switch would not stick).
 */
export async function switchIsolation(on: boolean): Promise<void> {
	const storage = caches();
	if (!storage) throw new Error('This browser gives the page no Cache Storage to remember it in.');
	await setIsolationOff(storage, !on);
	location.reload();
}

export interface ReloadFacts {
	isolated: boolean;
	/** The visitor clicked or typed since the page loaded. */
	touched: boolean;
	/** This tab already reloaded itself for isolation. */
	reloadedBefore: boolean;
	off: boolean;
	/** location.hash: only home and set-up (no parameters) are views a reload cannot disturb. */
	hash: string;
}

const IDLE_VIEWS = new Set(['', '#', '#/', '#/setup']);

/** Reload only an untouched, unisolated idle view, once per tab, never when isolation is off. */
export function shouldReloadForIsolation(f: ReloadFacts): boolean {
	return !f.isolated && !f.touched && !f.reloadedBefore && !f.off && IDLE_VIEWS.has(f.hash);
}

/** From main.ts: the first visit's one reload, when the service worker takes control. */
export function reloadOnceWhenIsolatable(): void {
	const sw = navigator.serviceWorker;
	if (!sw || globalThis.crossOriginIsolated) return;
	let touched = false;
	const touch = () => (touched = true);
	for (const type of ['pointerdown', 'keydown', 'input', 'change']) {
		addEventListener(type, touch, { once: true, capture: true });
	}
	sw.addEventListener('controllerchange', async () => {
		try {
			const facts: ReloadFacts = {
				isolated: globalThis.crossOriginIsolated === true,
				touched,
				reloadedBefore: sessionStorage.getItem(RELOADED_KEY) !== null,
				off: await isolationOff(caches()),
				hash: location.hash
			};
			if (!shouldReloadForIsolation(facts)) return;
			sessionStorage.setItem(RELOADED_KEY, '1');
			location.reload();
		} catch {
			// No sessionStorage (a sandboxed frame): without the guard, no reload; set-up says to.
		}
	});
}
