/**
 * A run as IndexedDB holds it, for the run view when this tab is not running it (after a reload,
 * a closed tab, or a pause): its manifest, how much is stored and labelled, and whether the
 * browser has what it needs to resume it.
 */
import { errorText } from '../errors/describe.ts';
import { planConditions } from '../probe/plan.ts';
import type { RunManifest } from '../probe/types.ts';
import { LabelTally, type TalliedRecord } from '../live/labelTally.ts';
import type { Tally } from '../stats/aggregate.ts';
import { engineKindOf } from '../engines/registry.ts';

/**
 * What the summary reads of each stored record: what the results count by (live/labelTally.ts);
 * the run view passes facts, not full records.
 */
export type StoredTurn = TalliedRecord;

export interface StoredRunDeps {
	getManifest(runId: string): Promise<RunManifest | undefined>;
	/** The run's stored turns (facts, not full records). */
	getFacts(runId: string): Promise<StoredTurn[]>;
	/** Are the run's items and template stored in this browser? */
	hasInputs(runId: string): Promise<boolean>;
}

export interface StoredRunView {
	manifest: RunManifest;
	/** items × conditions: what a finished run holds. */
	planned: number;
	stored: number;
	labelled: number;
	/** Counted as the results count them (live/labelTally.ts). */
	tally: Tally;
	resumable: boolean;
}

export class StoredRun {
	#view = $state.raw<StoredRunView | null>(null);
	#loading = $state(false);
	#missing = $state(false);
	#error = $state<string | null>(null);
	#generation = 0;

	get view(): StoredRunView | null {
		return this.#view;
	}
	get loading(): boolean {
		return this.#loading;
	}
	/** Looked, and no such run is stored. */
	get missing(): boolean {
		return this.#missing;
	}
	get error(): string | null {
		return this.#error;
	}

	/** (Re)read the run. A later call wins over an earlier one still in flight. */
	async load(runId: string, deps: StoredRunDeps): Promise<void> {
		const generation = ++this.#generation;
		this.#loading = true;
		this.#error = null;
		try {
			const manifest = await deps.getManifest(runId);
			if (generation !== this.#generation) return;
			if (!manifest) {
				this.#view = null;
				this.#missing = true;
				return;
			}
			const [records, hasInputs] = await Promise.all([deps.getFacts(runId), deps.hasInputs(runId)]);
			if (generation !== this.#generation) return;
			this.#missing = false;
			this.#view = summarize(manifest, records, hasInputs);
		} catch (err) {
			if (generation === this.#generation) {
				this.#error = errorText(err);
			}
		} finally {
			if (generation === this.#generation) this.#loading = false;
		}
	}
}

export function summarize(
	manifest: RunManifest,
	records: StoredTurn[],
	hasInputs: boolean
): StoredRunView {
	const c = manifest.config;
	const conditions = planConditions(c).length;
	const tally = new LabelTally();
	for (const r of records) tally.add(r);
	return {
		manifest,
		planned: c.item_ids.length * conditions,
		stored: tally.stored,
		labelled: records.filter((r) => r.label !== null).length,
		tally: tally.snapshot(),
		resumable:
			hasInputs && manifest.status !== 'done' && engineKindOf(manifest.engine) !== undefined
	};
}
