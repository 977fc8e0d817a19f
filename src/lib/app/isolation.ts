/**
 * The page's side of cross-origin isolation (the service worker's side: src/lib/sw/isolation.ts):
 * what state this load is in, the one reload that isolates a first visit, and the switch.
 *
 * A first visit is never isolated: the page arrived before the service worker that adds the
 * headers. The page never reloads itself while it is being read (issue 39: it used to, ~24 s into
 * a slow first visit, as soon as the worker took over). Isolation comes on the next visit, which
 * the worker serves, or just before the CPU engine starts, the one thing threads are for: the run
 * is stored, the page reloads once into it (at most once per tab: sessionStorage, so a browser
 * that ignores the headers never loops) and the run view starts it there. Set-up says so.
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
		controlled: controlledAtLoad ?? sw?.controller != null,
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

/** Whether this page load came through a service worker (noted by main.ts before anything). */
let controlledAtLoad: boolean | undefined;

/** From main.ts, first thing: a worker that takes over later does not make this load isolated. */
export function noteLoad(): void {
	controlledAtLoad =
		typeof navigator !== 'undefined' && navigator.serviceWorker?.controller != null;
}

/** Whether this load came through a service worker, as noteLoad() saw it (now, if never noted). */
export function loadWasControlled(): boolean {
	return (
		controlledAtLoad ??
		(typeof navigator !== 'undefined' && navigator.serviceWorker?.controller != null)
	);
}

export interface ReloadFacts {
	isolated: boolean;
	/** This load came through the service worker: reloading again would change nothing. */
	controlledAtLoad: boolean;
	/** A service worker controls the page now (it took over after the load): a reload is its. */
	controlledNow: boolean;
	/** This tab already reloaded itself for isolation. */
	reloadedBefore: boolean;
	off: boolean;
	/** Isolated, the CPU engine would run more threads on this device than it does now. */
	moreThreads: boolean;
}

/**
 * Reload for isolation only where the reload is the worker's and adds threads, once per tab, never
 * when isolation is off. Asked only as the CPU engine is about to start, never while a page is read.
 */
export function shouldReloadForIsolation(f: ReloadFacts): boolean {
	return (
		!f.isolated &&
		!f.controlledAtLoad &&
		f.controlledNow &&
		!f.reloadedBefore &&
		!f.off &&
		f.moreThreads
	);
}

/** Set in this tab's sessionStorage to the run the reload is for; the run view starts it. */
const START_KEY = 'isolation-start';

/**
 * The CPU engine is about to start `runId` (stored whole): when a reload would isolate the page,
 * reload into the run's view, which starts it there (takeIsolationStart), and return true.
 * @returns false when the run should start here and now.
 */
export async function reloadToIsolate(runId: string, runHash: string): Promise<boolean> {
	if (typeof navigator === 'undefined' || typeof location === 'undefined') return false;
	const state = await readIsolation();
	try {
		const facts: ReloadFacts = {
			isolated: state.isolated,
			controlledAtLoad: state.controlled,
			controlledNow: navigator.serviceWorker?.controller != null,
			reloadedBefore: sessionStorage.getItem(RELOADED_KEY) !== null,
			off: state.off,
			moreThreads: isolationWhy(state).could > 1
		};
		if (!shouldReloadForIsolation(facts)) return false;
		sessionStorage.setItem(RELOADED_KEY, '1');
		sessionStorage.setItem(START_KEY, runId);
	} catch {
		// No sessionStorage (a sandboxed frame): without the guard, no reload; the run starts as is.
		return false;
	}
	history.replaceState(history.state, '', runHash);
	location.reload();
	return true;
}

/** The run view, on opening `runId`: whether the isolation reload was made to start it (once). */
export function takeIsolationStart(runId: string): boolean {
	try {
		if (sessionStorage.getItem(START_KEY) !== runId) return false;
		sessionStorage.removeItem(START_KEY);
		return true;
	} catch {
		return false;
	}
}
