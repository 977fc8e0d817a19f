/**
 * The paper's published numbers for the overlay (static/paper-figures.json, written by hand, each
 * number with where in the paper it is; tests/unit/results/paperFigures.test.ts checks every one).
 * Imported, not fetched, so the overlay works offline; only the results chunk pulls it in.
 *
 * Like with like: a number is shown only beside a run of its benchmark, and a verdict ("differs",
 * "cannot tell") is given only against the paper model the run's generator is. The other models'
 * numbers are context: the same benchmark, another model.
 */
import figures from '../../../static/paper-figures.json';
import type { ModelRef } from '../probe/types.ts';
import type { ConditionSummary } from '../stats/aggregate.ts';
import type { PaperPoint } from '../stats/charts.ts';
import type { Rate } from '../stats/interval.ts';

export interface PaperSource {
	authors: string;
	year: number;
	title: string;
	arxiv: string;
	url: string;
	citation: string;
}

/**
 * Where a number is written: a file of the texts this project was built from (../shared/paper,
 * whose README says which is which), the place in it, and the words quoted (a test finds each).
 */
export interface PaperCite {
	file: string;
	place: string;
	quote: string;
}

export interface PaperFigures {
	source: PaperSource;
	notes: string[];
	points: (PaperPoint & { cite: PaperCite[] })[];
	/** Published accuracies without a follow-up rate beside them: listed, never drawn. */
	accuracy_only: {
		model: string;
		benchmark: string;
		accuracy: number;
		source: string;
		cite: PaperCite[];
	}[];
	/**
	 * Published shares of user turns whose text changes under a perturbation (vs the unperturbed
	 * turn), with the benchmark and models they were measured on.
	 */
	text_change: TextChangeFigure[];
}

export interface TextChangeFigure {
	benchmark: string;
	models: string[];
	condition: string;
	rate: number;
	source: string;
	cite: PaperCite[];
}

/** Typed by assignment: a field of the wrong type in the JSON fails the type check. */
export const PAPER_FIGURES: PaperFigures = figures;

/** "GSM8K", "gsm8k/test", "openai/gsm8k" → "gsm8k"; "GPQA-Diamond" → "gpqadiamond". */
function squash(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** The benchmarks this app holds paper numbers for, in the order of its figures file. */
export function paperBenchmarks(points: readonly PaperPoint[]): string[] {
	return [...new Set(points.map((p) => p.benchmark))];
}

/**
 * The paper's text-change share to show beside one row of a run's text-change table: only at T=0.
 * There the unperturbed and the perturbed turn differ by the perturbation alone; above T=0 each
 * condition samples with its own seed (probe/plan.ts userTurnSeed), so the text changes nearly
 * always whatever the perturbation does, and a published ~99% beside it would compare nothing.
 */
export function textChangeBeside(
	published: readonly TextChangeFigure[],
	row: { temperature: number; perturbation: string }
): TextChangeFigure | undefined {
	if (row.temperature !== 0) return undefined;
	return published.find((t) => t.condition === row.perturbation);
}

/**
 * The published numbers about the run's benchmark when the dataset name mentions one (a GSM8K run
 * gets GSM8K numbers), else none: this app holds no paper number for an IFEval, GPQA Main,
 * conversation or demo run.
 */
export function overlayFor<T extends { benchmark: string }>(
	figures: readonly T[],
	dataset: string
): T[] {
	const name = squash(dataset);
	return figures.filter((f) => name.includes(squash(f.benchmark)));
}

/**
 * "Qwen/Qwen3.5-2B" → "qwen3.5-2b"; "Qwen3.5-2B (base)" → "qwen3.5-2b": the repo name, no owner.
 * Only "(base)" is the public model; "Qwen3.5-2B (SFT)" and "(RL)" are the paper's post-trained
 * variants, which no run can be, so they keep their suffix and match nothing.
 */
function modelName(name: string): string {
	const bare = name.replace(/\s*\(base\)\s*$/i, '').trim();
	return bare.slice(bare.lastIndexOf('/') + 1).toLowerCase();
}

/**
 * Whether the run's generator is this paper model: its id or its template repo names the same
 * model ("openai/gpt-oss-20b" is gpt-oss-20B; an MLC id "Qwen3.5-2B-q4f16_1-MLC" is Qwen3.5-2B
 * through its template repo "Qwen/Qwen3.5-2B"). Exact names only, so Qwen3.5-2B is not Qwen3.5-27B
 * and a quantised file under another name is not claimed to be the paper's model.
 */
export function isPaperModel(paperModel: string, generator: ModelRef): boolean {
	const want = modelName(paperModel);
	return [generator.id, generator.template_repo].some(
		(n) => n !== undefined && modelName(n) === want
	);
}

/** What a run's own number says about one of the paper's. */
export type Verdict =
	/** The run has no records of the point's temperature and condition. */
	| 'no_condition'
	/** The condition is there but nothing is counted yet (no judged turn, no scored answer). */
	| 'no_data'
	/** The paper's number lies inside this run's 95% interval: the run cannot tell them apart. */
	| 'indistinguishable'
	/** The paper's number lies outside this run's 95% interval. */
	| 'differs'
	/** Another model's number: shown for context, never compared with this run. */
	| 'other_model';

export interface PaperComparison {
	point: PaperPoint;
	measure: 'followup' | 'accuracy';
	/** The paper's number for that measure. */
	paper: number;
	/** This run's rate at the same temperature and condition; null for another model's number. */
	run: Rate | null;
	verdict: Verdict;
}

/** Compares one published rate with the run's: inside the 95% interval means not distinguishable. */
function judge(paper: number, run: Rate | null): Verdict {
	if (run === null) return 'no_condition';
	if (run.n === 0 || Number.isNaN(run.p)) return 'no_data';
	return paper >= run.lo && paper <= run.hi ? 'indistinguishable' : 'differs';
}

/**
 * Every overlay number, the follow-up rate of each point and the accuracy too where the paper
 * published one. A number of the paper model the generator is stands beside this run's rate at the
 * same temperature and condition, with a verdict; every other model's is context ('other_model').
 * With the default 10 items, 0/10 is [0, 28%], so most published rates fall inside it: the run
 * cannot distinguish them.
 */
export function compareWithPaper(
	summaries: readonly ConditionSummary[],
	overlay: readonly PaperPoint[],
	generator: ModelRef
): PaperComparison[] {
	const out: PaperComparison[] = [];
	for (const point of overlay) {
		const same = isPaperModel(point.model, generator);
		const s = summaries.find(
			(x) => x.temperature === point.temperature && x.perturbation === point.condition
		);
		const measures: [PaperComparison['measure'], number, Rate | undefined][] = [
			['followup', point.followup, s?.followup]
		];
		if (point.accuracy !== undefined) measures.push(['accuracy', point.accuracy, s?.accuracy]);
		for (const [measure, paper, rate] of measures) {
			const run = same ? (rate ?? null) : null;
			const verdict = same ? judge(paper, run) : 'other_model';
			out.push({ point, measure, paper, run, verdict });
		}
	}
	return out;
}

/**
 * Each study model's own published points: those of its benchmark whose paper model it is
 * (isPaperModel), keyed by the model's series name. Another model's numbers are left out, so a
 * point is only ever drawn on the line of the model it was published for.
 */
export function paperPointsByModel(
	models: readonly { name: string; generator: ModelRef; dataset: string }[],
	points: readonly PaperPoint[]
): Map<string, PaperPoint[]> {
	const out = new Map<string, PaperPoint[]>();
	for (const m of models) {
		const own = overlayFor(points, m.dataset).filter((p) => isPaperModel(p.model, m.generator));
		if (own.length > 0) out.set(m.name, own);
	}
	return out;
}
