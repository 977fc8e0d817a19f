/**
 * The study view's state: several stored runs read as their facts and answers (never their
 * records), lined up by results/study.ts, and the perturbation the follow-up chart shows.
 */
import type { RecordFacts } from '../db/facts.ts';
import type { RunRow } from '../db/schema.ts';
import { errorText } from '../errors/describe.ts';
import type { AnswerRecord, Perturbation } from '../probe/types.ts';
import { PERTURBATIONS } from '../probe/types.ts';
import { PAPER_FIGURES, paperPointsByModel } from '../results/paperFigures.ts';
import { answerFacts } from '../results/resultsTable.ts';
import { study, studyRunOf, type Study } from '../results/study.ts';
import { studyMixWarnings, studySettingsOf } from '../results/studyMix.ts';
import type { PaperPoint } from '../stats/chartKit.ts';

/** The slice of DexieRunStore a study reads. */
export interface StudySource {
	getRun(runId: string): Promise<RunRow | undefined>;
	getFacts(runId: string): Promise<RecordFacts[]>;
	getAnswers(runId: string): Promise<AnswerRecord[]>;
}

const EMPTY: Study = {
	options: { include_cut_answers: false, include_cut_reasoning: false },
	models: [],
	rows: []
};

export class StudyState {
	#source: StudySource;
	#status = $state<'idle' | 'loading' | 'ready' | 'failed'>('idle');
	#error = $state<string | null>(null);
	#study = $state.raw<Study>(EMPTY);
	#runs = $state.raw<RunRow[]>([]);
	#missing = $state.raw<string[]>([]);
	#warnings = $state.raw<string[]>([]);
	#perturbation = $state<Perturbation>('none');
	#generation = 0;

	constructor(source: StudySource) {
		this.#source = source;
	}

	get status() {
		return this.#status;
	}
	get error() {
		return this.#error;
	}
	get study(): Study {
		return this.#study;
	}
	/** The runs read, in the order asked for. */
	get runs(): readonly RunRow[] {
		return this.#runs;
	}
	/** Run ids asked for that this browser does not hold. */
	get missing(): readonly string[] {
		return this.#missing;
	}
	/** What the runs do not share (datasets, seeds, judges), one sentence each (studyMix.ts). */
	get warnings(): readonly string[] {
		return this.#warnings;
	}
	/** The perturbation the follow-up chart draws. */
	get perturbation(): Perturbation {
		return this.#perturbation;
	}
	/** The perturbations some model of the study has, in the paper's order. */
	get perturbations(): Perturbation[] {
		return PERTURBATIONS.filter((p) => this.#study.rows.some((r) => r.perturbation === p));
	}
	setPerturbation(p: Perturbation): void {
		this.#perturbation = p;
	}
	/** Each model's own published points, drawn on its line only. */
	get paper(): Map<string, PaperPoint[]> {
		return paperPointsByModel(this.#study.models, PAPER_FIGURES.points);
	}

	/** Reads the runs; a newer load wins. Never throws. */
	async load(runIds: readonly string[]): Promise<void> {
		const generation = ++this.#generation;
		this.#status = 'loading';
		this.#error = null;
		try {
			const rows = await Promise.all(runIds.map((id) => this.#source.getRun(id)));
			const found = rows.filter((r): r is RunRow => r !== undefined);
			const runs = await Promise.all(
				found.map(async (row) => {
					const [facts, answers] = await Promise.all([
						this.#source.getFacts(row.run_id),
						this.#source.getAnswers(row.run_id)
					]);
					return studyRunOf(row.manifest, facts, answers.map(answerFacts));
				})
			);
			if (generation !== this.#generation) return;
			this.#runs = found;
			this.#missing = runIds.filter((_, i) => rows[i] === undefined);
			this.#study = study(runs);
			this.#warnings = studyMixWarnings(found.map((row) => studySettingsOf(row.manifest)));
			const perturbations = this.perturbations;
			if (!perturbations.includes(this.#perturbation) && perturbations.length > 0)
				this.#perturbation = perturbations[0];
			this.#status = 'ready';
		} catch (e) {
			if (generation !== this.#generation) return;
			this.#status = 'failed';
			this.#error = errorText(e);
		}
	}
}
