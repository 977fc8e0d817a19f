/**
 * The results view's state: one run's records, read once, and everything derived from them. The
 * records are a `$state.raw` array (10,000 objects, replaced and never edited), so the derived
 * numbers recompute only when a new array arrives. Work the first paint does not need (paired
 * bootstrap deltas, other runs' points) runs afterwards through `later`.
 */
import type { RunRow } from '../db/schema.ts';
import type { ProbeRecord } from '../probe/types.ts';
import { summarize } from '../stats/aggregate.ts';
import type { ConditionSummary } from '../stats/aggregate.ts';
import type { PaperPoint, RunPoint } from '../stats/charts.ts';
import { overlayFor, PAPER_FIGURES } from './paperFigures.ts';
import { overall, perturbationDeltas, runName, runPoint } from './resultsData.ts';
import type { Overall, PairedDelta } from './resultsData.ts';

/** The slice of DexieRunStore this view reads. */
export interface ResultsSource {
	getRun(runId: string): Promise<RunRow | undefined>;
	getRecords(runId: string): Promise<ProbeRecord[]>;
	/** Newest first. */
	listRuns(): Promise<RunRow[]>;
}

export interface ResultsOptions {
	/** How many other runs join the accuracy chart; each costs one read of its records. */
	otherRuns?: number;
	/** Schedules work the first paint does not need; tests run it at once. */
	later?: (work: () => void) => void;
}

export type ResultsStatus = 'loading' | 'ready' | 'missing' | 'failed';

export const OTHER_RUNS = 8;

/** After the next frame is painted, not merely after the current task. */
function afterPaint(work: () => void): void {
	if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(work, 0));
	else setTimeout(work, 0);
}

export class ResultsState {
	#status = $state<ResultsStatus>('loading');
	#error = $state<string | null>(null);
	#run = $state.raw<RunRow | null>(null);
	#records = $state.raw<ProbeRecord[]>([]);
	#paired = $state.raw<PairedDelta[] | null>(null);
	#others = $state.raw<RunPoint[]>([]);
	#othersError = $state<string | null>(null);
	#paper = $state(false);
	/** Bumped by every load, so a slow earlier load cannot overwrite a newer one. */
	#generation = 0;

	#summaries = $derived(summarize(this.#records));
	#overall = $derived(overall(this.#records));
	#thisPoint = $derived(
		this.#run ? runPoint(`${runName(this.#run.manifest)}, this run`, this.#records) : null
	);
	#overlay = $derived(
		this.#paper && this.#run
			? overlayFor(PAPER_FIGURES.points, this.#run.manifest.config.dataset)
			: []
	);

	readonly #source: ResultsSource;
	readonly #otherRuns: number;
	readonly #later: (work: () => void) => void;

	constructor(source: ResultsSource, opts: ResultsOptions = {}) {
		this.#source = source;
		this.#otherRuns = opts.otherRuns ?? OTHER_RUNS;
		this.#later = opts.later ?? afterPaint;
	}

	get status(): ResultsStatus {
		return this.#status;
	}
	get error(): string | null {
		return this.#error;
	}
	get run(): RunRow | null {
		return this.#run;
	}
	get records(): readonly ProbeRecord[] {
		return this.#records;
	}
	get summaries(): ConditionSummary[] {
		return this.#summaries;
	}
	get overall(): Overall {
		return this.#overall;
	}
	/** null until computed after the first paint. */
	get paired(): PairedDelta[] | null {
		return this.#paired;
	}
	/** This run first, then up to `otherRuns` others as they are read. */
	get runPoints(): RunPoint[] {
		return this.#thisPoint ? [this.#thisPoint, ...this.#others] : this.#others;
	}
	/** Why other runs are missing from the accuracy chart, if reading them failed. */
	get othersError(): string | null {
		return this.#othersError;
	}
	get showPaper(): boolean {
		return this.#paper;
	}
	/** Paper points for this run's benchmark while the overlay is on, else []. */
	get overlay(): PaperPoint[] {
		return this.#overlay;
	}

	setShowPaper(on: boolean): void {
		this.#paper = on;
	}

	/** Reads the run and its records; deferred work follows. Never throws: see status and error. */
	async load(runId: string): Promise<void> {
		const generation = ++this.#generation;
		this.#status = 'loading';
		this.#error = null;
		this.#othersError = null;
		this.#others = [];
		try {
			const [run, records] = await Promise.all([
				this.#source.getRun(runId),
				this.#source.getRecords(runId)
			]);
			if (generation !== this.#generation) return;
			if (!run) {
				this.#status = 'missing';
				return;
			}
			this.#run = run;
			this.#records = records;
			this.#paired = null;
			this.#status = 'ready';
			this.#later(() => {
				this.#afterFirstPaint(generation, run, records).catch((e: unknown) => {
					if (generation === this.#generation)
						this.#othersError = e instanceof Error ? e.message : String(e);
				});
			});
		} catch (e) {
			if (generation !== this.#generation) return;
			this.#status = 'failed';
			this.#error = e instanceof Error ? e.message : String(e);
		}
	}

	async #afterFirstPaint(generation: number, run: RunRow, records: ProbeRecord[]): Promise<void> {
		this.#paired = perturbationDeltas(records, run.manifest.config.seed);
		const others = (await this.#source.listRuns())
			.filter((r) => r.run_id !== run.run_id)
			.slice(0, this.#otherRuns);
		const points: RunPoint[] = [];
		// One run at a time: only one run's records are held in memory besides ours.
		for (const other of others) {
			const name = `${runName(other.manifest)}, ${other.created_at.slice(0, 10)}`;
			const point = runPoint(name, await this.#source.getRecords(other.run_id));
			if (generation !== this.#generation) return;
			points.push(point);
			this.#others = points.slice();
		}
	}
}
