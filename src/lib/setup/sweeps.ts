/**
 * Which stored runs make one sweep (several generator models, one set-up), in localStorage beside
 * each run's launch: a reload mid-sweep finds the sweep from any of its runs and continues it.
 * Each run is an ordinary stored run; the sweep only says their order.
 */
/** One key per run, so a run finds its sweep in one read. */
const SWEEP_PREFIX = 'utp:sweep-of:';

/** A model set-up left out of the sweep, and why (its chat template could not be read). */
export interface SkippedModel {
	model: string;
	reason: string;
}

export interface SweepRecord {
	id: string;
	/** In the order they run. */
	run_ids: string[];
	/** Models left out before any run was stored; absent: none. */
	skipped?: SkippedModel[];
}

export function saveSweep(
	storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
	runIds: readonly string[],
	skipped: readonly SkippedModel[] = []
): SweepRecord {
	const sweep: SweepRecord = { id: `sweep-${runIds[0] ?? 'empty'}`, run_ids: [...runIds] };
	if (skipped.length > 0) sweep.skipped = [...skipped];
	try {
		for (const id of runIds) storage?.setItem(SWEEP_PREFIX + id, JSON.stringify(sweep));
	} catch {
		// Storage full or disabled: the runs are stored; only continuing them as one sweep is lost.
	}
	return sweep;
}

/** The sweep a run belongs to, or undefined for a run of its own. */
export function sweepOfRun(
	storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
	runId: string
): SweepRecord | undefined {
	try {
		const v = JSON.parse(
			storage?.getItem(SWEEP_PREFIX + runId) ?? 'null'
		) as Partial<SweepRecord> | null;
		const ids = v?.run_ids;
		if (typeof v?.id !== 'string' || !Array.isArray(ids)) return undefined;
		if (!ids.every((x) => typeof x === 'string') || !ids.includes(runId)) return undefined;
		const skipped = Array.isArray(v.skipped)
			? v.skipped.filter((m) => typeof m?.model === 'string' && typeof m.reason === 'string')
			: [];
		return skipped.length > 0 ? { id: v.id, run_ids: ids, skipped } : { id: v.id, run_ids: ids };
	} catch {
		// Unreadable storage or a hand-edited value: the run stands alone.
		return undefined;
	}
}

/**
 * The sweep this tab is driving, in sessionStorage: it survives a reload of this tab and nothing
 * else (another tab, a fresh visit), so only a reload of the driving tab goes on by itself.
 */
const DRIVING_KEY = 'utp:sweep-driving';

/** This tab drives the sweep: a reload of it continues the sweep without a click. */
export function markDriving(storage: Pick<Storage, 'setItem'> | undefined, sweepId: string): void {
	try {
		storage?.setItem(DRIVING_KEY, sweepId);
	} catch {
		// Storage disabled: a reload waits for Resume, as in another tab.
	}
}

/** The sweep stopped in a way a reload must not undo (done, paused, failed): Resume decides. */
export function clearDriving(
	storage: Pick<Storage, 'getItem' | 'removeItem'> | undefined,
	sweepId: string
): void {
	try {
		if (storage?.getItem(DRIVING_KEY) === sweepId) storage.removeItem(DRIVING_KEY);
	} catch {
		// Nothing stored to clear.
	}
}

/** Was this tab driving the sweep when it was reloaded? */
export function isDriving(storage: Pick<Storage, 'getItem'> | undefined, sweepId: string): boolean {
	try {
		return storage?.getItem(DRIVING_KEY) === sweepId;
	} catch {
		return false;
	}
}
