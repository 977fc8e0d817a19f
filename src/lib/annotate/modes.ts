/**
 * Which judge mode to trust for this data: rules only, LLM judge only, or hybrid (rules for clear
 * cases, the judge for the rest), each scored by Cohen's κ against the human labels.
 *
 * All modes are compared on the same items (those every available mode and at least one human
 * labeled), so the comparison is paired. With several annotators, every human label counts as one
 * pair (mode label, human label), and the bootstrap resamples ITEMS with all their human labels,
 * since labels of one item are not independent. The resampled items are the same for every mode
 * (one seed), which keeps the comparison paired inside the bootstrap too.
 */
import { LABELS, VERDICTS } from '../probe/types.ts';
import type { JudgeMode } from '../probe/types.ts';
import { HYBRID, isHuman, JUDGE, RULES, type Labelings } from '../stats/agreement.ts';
import { bootstrapCI } from '../stats/interval.ts';
import {
	confusionMatrix,
	DEFAULT_KAPPA_REPS,
	DEFAULT_KAPPA_SEED,
	kappaOf
} from '../stats/kappa.ts';
import { kappaWarning } from '../stats/smallSample.ts';

/** κ and the like with two decimals; "–" for NaN (no items, or 0/0). */
export function decimal(x: number, digits = 2): string {
	return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

/** 'binary' is the verdict (the paper's validated decision), shown first; 'full' the categories. */
export type Scale = 'binary' | 'full';
export const SCALES: readonly Scale[] = ['binary', 'full'];

export const MODE_LABELERS: readonly { mode: JudgeMode; labeler: string; title: string }[] = [
	{ mode: 'rules', labeler: RULES, title: 'rules-only' },
	{ mode: 'llm', labeler: JUDGE, title: 'LLM-only' },
	{ mode: 'hybrid', labeler: HYBRID, title: 'hybrid' }
];

export interface ModeScore {
	mode: JudgeMode;
	labeler: string;
	title: string;
	/** Items compared (the same for every mode). */
	items: number;
	/** (mode label, human label) pairs: items × their human labels. */
	n: number;
	kappa: number;
	lo: number;
	hi: number;
}

/** One item: the mode's label and every human's label on it. */
interface Cluster {
	mode: string;
	humans: string[];
}

/**
 * κ against the pooled human labels for each mode present in `labelings` (hybrid only when
 * collectLabelings was asked for it): the categories for 'full', the verdicts (collectVerdicts)
 * for 'binary'. [] when no human labeled an item the modes labeled.
 */
export function modeScores(
	labelings: Labelings<string>,
	scale: Scale = 'full',
	opts: { seed?: number; reps?: number } = {}
): ModeScore[] {
	const present = MODE_LABELERS.filter((m) => (labelings.get(m.labeler)?.size ?? 0) > 0);
	const humans = [...labelings].filter(([name]) => isHuman(name)).map(([, labels]) => labels);
	const keys = [...new Set(humans.flatMap((h) => [...h.keys()]))]
		.filter((k) => present.every((m) => labelings.get(m.labeler)?.has(k)))
		.sort();
	if (keys.length === 0) return [];

	// Rules-only leaves some turns undecided: a category that agrees with no human label.
	const categories: string[] = scale === 'full' ? [...LABELS] : [...VERDICTS];
	return present.map(({ mode, labeler, title }) => {
		const labels = labelings.get(labeler);
		const clusters: Cluster[] = keys.map((k) => ({
			mode: labels?.get(k) as string,
			humans: humans.flatMap((h) => {
				const l = h.get(k);
				return l === undefined ? [] : [l];
			})
		}));
		// Every human label is one (mode, human) pair; κ itself is kappa.ts's.
		const pooled = (sample: readonly Cluster[]) =>
			kappaOf(
				confusionMatrix(
					sample.flatMap((c) => c.humans.map(() => c.mode)),
					sample.flatMap((c) => c.humans),
					categories
				)
			).kappa;
		const ci = bootstrapCI(clusters, pooled, {
			seed: opts.seed ?? DEFAULT_KAPPA_SEED,
			reps: opts.reps ?? DEFAULT_KAPPA_REPS
		});
		return {
			mode,
			labeler,
			title,
			items: keys.length,
			n: clusters.reduce((s, c) => s + c.humans.length, 0),
			kappa: ci.estimate,
			lo: ci.lo,
			hi: ci.hi
		};
	});
}

export function describeScore(s: ModeScore): string {
	return `κ = ${decimal(s.kappa)}, 95% CI ${decimal(s.lo)} to ${decimal(s.hi)}`;
}

/**
 * Below this κ no mode is worth trusting: Landis & Koch (1977) call 0.41–0.60 "moderate"
 * agreement, and anything less "fair" at best.
 */
export const MIN_TRUSTED_KAPPA = 0.4;

/** Cheapest first, so a tie goes to the mode that needs no LLM calls. */
const COST: Record<JudgeMode, number> = { rules: 0, hybrid: 1, llm: 2 };

/**
 * One plain sentence: which mode to trust for this data (highest κ against the humans), and
 * whether that lead is clear (its CI does not overlap the runner-up's) or not.
 */
export function modeAdvice(scores: readonly ModeScore[]): string {
	const scored = scores.filter((s) => Number.isFinite(s.kappa));
	if (scored.length === 0) {
		return 'Label some items first: the advice compares each judge mode with your labels.';
	}
	const ranked = [...scored].sort((x, y) => y.kappa - x.kappa || COST[x.mode] - COST[y.mode]);
	const [best, second] = ranked;
	// No recommendation from a κ that means nothing yet.
	const thin = kappaWarning(best.items);
	if (thin) return `No advice yet: ${thin}.`;
	const items = `${best.items} item${best.items === 1 ? '' : 's'}`;
	if (second === undefined) {
		return `Only the ${best.title} labels can be compared with yours here (${describeScore(best)} on ${items}), so there is no other mode to choose.`;
	}
	if (best.kappa < MIN_TRUSTED_KAPPA) {
		return `None of the modes agrees well with the human labels on these ${items}: the best, ${best.title}, has ${describeScore(best)}, so check the label definitions with your annotators (or the judge prompt) before trusting any of them.`;
	}
	const overlap = best.lo <= second.hi && second.lo <= best.hi;
	if (overlap) {
		return `The ${best.title} labels agree best with the human labels (${describeScore(best)}), but that interval overlaps the ${second.title} labels' (${describeScore(second)}) on these ${items}, so the difference is not clear yet: label more items before choosing.`;
	}
	return `Trust the ${best.title} labels for this data: they agree best with the human labels (${describeScore(best)} on ${items}), clearly above the ${second.title} labels (${describeScore(second)}).`;
}
