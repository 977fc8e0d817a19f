/**
 * A study: several runs (usually one per generator model, same items, seeds, conditions and judge)
 * side by side, as the paper's figures draw them. Every number comes from the single-run
 * computation (resultsTable.ts for rates and counts, resultsData.ts for paired perturbation
 * effects), so a study row equals that run's results view; this module only lines runs up by
 * model × condition and adds label shares. The study view and `summarize a.jsonl b.jsonl …` both
 * call study(), so the CLI prints what the view draws.
 */
import type { CutOfRecord } from '../probe/answerCut.ts';
import type { ModelRef, ProbeConfig } from '../probe/types.ts';
import { LABELS, type Label } from '../probe/types.ts';
import { conditionKey } from '../stats/aggregate.ts';
import type { ConditionSummary, CountedRecord, Tally } from '../stats/aggregate.ts';
import type { ReferenceTally } from './referenceShare.ts';
import { perturbationDeltas, perturbationPairs, type PairedDelta } from './resultsData.ts';
import {
	COUNT_DEFAULTS,
	exclusionsFor,
	resultsTable,
	type AnswerFacts,
	type CountOptions,
	type ResultsTable
} from './resultsTable.ts';

/** What a study reads of one run: its identity, the records' facts and one fact per answer. */
export interface StudyRun {
	run_id: string;
	generator: ModelRef;
	dataset: string;
	/** The run's seed: its paired bootstrap uses it, as the results view does. */
	seed: number;
	/** Read several times over (an array, or the CLI's packed records); each says its answer's cut. */
	records: Iterable<CountedRecord & CutOfRecord>;
	/** The run's answers file or table; [] without one (the records' own cuts count then). */
	answers: readonly AnswerFacts[];
}

/** The manifest's part a study needs, so a caller with a manifest passes it as it is. */
export function studyRunOf(
	manifest: {
		run_id: string;
		config: Pick<ProbeConfig, 'generator' | 'seed'> & { dataset: string };
	},
	records: Iterable<CountedRecord & CutOfRecord>,
	answers: readonly AnswerFacts[]
): StudyRun {
	const { generator, dataset, seed } = manifest.config;
	return { run_id: manifest.run_id, generator, dataset, seed, records, answers };
}

/** One row of the study table: one model at one condition. */
export interface StudyRow extends ConditionSummary {
	/** The series name (StudyModel.name). */
	model: string;
	run_id: string;
	/** Each label's share of the labelled turns counted (labels / their sum); NaN with none. */
	label_shares: Record<Label, number>;
	/**
	 * This condition's follow-up rate minus the unperturbed one at the same temperature, paired by
	 * item and sample with a cluster-bootstrap interval; null for 'none' and where no 'none' is.
	 */
	effect: PairedDelta | null;
}

/** One run of the study, pooled over its conditions. */
export interface StudyModel {
	/** The generator's id, with the dataset or run id added only where two runs share it. */
	name: string;
	run_id: string;
	generator: ModelRef;
	dataset: string;
	overall: Tally;
	cut_answers: number;
	cut_reasoning_items: number;
	/** The run's reference share (referenceShare.ts), when its items carry the human's next turn. */
	reference?: ReferenceTally;
}

export interface Study {
	options: CountOptions;
	/** In the order the runs were given. */
	models: StudyModel[];
	/** Per model (in `models` order), per condition in condition order. */
	rows: StudyRow[];
}

/** Each label's share of the labelled turns; NaN throughout when there are none. */
export function labelShares(labels: Record<Label, number>): Record<Label, number> {
	const total = LABELS.reduce((sum, label) => sum + labels[label], 0);
	return Object.fromEntries(
		LABELS.map((label) => [label, total === 0 ? Number.NaN : labels[label] / total])
	) as Record<Label, number>;
}

/**
 * Series names: the generator id, unique across the study. Two runs of one model (two datasets,
 * or a rerun) get the dataset added, then the run id, so no two lines share a legend entry.
 */
export function studyNames(runs: readonly Pick<StudyRun, 'run_id' | 'generator' | 'dataset'>[]) {
	const count = (names: string[]) => {
		const seen = new Map<string, number>();
		for (const n of names) seen.set(n, (seen.get(n) ?? 0) + 1);
		return seen;
	};
	const ids = runs.map((r) => r.generator.id);
	const idCount = count(ids);
	const withData = runs.map((r, i) =>
		(idCount.get(ids[i]) ?? 0) > 1 ? `${r.generator.id} · ${r.dataset}` : ids[i]
	);
	const dataCount = count(withData);
	return runs.map((r, i) =>
		(dataCount.get(withData[i]) ?? 0) > 1 ? `${withData[i]} · ${r.run_id}` : withData[i]
	);
}

/**
 * A run's paired effects by condition key (`conditionKey`): each perturbed condition against
 * 'none' at its temperature, leaving out what the counting options leave out, Holm-adjusted over
 * the run's comparisons. The one function a study row, a single run's `summarize` and its tests
 * read effects from.
 */
export function runEffects(
	run: Pick<StudyRun, 'records' | 'answers' | 'seed'>,
	options: CountOptions = COUNT_DEFAULTS
): Map<string, PairedDelta> {
	const { unprobed } = exclusionsFor(run.records, run.answers, options);
	const pairs = perturbationPairs(run.records);
	const deltas = perturbationDeltas(run.records, run.seed, unprobed);
	return new Map(pairs.map((pair, k) => [conditionKey(pair.b), deltas[k]]));
}

/** One run's results table with each condition's paired effect (null for 'none'): `summarize --json`. */
export interface RunSummary extends ResultsTable {
	conditions: (ResultsTable['conditions'][number] & { effect: PairedDelta | null })[];
}

export function runSummary(
	run: Pick<StudyRun, 'records' | 'answers' | 'seed'>,
	options: CountOptions = COUNT_DEFAULTS
): RunSummary {
	const table = resultsTable(run.records, run.answers, options);
	const effects = runEffects(run, options);
	return {
		...table,
		conditions: table.conditions.map((c) => ({
			...c,
			effect: effects.get(conditionKey(c)) ?? null
		}))
	};
}

/**
 * The study table. Pure; the paired bootstraps make it the slow part (about a millisecond per
 * perturbed condition and hundred items), so a view computes it once per load or toggle.
 */
export function study(runs: readonly StudyRun[], options: CountOptions = COUNT_DEFAULTS): Study {
	const names = studyNames(runs);
	const models: StudyModel[] = [];
	const rows: StudyRow[] = [];
	runs.forEach((run, i) => {
		const table = resultsTable(run.records, run.answers, options);
		const effects = runEffects(run, options);
		models.push({
			name: names[i],
			run_id: run.run_id,
			generator: run.generator,
			dataset: run.dataset,
			overall: table.overall,
			cut_answers: table.cut_answers,
			cut_reasoning_items: table.cut_reasoning_items,
			...(table.reference ? { reference: table.reference.overall } : {})
		});
		for (const c of table.conditions)
			rows.push({
				model: names[i],
				run_id: run.run_id,
				...c,
				label_shares: labelShares(c.labels),
				effect: effects.get(conditionKey(c)) ?? null
			});
	});
	return { options: { ...options }, models, rows };
}
