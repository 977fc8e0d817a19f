/**
 * The results view's state: one run's record facts (db/facts.ts), read once, and everything derived
 * from them; plus its full records for the sample browser. The first paint needs only the facts
 * (~1.5 MB at 10,000 records) and the first page of records; the full records (~30 MB, the slow
 * read) follow after it, with the paired bootstrap deltas and other runs' points, through `later`.
 * Arrays are `$state.raw` (replaced, never edited), so derived numbers recompute only on a new one.
 */
import { errorText } from '../errors/describe.ts';
import type { RecordFacts } from '../db/facts.ts';
import type { RunRow } from '../db/schema.ts';
import type { AnswerRecord, ProbeRecord } from '../probe/types.ts';
import type { ConditionSummary, Tally } from '../stats/aggregate.ts';
import type { PaperPoint, RunPoint } from '../stats/charts.ts';
import { compareWithPaper, overlayFor, PAPER_FIGURES } from '../results/paperFigures.ts';
import type { PaperComparison, TextChangeFigure } from '../results/paperFigures.ts';
import { pairedInline, type PairedDeltas } from '../results/pairedOffThread.ts';
import { runName, runPoint, textChangeRates } from '../results/resultsData.ts';
import type { PairedDelta, TextChange } from '../results/resultsData.ts';
import {
	answerFacts,
	COUNT_DEFAULTS,
	exclusionsFor,
	resultsTable
} from '../results/resultsTable.ts';
import type { CountOptions, ResultsTable } from '../results/resultsTable.ts';
import { afterPaint } from '../display/afterPaint.ts';

/** What this view reads: DexieRunStore's queries plus a run's answers (see resultsSource.ts). */
export interface ResultsSource {
	getRun(runId: string): Promise<RunRow | undefined>;
	/** The full records: read only after the first paint. */
	getRecords(runId: string): Promise<ProbeRecord[]>;
	/** What the numbers and charts need of every record, in key order. */
	getFacts(runId: string): Promise<RecordFacts[]>;
	/** Newest first. */
	listRuns(): Promise<RunRow[]>;
	/** The first sample rows, shown before the full read. */
	firstRecords(runId: string, limit: number): Promise<ProbeRecord[]>;
	/** One per item: which answers are cut, for this run's and other runs' numbers. */
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
/** No item left out. */
const NO_ITEMS: ReadonlySet<string> = new Set();

export interface ResultsOptions {
	/** Defaults to one cache shared by every results view of the page. */
	cache?: RecordsCache;
	/** How many other runs join the accuracy chart; each costs one read of its records. */
	otherRuns?: number;
	/** Schedules work the first paint does not need; tests run it at once. */
	later?: (work: () => void) => void;
	/** How the paired effects are computed: inline by default, in a worker in the page. */
	paired?: PairedDeltas;
}

export type ResultsStatus = 'loading' | 'ready' | 'missing' | 'failed';

export const OTHER_RUNS = 8;
/** Sample rows read with the facts, so the list paints before the full records arrive. */
export const FIRST_ROWS = 100;

const now = () => (typeof performance === 'undefined' ? Date.now() : performance.now());

export class ResultsState {
	#status = $state<ResultsStatus>('loading');
	#error = $state<string | null>(null);
	#run = $state.raw<RunRow | null>(null);
	#facts = $state.raw<readonly RecordFacts[]>([]);
	#records = $state.raw<ProbeRecord[]>([]);
	#recordsComplete = $state(false);
	#recordsError = $state<string | null>(null);
	#paired = $state.raw<PairedDelta[] | null>(null);
	#others = $state.raw<RunPoint[]>([]);
	#othersError = $state<string | null>(null);
	#paper = $state(false);
	/** One per item: which answers were cut at the token limit, and where. */
	#answers = $state.raw<readonly AnswerRecord[]>([]);
	/** What the numbers leave out (resultsTable.ts COUNT_DEFAULTS until a toggle changes it). */
	#options = $state.raw<CountOptions>(COUNT_DEFAULTS);
	#readMs = $state<number | null>(null);
	/** Bumped by every load, so a slow earlier load cannot overwrite a newer one. */
	#generation = 0;

	#answerFacts = $derived(this.#answers.map(answerFacts));
	#exclusions = $derived(exclusionsFor(this.#answerFacts, this.#options));
	/** The same computation as the CLI's `summarize`, with the same defaults. */
	#table = $derived(resultsTable(this.#facts, this.#answerFacts, this.#options));
	#thisPoint = $derived(
		this.#run
			? runPoint(`${runName(this.#run.manifest)}, this run`, this.#facts, this.#exclusions)
			: null
	);
	#overlay = $derived(
		this.#paper && this.#run
			? overlayFor(PAPER_FIGURES.points, this.#run.manifest.config.dataset)
			: []
	);
	/** Needs the user turns' text: null until every record is read. */
	#textChange = $derived(this.#recordsComplete ? textChangeRates(this.#records) : null);
	#comparisons = $derived(
		this.#run
			? compareWithPaper(this.#table.conditions, this.#overlay, this.#run.manifest.config.generator)
			: []
	);
	/** The paper's text-change shares for this run's benchmark: none unless the run is of one. */
	#paperTextChange = $derived(
		this.#run ? overlayFor(PAPER_FIGURES.text_change, this.#run.manifest.config.dataset) : []
	);

	readonly #source: ResultsSource;
	readonly #otherRuns: number;
	readonly #later: (work: () => void) => void;
	readonly #computePaired: PairedDeltas;
	readonly #cache: RecordsCache;

	constructor(source: ResultsSource, opts: ResultsOptions = {}) {
		this.#source = source;
		this.#otherRuns = opts.otherRuns ?? OTHER_RUNS;
		this.#later = opts.later ?? afterPaint;
		this.#cache = opts.cache ?? SHARED_CACHE;
		this.#computePaired = opts.paired ?? pairedInline;
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
	/** The first FIRST_ROWS records until `recordsComplete`, then all of them, in key order. */
	get records(): readonly ProbeRecord[] {
		return this.#records;
	}
	/** Whether `records` holds the whole run (the sample browser's search sees every sample). */
	get recordsComplete(): boolean {
		return this.#recordsComplete;
	}
	/** Why the full records could not be read; the numbers and charts stand without them. */
	get recordsError(): string | null {
		return this.#recordsError;
	}
	/** Records in the run, known from the facts before the records are read. */
	get recordCount(): number {
		return this.#facts.length;
	}
	/** Every number of the results table, as `summarize --json` prints it. */
	get table(): ResultsTable {
		return this.#table;
	}
	get summaries(): ConditionSummary[] {
		return this.#table.conditions;
	}
	get overall(): Tally {
		return this.#table.overall;
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
	/** Per perturbation and temperature, how often the user turn's text changed; null while reading. */
	get textChange(): TextChange[] | null {
		return this.#textChange;
	}

	/** Items whose answer stopped at answer_max_tokens (finish_reason 'length'). */
	get answersCut(): number {
		return this.#table.cut_answers;
	}
	/** Of them, items cut while still reasoning: their probes saw an empty assistant turn. */
	get answersCutInReasoning(): number {
		return this.#table.cut_reasoning_items;
	}
	/** Whether accuracy counts the cut answers; by default they are left out. */
	get includeCutAnswers(): boolean {
		return this.#options.include_cut_answers;
	}
	setIncludeCutAnswers(on: boolean): void {
		this.#options = { ...this.#options, include_cut_answers: on };
	}
	/** Whether follow-up rates count the probes of answers cut while reasoning; off by default. */
	get includeCutReasoning(): boolean {
		return this.#options.include_cut_reasoning;
	}
	setIncludeCutReasoning(on: boolean): void {
		if (on === this.#options.include_cut_reasoning) return;
		this.#options = { ...this.#options, include_cut_reasoning: on };
		// The paired deltas count the same probes as the table: recompute them, off the first paint.
		const run = this.#run;
		if (this.#status !== 'ready' || !run) return;
		this.#paired = null;
		const generation = this.#generation;
		this.#pairedDeltas(generation, run, this.#facts).catch(() => undefined);
	}

	get showPaper(): boolean {
		return this.#paper;
	}
	/** Paper points for this run's benchmark while the overlay is on, else []. */
	get overlay(): PaperPoint[] {
		return this.#overlay;
	}

	/** Each overlay point beside this run's rate and interval, with what they allow to say. */
	get paperComparisons(): PaperComparison[] {
		return this.#comparisons;
	}
	/** The paper's text-change shares measured on this run's benchmark (IFBench's only, so far). */
	get paperTextChange(): TextChangeFigure[] {
		return this.#paperTextChange;
	}

	/** How long reading what the first paint needs took, shown beside the record count. */
	get readMs(): number | null {
		return this.#readMs;
	}

	setShowPaper(on: boolean): void {
		this.#paper = on;
	}

	/**
	 * Reads the run, its facts and first sample rows (or the cached records when the run is finished
	 * and unchanged, unless `fresh`); the full records and other deferred work follow the first
	 * paint. Never throws: see status, error and recordsError.
	 */
	async load(runId: string, opts: { fresh?: boolean } = {}): Promise<void> {
		const generation = ++this.#generation;
		this.#status = 'loading';
		this.#error = null;
		this.#othersError = null;
		this.#recordsError = null;
		this.#others = [];
		try {
			const started = now();
			const firstRead = () =>
				Promise.all([this.#source.getFacts(runId), this.#source.firstRecords(runId, FIRST_ROWS)]);
			// One small row per item: which answers were cut at the token limit.
			const answers = this.#source.getAnswers(runId);
			answers.catch(() => undefined); // awaited below
			// Without a cached copy to validate, the reads need not wait for the run row.
			const reading = opts.fresh || !this.#cache.has(runId) ? firstRead() : undefined;
			reading?.catch(() => undefined); // awaited below; a missing run never awaits it
			const run = await this.#source.getRun(runId);
			if (generation !== this.#generation) return;
			if (!run) {
				this.#status = 'missing';
				return;
			}
			const cached = reading ? undefined : this.#cache.get(run);
			const [facts, rows] = cached ? [cached, cached] : await (reading ?? firstRead());
			const answerRows = await answers;
			if (generation !== this.#generation) return;
			this.#readMs = now() - started;
			this.#run = run;
			this.#facts = facts;
			this.#answers = answerRows;
			this.#records = rows;
			this.#recordsComplete = rows.length === facts.length;
			this.#paired = null;
			this.#status = 'ready';
			this.#later(() => {
				this.#afterFirstPaint(generation, run, facts).catch((e: unknown) => {
					if (generation === this.#generation) this.#othersError = errorText(e);
				});
			});
		} catch (e) {
			if (generation !== this.#generation) return;
			this.#status = 'failed';
			this.#error = errorText(e);
		}
	}

	/** The whole run's records for the sample browser; a failure leaves the first rows shown. */
	async #readAllRecords(generation: number, run: RunRow): Promise<void> {
		if (this.#recordsComplete) return;
		try {
			const records = await this.#source.getRecords(run.run_id);
			if (generation !== this.#generation) return;
			this.#cache.put(run, records);
			this.#records = records;
			this.#recordsComplete = true;
		} catch (e) {
			if (generation === this.#generation) this.#recordsError = errorText(e);
		}
	}

	/**
	 * The full records, then one bootstrap per task (each takes tens of ms at 10,000 records), then
	 * the other runs' points from their packed facts and answers: their records are never read, which
	 * would mean up to 8 × 10,000 records pulled through IndexedDB just for one dot each.
	 */
	async #afterFirstPaint(
		generation: number,
		run: RunRow,
		facts: readonly RecordFacts[]
	): Promise<void> {
		const stale = () => generation !== this.#generation;
		if (stale()) return;
		// Started first: IndexedDB reads off the main thread while the bootstraps run on it.
		const reading = this.#readAllRecords(generation, run);
		await this.#pairedDeltas(generation, run, facts);
		await reading;
		if (stale()) return;

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

	/** The paired effects (options.paired: in a worker in the page); a newer load or toggle wins. */
	async #pairedDeltas(
		generation: number,
		run: RunRow,
		facts: readonly RecordFacts[]
	): Promise<void> {
		const counting = this.#options.include_cut_reasoning;
		const stale = () =>
			generation !== this.#generation || counting !== this.#options.include_cut_reasoning;
		const deltas = await this.#computePaired(
			facts,
			run.manifest.config.seed,
			this.#exclusions.unprobed ?? NO_ITEMS,
			stale
		);
		if (deltas !== null && !stale()) this.#paired = deltas;
	}

	/** Another run's point, counted as this run's is (runPoint over its facts, same exclusions). */
	async #countedPoint(run: RunRow, name: string): Promise<RunPoint> {
		const [facts, answers] = await Promise.all([
			this.#source.getFacts(run.run_id),
			this.#source.getAnswers(run.run_id)
		]);
		return runPoint(name, facts, exclusionsFor(answers.map(answerFacts), this.#options));
	}
}
