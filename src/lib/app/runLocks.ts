/**
 * One tab runs a run: the tab driving a run holds a Web Lock named after it for as long as the
 * run is active (navigator.locks; the browser releases it when the tab closes or crashes). Other
 * tabs see the lock and follow the run read-only; once it is released they may resume.
 */
import { AppError } from '../errors/appError.ts';

/** The slice of the Web Locks API used here; tests and old browsers pass or lack it. */
export interface LocksLike {
	request(
		name: string,
		options: { ifAvailable?: boolean; signal?: AbortSignal },
		callback: (lock: unknown) => Promise<unknown> | unknown
	): Promise<unknown>;
	query(): Promise<{ held?: { name?: string }[]; pending?: { name?: string }[] }>;
}

export const LOCK_PREFIX = 'utp-run:';

export function lockName(runId: string): string {
	return `${LOCK_PREFIX}${runId}`;
}

/** navigator.locks, when this browser has it (all current ones do; not Node). */
export function browserLocks(): LocksLike | undefined {
	return (globalThis as { navigator?: { locks?: LocksLike } }).navigator?.locks;
}

/** The run is being run by another tab: it holds the run's lock. */
export class RunElsewhereError extends AppError {
	readonly run_id: string;
	constructor(runId: string) {
		super(`Run ${runId} is running in another tab. Follow it there, or close that tab first.`, {
			code: 'run_elsewhere'
		});
		this.name = 'RunElsewhereError';
		this.run_id = runId;
	}
}

/** The run's lock, held by this tab until `release` (a start that stops, or the run's end). */
export interface HeldRunLock {
	release(): void;
}

/**
 * Take the run's lock (the start's lock step): held until `release`, so no other tab starts the
 * run while this one checks it and runs it. Without Web Locks (Node, old browsers) there is
 * nothing to take.
 * @throws RunElsewhereError when another tab holds the lock.
 */
export function takeRunLock(
	runId: string,
	locks: LocksLike | undefined = browserLocks()
): Promise<HeldRunLock> {
	if (!locks) return Promise.resolve({ release: () => {} });
	return new Promise<HeldRunLock>((held, refused) => {
		let release = () => {};
		const released = new Promise<void>((done) => (release = done));
		locks
			.request(lockName(runId), { ifAvailable: true }, (lock) => {
				if (!lock) {
					refused(new RunElsewhereError(runId));
					return undefined;
				}
				held({ release });
				// Held until released: the browser lets it go by itself when the tab closes.
				return released;
			})
			.catch(refused);
	});
}

/**
 * Start `run` (its promise: until the run stops) holding `lock`, and let the lock go when it
 * stops, any way (run() reports its own failures as state).
 */
export function runHolding(lock: HeldRunLock, run: () => Promise<void>): void {
	void run()
		.catch(() => {})
		.finally(() => lock.release());
}

/** Ids of the runs some tab of this browser (this one included) is running now. */
export async function heldRuns(locks: LocksLike | undefined = browserLocks()): Promise<string[]> {
	if (!locks) return [];
	const state = await locks.query().catch(() => ({ held: [] }));
	return (state.held ?? [])
		.map((l) => l.name ?? '')
		.filter((n) => n.startsWith(LOCK_PREFIX))
		.map((n) => n.slice(LOCK_PREFIX.length));
}

/**
 * Resolves when no tab holds the run's lock any more (the running tab stopped, closed or
 * crashed). It queues for the lock and lets go at once, so it never keeps a run from starting
 * for longer than a microtask. `signal` stops waiting (the promise then never resolves).
 */
export function whenReleased(
	runId: string,
	signal: AbortSignal,
	locks: LocksLike | undefined = browserLocks()
): Promise<void> {
	if (!locks) return Promise.resolve();
	return new Promise<void>((released) => {
		// Resolve on the request's own promise, which settles after our brief hold is released:
		// a query() made then no longer sees this tab holding the lock.
		locks
			.request(lockName(runId), { signal }, () => undefined)
			.then(
				() => released(),
				() => {}
			);
	});
}
