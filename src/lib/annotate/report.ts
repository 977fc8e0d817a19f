/**
 * Everything the agreement panel shows, computed from a run's records and annotations: κ for every
 * labeler pair (humans, LLM judge, hybrid, rules), and how each judge mode fares against humans.
 */
import type { Annotation } from '../probe/exchange.ts';
import { LABEL_INFO } from '../probe/labels.ts';
import type { Label, ProbeRecord } from '../probe/types.ts';
import {
	collectLabelings,
	collectVerdicts,
	HYBRID,
	HUMAN_PREFIX,
	isHuman,
	JUDGE,
	orderLabelings,
	pairId,
	pairwiseAgreement,
	RULES,
	type Labelings,
	type PairAgreement,
	type Verdicts
} from '../stats/agreement.ts';
import { DEFAULT_KAPPA_REPS } from '../stats/kappa.ts';
import { decimal, modeScores, type ModeScore, type Scale } from './modes.ts';

export { decimal };

export interface PairRow extends PairAgreement {
	/** "human:ana|judge": reference labeler first. */
	id: string;
}

export interface AgreementReport {
	labelings: Labelings;
	/** The binary verdicts, labeler by labeler (a human label without one is not in it). */
	verdicts: Verdicts;
	pairs: PairRow[];
	modes: Record<Scale, ModeScore[]>;
	/** Humans who labeled at least one record, by name. */
	annotators: string[];
}

/**
 * Bootstrap resamples for a pair over n items. Machine pairs cover the whole run (10,000 records
 * at 1,000 reps froze the tab for seconds); at that size κ's interval is narrow and 200 resamples
 * place its ends well within the two decimals shown.
 */
export const BOOTSTRAP_BUDGET = 2_000_000;
export const MIN_REPS = 200;

export function repsFor(n: number): number {
	return Math.max(
		MIN_REPS,
		Math.min(DEFAULT_KAPPA_REPS, Math.floor(BOOTSTRAP_BUDGET / Math.max(1, n)))
	);
}

export interface MachineAgreement {
	/** judge, hybrid and rules only. */
	labelings: Labelings;
	verdicts: Verdicts;
	pairs: PairRow[];
}

/** The pairs without a human: they change only with the records, so callers can keep them. */
export function machineAgreement(
	records: readonly ProbeRecord[],
	opts: { seed?: number; reps?: number } = {}
): MachineAgreement {
	const labelings = orderLabelings(collectLabelings(records, [], { hybrid: true }));
	const verdicts = orderLabelings(collectVerdicts(records, [], { hybrid: true }));
	const reps = opts.reps ?? repsFor(records.length);
	const pairs = pairwiseAgreement(labelings, verdicts, { ...opts, reps });
	return { labelings, verdicts, pairs: pairs.map((p) => ({ ...p, id: pairId(p.a, p.b) })) };
}

/**
 * @param machine pass the cached machineAgreement of the same records to skip recomputing it.
 */
export function agreementReport(
	records: readonly ProbeRecord[],
	annotations: readonly Annotation[],
	opts: { seed?: number; reps?: number } = {},
	machine: MachineAgreement = machineAgreement(records, opts)
): AgreementReport {
	const labelings = orderLabelings(collectLabelings(records, annotations, { hybrid: true }));
	const verdicts = orderLabelings(collectVerdicts(records, annotations, { hybrid: true }));
	const names = [...labelings.keys()];
	const humanPairs: PairRow[] = [];
	names.forEach((a, i) => {
		if (!isHuman(a)) return;
		for (const b of names.slice(i + 1)) {
			const two: Labelings = new Map([a, b].map((n) => [n, labelings.get(n) ?? new Map()]));
			const [pair] = pairwiseAgreement(two, verdicts, opts);
			if (pair) humanPairs.push({ ...pair, id: pairId(a, b) });
		}
	});
	return {
		labelings,
		verdicts,
		// Humans sort first, so this is pairwiseAgreement's order over all labelers.
		pairs: [...humanPairs, ...machine.pairs],
		modes: {
			binary: modeScores(verdicts, 'binary', opts),
			full: modeScores(labelings, 'full', opts)
		},
		annotators: names.filter(isHuman).map((n) => n.slice(HUMAN_PREFIX.length))
	};
}

const MACHINE_TITLES: Record<string, string> = {
	[JUDGE]: 'LLM judge',
	[HYBRID]: 'hybrid (rules, then judge)',
	[RULES]: 'rules'
};

/** "human:ana" → "ana", "judge" → "LLM judge". */
export function labelerTitle(name: string): string {
	return isHuman(name) ? name.slice(HUMAN_PREFIX.length) : (MACHINE_TITLES[name] ?? name);
}

/**
 * The pair to show first: a human against the LLM judge if there is one (the comparison the
 * reviewers asked for), else any pair with a human, else the first pair.
 */
export function defaultPair(pairs: readonly PairRow[]): PairRow | undefined {
	return (
		pairs.find((p) => isHuman(p.a) && p.b === JUDGE) ?? pairs.find((p) => isHuman(p.a)) ?? pairs[0]
	);
}

/** A confusion-matrix category for people: a label's title, or the binary view's two classes. */
export function categoryTitle(category: string): string {
	if (category === 'genuine') return 'Genuine follow-up';
	if (category === 'not_genuine') return 'Not genuine';
	return category in LABEL_INFO ? LABEL_INFO[category as Label].title : category;
}
