/**
 * Which stored runs make one sweep (several generator models, one set-up), in localStorage beside
 * each run's launch: a reload mid-sweep finds the sweep from any of its runs and continues it.
 * Each run is an ordinary stored run; the sweep only says their order.
 */
/** One key per run, so a run finds its sweep in one read. */
const SWEEP_PREFIX = 'utp:sweep-of:';

export interface SweepRecord {
	id: string;
	/** In the order they run. */
	run_ids: string[];
}

export function saveSweep(
	storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
	runIds: readonly string[]
): SweepRecord {
	const sweep = { id: `sweep-${runIds[0] ?? 'empty'}`, run_ids: [...runIds] };
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
		return { id: v.id, run_ids: ids };
	} catch {
		// Unreadable storage or a hand-edited value: the run stands alone.
		return undefined;
	}
}
