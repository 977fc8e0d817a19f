/**
 * The results view's state: one run's records, read once, and everything derived from them. The
 * records are a `$state.raw` array (10,000 objects, replaced and never edited), so the derived
 * numbers recompute only when a new array arrives. Work the first paint does not need (paired
 * bootstrap deltas, other runs' points) runs afterwards through `later`.
 */
import type { PageRequest, RecordFilter, RecordPage } from '../db/query.ts';
import type { RunRow } from '../db/schema.ts';
import type { AnswerRecord, ProbeRecord } from '../probe/types.ts';
import { summarize } from '../stats/aggregate.ts';
import type { ConditionSummary } from '../stats/aggregate.ts';
import type { PaperPoint, RunPoint } from '../stats/charts.ts';
import { overlayFor, PAPER_FIGURES } from './paperFigures.ts';
import {
	overall,
	pairedDelta,
	perturbationPairs,
	pointTemperature,
	runName,
	runPoint,
	runPointFromCounts
} from './resultsData.ts';
import type { Overall, PairedDelta } from './resultsData.ts';

/** What this view reads: DexieRunStore's queries plus a run's answers (see resultsSource.ts). */
export interface ResultsSource {
	getRun(runId: string): Promise<RunRow | undefined>;
	getRecords(runId: string): Promise<ProbeRecord[]>;
	/** Newest first. */
	listRuns(): Promise<RunRow[]>;
	/** Used with limit 0 for index-only counts of other runs. */
	recordsPage(runId: string, req: PageRequest): Promise<RecordPage>;
	/** One per item: other runs' accuracy without reading their records. */
	getAnswers(runId: string): Promise<AnswerRecord[]>;
}

/**
 * The last finished run read, kept across views: going back to a run's results is instant. Only
 * 'done' runs are kept, and only while the stored row's updated_at is unchanged (an import that
 * replaces the run, or a resume, changes it); a running run's records change under us.
 */
export class RecordsCache {
	#entry: { run_id: string; updated_at: string; records: ProbeRecord[] } | null = null;

	/** Whether some version of this run is kept (get() then checks it is still current). */
	has(runId: string): boolean {
		return this.#entry?.run_id === runId;
	}

	get(run: RunRow): ProbeRecord[] | undefined {
		const e = this.#entry;
		if (e && e.run_id === run.run_id && e.updated_at === run.updated_at) return e.records;
		return undefined;
	}

	put(run: RunRow, records: ProbeRecord[]): void {
		this.#entry =
			run.status === 'done' ? { run_id: run.run_id, updated_at: run.updated_at, records } : null;
	}
}

const SHARED_CACHE = new RecordsCache();

export interface ResultsOptions {
	/** Defaults to one cache shared by every results view of the page. */
	cache?: RecordsCache;
	/** How many other runs join the accuracy chart; each costs one read of its records. */
	otherRuns?: number;
	/** Schedules work the first paint does not need; tests run it at once. */
	later?: (work: () => void) => void;
}

export type ResultsStatus = 'loading' | 'ready' | 'missing' | 'failed';

export const OTHER_RUNS = 8;

const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

/** Lets the browser paint and handle input between two slices of deferred work. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

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
	#readMs = $state<number | null>(null);
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
	readonly #cache: RecordsCache;

	constructor(source: ResultsSource, opts: ResultsOptions = {}) {
		this.#source = source;
		this.#otherRuns = opts.otherRuns ?? OTHER_RUNS;
		this.#later = opts.later ?? afterPaint;
		this.#cache = opts.cache ?? SHARED_CACHE;
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

	/** How long reading the run from storage took, shown beside the record count. */
	get readMs(): number | null {
		return this.#readMs;
	}

	setShowPaper(on: boolean): void {
		this.#paper = on;
	}

	/**
	 * Reads the run and its records (from the cache when the run is finished and unchanged, unless
	 * `fresh`); deferred work follows. Never throws: see status and error.
	 */
	async load(runId: string, opts: { fresh?: boolean } = {}): Promise<void> {
		const generation = ++this.#generation;
		this.#status = 'loading';
		this.#error = null;
		this.#othersError = null;
		this.#others = [];
		try {
			const started = now();
			// Without a cached copy to validate, the records read need not wait for the run row.
			const reading =
				opts.fresh || !this.#cache.has(runId) ? this.#source.getRecords(runId) : undefined;
			reading?.catch(() => undefined); // awaited below; a missing run never awaits it
			const run = await this.#source.getRun(runId);
			if (generation !== this.#generation) return;
			if (!run) {
				this.#status = 'missing';
				return;
			}
			const cached = reading ? undefined : this.#cache.get(run);
			const records = cached ?? (await (reading ?? this.#source.getRecords(runId)));
			if (generation !== this.#generation) return;
			if (!cached) this.#cache.put(run, records);
			this.#readMs = now() - started;
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

	/**
	 * One bootstrap per task (each takes tens of ms at 10,000 records), then the other runs' points
	 * from index counts and answers: their records are never read, which would mean up to
	 * 8 × 10,000 records pulled through IndexedDB just for one dot each.
	 */
	async #afterFirstPaint(generation: number, run: RunRow, records: ProbeRecord[]): Promise<void> {
		const stale = () => generation !== this.#generation;
		const deltas: PairedDelta[] = [];
		for (const pair of perturbationPairs(records)) {
			await nextTask();
			if (stale()) return;
			deltas.push(pairedDelta(records, pair, run.manifest.config.seed));
		}
		this.#paired = deltas;

		const others = (await this.#source.listRuns())
			.filter((r) => r.run_id !== run.run_id)
			.slice(0, this.#otherRuns);
		const points: RunPoint[] = [];
		for (const other of others) {
			const name = `${runName(other.manifest)}, ${other.created_at.slice(0, 10)}`;
			const point = await this.#countedPoint(other, name);
			if (stale()) return;
			points.push(point);
			this.#others = points.slice();
		}
	}

	async #countedPoint(run: RunRow, name: string): Promise<RunPoint> {
		const temperature = pointTemperature(run.manifest.config);
		const where: RecordFilter = temperature === null ? {} : { temperature, perturbation: 'none' };
		const count = async (extra: RecordFilter) =>
			(
				await this.#source.recordsPage(run.run_id, {
					offset: 0,
					limit: 0,
					filter: { ...where, ...extra }
				})
			).total;
		const [all, followups, pending, answers] = await Promise.all([
			count({}),
			count({ label: 'genuine_followup' }),
			count({ label: 'pending' }),
			this.#source.getAnswers(run.run_id)
		]);
		return runPointFromCounts(name, { temperature, followups, judged: all - pending, answers });
	}
}
