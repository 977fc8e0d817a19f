/**
 * The runs view's state: the stored runs with their counts, delete, compare two, export and
 * import. Counts and rates come from the runs' packed facts and answers, counted as the results
 * table counts them, so listing runs never reads their records; only compare and export do.
 */
import { errorText } from '../errors/describe.ts';
import { RunExistsError } from '../db/errors.ts';
import type { RecordFacts } from '../db/facts.ts';
import type { RunRow, RunStatus } from '../db/schema.ts';
import type { ImportConflict } from '../db/transfer.ts';
import { bundleToFiles, ExchangeError, recordsToCsv } from '../probe/exchange.ts';
import type { RunBundle } from '../probe/exchange.ts';
import { bundleToRunFile, isRunFile, runFileToBundle } from '../probe/runFile.ts';
import { isLabelsFile, labelsFromFile, labelsToFile } from '../probe/labelsFile.ts';
import { isStudyFile, parseStudyFile, studyRunBundles } from '../probe/studyFile.ts';
import { storeStudy, type StoredStudy } from '../results/storeStudy.ts';
import type { Annotation } from '../probe/exchange.ts';
import type { LabelMerge } from '../annotate/merge.ts';
import type { AnswerRecord, ProbeRecord } from '../probe/types.ts';
import { answerFacts, resultsTable } from '../results/resultsTable.ts';
import type { Rate } from '../stats/aggregate.ts';
import {
	compareRuns,
	EXPORT_MIME,
	exportFileName,
	failureOf,
	located,
	pickRunFiles,
	type ImportFailure
} from '../results/runsData.ts';
import { groupRunFiles, readRunGroups } from '../results/runFiles.ts';

export type { ImportFailure } from '../results/runsData.ts';
import type { CompareRow, ExportKind } from '../results/runsData.ts';

/** The slice of DexieRunStore this view uses. */
export interface RunsSource {
	listRuns(): Promise<RunRow[]>;
	/** The records' facts (packed, one read): listing runs never reads their records. */
	getFacts(runId: string): Promise<RecordFacts[]>;
	/** One per item: which answers are cut, as the results table counts them. */
	getAnswers(runId: string): Promise<AnswerRecord[]>;
	getRecords(runId: string): Promise<ProbeRecord[]>;
	deleteRun(runId: string): Promise<void>;
	exportRun(runId: string): Promise<RunBundle>;
	importRun(bundle: RunBundle, opts?: { onConflict?: ImportConflict }): Promise<string>;
	mergeLabels(runId: string, annotations: readonly Annotation[]): Promise<LabelMerge>;
}

/** Labels pooled into a stored run, to say what was added and where annotators disagree. */
export interface MergedLabels extends LabelMerge {
	run_id: string;
	/** The file merged, for the message. */
	from: string;
}

export interface RunEntry {
	run_id: string;
	model: string;
	dataset: string;
	created_at: string;
	/**
	 * The stored status, except that a run stored as `running` which no tab holds (its tab was
	 * closed, reloaded or crashed) is `interrupted`, as the run view says.
	 */
	status: RunStatus | 'interrupted';
	/** null while counting. */
	records: number | null;
	/**
	 * Over all conditions; undefined while counting, null for a run without a rate (rules-only
	 * labelling left turns undecided: aggregate.ts Tally.followup).
	 */
	followup: Rate | null | undefined;
	pending: number | null;
}

export interface DownloadFile {
	name: string;
	text: string;
	type: string;
}

export interface Comparison {
	a: { run_id: string; name: string };
	b: { run_id: string; name: string };
	rows: CompareRow[];
}

/** A picked file: the browser's File, or anything with a name and text in tests. */
export interface FileLike {
	name: string;
	text(): Promise<string>;
}

function entryOf(row: RunRow, held: readonly string[]): RunEntry {
	return {
		run_id: row.run_id,
		model: row.manifest.config.generator.id,
		dataset: row.manifest.config.dataset,
		created_at: row.created_at,
		status: row.status === 'running' && !held.includes(row.run_id) ? 'interrupted' : row.status,
		records: null,
		followup: undefined,
		pending: null
	};
}

export class RunsState {
	#status = $state<'loading' | 'ready' | 'failed'>('loading');
	#error = $state<string | null>(null);
	#runs = $state.raw<RunEntry[]>([]);
	#selected = $state.raw<string[]>([]);
	#comparison = $state.raw<Comparison | null>(null);
	#importing = $state(false);
	#importFailure = $state.raw<ImportFailure | null>(null);
	#imported = $state<string | null>(null);
	#merged = $state.raw<MergedLabels | null>(null);
	#importedStudy = $state.raw<StoredStudy | null>(null);
	/** Share files carry the human labels only when asked: students then annotate blind. */
	#shareLabels = $state(false);
	/** The parsed bundle waiting for a conflict decision (copy, replace or merge its labels). */
	#pending: RunBundle | null = null;
	#pendingName = '';

	readonly #source: RunsSource;
	readonly #save: (file: DownloadFile) => void;
	readonly #held: () => Promise<string[]>;

	/**
	 * `save` hands a file to the person (a download in the browser); `held` lists the runs some
	 * tab is running now (their Web Locks), so a run whose tab is gone is not shown as running.
	 */
	constructor(
		source: RunsSource,
		save: (file: DownloadFile) => void,
		held: () => Promise<string[]> = async () => []
	) {
		this.#source = source;
		this.#save = save;
		this.#held = held;
	}

	get status() {
		return this.#status;
	}
	get error(): string | null {
		return this.#error;
	}
	get runs(): RunEntry[] {
		return this.#runs;
	}
	/** At most two run ids, oldest pick first. */
	get selected(): string[] {
		return this.#selected;
	}
	get comparison(): Comparison | null {
		return this.#comparison;
	}
	/** The runs of the last study file imported, in its order: the view opens their study. */
	get importedStudy(): StoredStudy | null {
		return this.#importedStudy;
	}
	/** The last labels merge, shown until the next import. */
	get merged(): MergedLabels | null {
		return this.#merged;
	}
	get shareLabels(): boolean {
		return this.#shareLabels;
	}
	set shareLabels(on: boolean) {
		this.#shareLabels = on;
	}
	get importing(): boolean {
		return this.#importing;
	}
	get importFailure(): ImportFailure | null {
		return this.#importFailure;
	}
	/** The run_id of the last successful import, for a confirmation. */
	get imported(): string | null {
		return this.#imported;
	}

	/** Lists runs at once, then fills in counts and rates run by run. Never throws. */
	async load(): Promise<void> {
		try {
			const [rows, held] = await Promise.all([
				this.#source.listRuns(),
				this.#held().catch((): string[] => [])
			]);
			this.#runs = rows.map((row) => entryOf(row, held));
			this.#selected = this.#selected.filter((id) => rows.some((r) => r.run_id === id));
			this.#status = 'ready';
			for (const row of rows) await this.#count(row.run_id);
		} catch (e) {
			this.#status = 'failed';
			this.#error = errorText(e);
		}
	}

	async #count(runId: string): Promise<void> {
		const [facts, answers] = await Promise.all([
			this.#source.getFacts(runId),
			this.#source.getAnswers(runId)
		]);
		// The results table's whole-run row, with its defaults: the same rate the run's page shows.
		const { overall } = resultsTable(facts, answers.map(answerFacts));
		const { n: records, followup, pending } = overall;
		this.#runs = this.#runs.map((r) =>
			r.run_id === runId ? { ...r, records, followup, pending } : r
		);
	}

	/** Deletes the run with everything it holds. */
	async remove(runId: string): Promise<void> {
		await this.#source.deleteRun(runId);
		this.#runs = this.#runs.filter((r) => r.run_id !== runId);
		this.#selected = this.#selected.filter((id) => id !== runId);
		const c = this.#comparison;
		if (c && (c.a.run_id === runId || c.b.run_id === runId)) this.#comparison = null;
	}

	/** Picks a run (again: unpicks): two compare, two or more make a study, in pick order. */
	toggleSelected(runId: string): void {
		const s = this.#selected;
		this.#selected = s.includes(runId) ? s.filter((id) => id !== runId) : [...s, runId];
	}

	/** Compares the two picked runs condition by condition. */
	async compare(): Promise<void> {
		const [a, b] = this.#selected;
		if (a === undefined || b === undefined) return;
		// Whole runs, answers included: the rows are the results table's, with its defaults.
		const [ra, rb] = await Promise.all([this.#source.exportRun(a), this.#source.exportRun(b)]);
		const conditions = (run: RunBundle) =>
			resultsTable(run.records, (run.answers ?? []).map(answerFacts)).conditions;
		const name = (id: string) => {
			const run = this.#runs.find((r) => r.run_id === id);
			return run ? `${run.model} · ${run.dataset}` : id;
		};
		this.#comparison = {
			a: { run_id: a, name: name(a) },
			b: { run_id: b, name: name(b) },
			rows: compareRuns(conditions(ra), conditions(rb))
		};
	}

	closeComparison(): void {
		this.#comparison = null;
	}

	/**
	 * Hands one file of the run to `save`. Secrets never leave: the exchange format strips them.
	 * @throws RunNotFoundError if the run was deleted meanwhile.
	 */
	async exportFile(runId: string, kind: ExportKind): Promise<void> {
		const bundle = await this.#source.exportRun(runId);
		const text =
			kind === 'csv'
				? recordsToCsv(bundle.records)
				: kind === 'run'
					? bundleToRunFile(this.#shareLabels ? bundle : { ...bundle, annotations: [] })
					: kind === 'labels'
						? labelsToFile({ run_id: runId, annotations: bundle.annotations ?? [] })
						: bundleToFiles(bundle)[kind === 'jsonl' ? 'jsonl' : 'manifest'];
		this.#save({ name: exportFileName(runId, kind), text, type: EXPORT_MIME[kind] });
	}

	/**
	 * Imports a run from its picked files (records .jsonl + .manifest.json, optionally the CLI's
	 * .answers.jsonl), or from the one run file a Share makes (a records file carrying its
	 * manifest), or a study file's runs (`importedStudy`): all of it or nothing. Failures land in
	 * `importFailure`, never thrown.
	 */
	async importFiles(files: readonly FileLike[]): Promise<void> {
		this.#importFailure = null;
		this.#imported = null;
		this.#merged = null;
		this.#importedStudy = null;
		this.#pending = null;
		if (files.length === 1 && /\.jsonl?$/i.test(files[0].name)) {
			const file = files[0];
			this.#importing = true;
			try {
				const text = await file.text();
				if (isLabelsFile(text)) {
					const labels = located(
						() => labelsFromFile(text),
						(p) => `${file.name}, ${p}`
					);
					await this.#merge(labels.run_id, labels.annotations, file.name);
					return;
				}
				if (isStudyFile(text)) {
					await this.#storeStudy(text, file.name);
					return;
				}
				if (isRunFile(text)) {
					this.#pendingName = file.name;
					const bundle = located(
						() => runFileToBundle(text),
						(p) => `${file.name}, ${p}`
					);
					await this.#store(bundle, 'refuse');
					return;
				}
			} catch (e) {
				this.#importFailure = failureOf(e);
				return;
			} finally {
				this.#importing = false;
			}
		}
		const grouped = groupRunFiles(files);
		if (grouped.runs.length > 1) {
			await this.#importRuns(grouped);
			return;
		}
		const picked = pickRunFiles(files);
		if (picked.problems.length > 0 || !picked.records || !picked.manifest) {
			this.#importFailure = {
				message:
					'Pick the one run file (.run.jsonl) of a shared run, or the two files of one run: its records (.jsonl) and its manifest.',
				problems: picked.problems
			};
			return;
		}
		const { records, manifest, answers } = picked;
		this.#importing = true;
		try {
			const [bundle] = await readRunGroups([{ stem: records.name, records, manifest, answers }]);
			await this.#store(bundle, 'refuse');
		} catch (e) {
			this.#importFailure = failureOf(e);
		} finally {
			this.#importing = false;
		}
	}

	/**
	 * After a conflict: store the waiting bundle as a copy, over the stored run, or merge only its
	 * human labels into the stored run (a student's copy of the class's run).
	 */
	async resolveConflict(choice: 'rename' | 'replace' | 'merge'): Promise<void> {
		const bundle = this.#pending;
		if (!bundle) return;
		this.#importing = true;
		try {
			if (choice === 'merge') {
				const name = this.#pendingName || bundle.manifest.run_id;
				await this.#merge(bundle.manifest.run_id, bundle.annotations ?? [], name);
				this.#pending = null;
				this.#importFailure = null;
			} else await this.#store(bundle, choice);
		} catch (e) {
			this.#importFailure = failureOf(e);
		} finally {
			this.#importing = false;
		}
	}

	dismissImport(): void {
		this.#importFailure = null;
		this.#pending = null;
	}

	/**
	 * A study file's runs, every one checked before any is stored, then stored all or none
	 * (storeStudy.ts: one already here stands in for itself).
	 */
	async #storeStudy(text: string, name: string): Promise<void> {
		const study = located(
			() => parseStudyFile(text),
			(p) => `${name}, ${p}`
		);
		if (study.kind === 'links')
			throw new ExchangeError([
				`${name} lists its runs by address, which a file on this device cannot reach: pick its runs’ files together (or the sweep’s .study.jsonl), or open the study by its link.`
			]);
		this.#importedStudy = await storeStudy(this.#source, studyRunBundles(study.runs, name));
		await this.load();
	}

	/** Several runs' files picked at once: one study, every run checked, stored all or none. */
	async #importRuns(grouped: ReturnType<typeof groupRunFiles<FileLike>>): Promise<void> {
		if (grouped.problems.length > 0) {
			this.#importFailure = {
				message:
					'Pick each run’s records (.jsonl) with its manifest (.manifest.json) and answers (.answers.jsonl), or whole-run files (.run.jsonl).',
				problems: grouped.problems
			};
			return;
		}
		this.#importing = true;
		try {
			this.#importedStudy = await storeStudy(this.#source, await readRunGroups(grouped.runs));
			await this.load();
		} catch (e) {
			this.#importFailure = failureOf(e);
		} finally {
			this.#importing = false;
		}
	}

	async #merge(runId: string, annotations: readonly Annotation[], from: string): Promise<void> {
		const merge = await this.#source.mergeLabels(runId, annotations);
		this.#merged = { ...merge, run_id: runId, from };
	}

	async #store(bundle: RunBundle, onConflict: ImportConflict): Promise<void> {
		try {
			const runId = await this.#source.importRun(bundle, { onConflict });
			this.#pending = null;
			this.#importFailure = null;
			this.#imported = runId;
			await this.load();
		} catch (e) {
			if (!(e instanceof RunExistsError)) throw e;
			this.#pending = bundle;
			this.#importFailure = { message: e.message, problems: [], conflict: e.run_id };
		}
	}
}
