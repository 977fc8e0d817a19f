/**
 * Everything the agreement panel shows, computed from a run's records and annotations: κ for every
 * labeler pair (humans, LLM judge, hybrid, rules), and how each judge mode fares against humans.
 */
import type { Annotation } from '../probe/exchange.ts';
import { LABEL_INFO } from '../probe/labels.ts';
import type { Label, ProbeRecord } from '../probe/types.ts';
import {
	collectLabelings,
	HYBRID,
	HUMAN_PREFIX,
	isHuman,
	JUDGE,
	orderLabelings,
	pairId,
	pairwiseAgreement,
	RULES,
	type Labelings,
	type PairAgreement
} from '../stats/agreement.ts';
import { modeScores, type ModeScore, type Scale } from './modes.ts';

export interface PairRow extends PairAgreement {
	/** "human:ana|judge": reference labeler first. */
	id: string;
}

export interface AgreementReport {
	labelings: Labelings;
	pairs: PairRow[];
	modes: Record<Scale, ModeScore[]>;
	/** Humans who labeled at least one record, by name. */
	annotators: string[];
}

export function agreementReport(
	records: readonly ProbeRecord[],
	annotations: readonly Annotation[],
	opts: { seed?: number; reps?: number } = {}
): AgreementReport {
	const labelings = orderLabelings(collectLabelings(records, annotations, { hybrid: true }));
	const pairs = pairwiseAgreement(labelings, opts).map((p) => ({ ...p, id: pairId(p.a, p.b) }));
	return {
		labelings,
		pairs,
		modes: {
			full: modeScores(labelings, 'full', opts),
			binary: modeScores(labelings, 'binary', opts)
		},
		annotators: [...labelings.keys()].filter(isHuman).map((n) => n.slice(HUMAN_PREFIX.length))
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

/** κ and the like with two decimals; "–" for NaN (no items, or 0/0). */
export function fmt(x: number, digits = 2): string {
	return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

/** A confusion-matrix category for people: a label's title, or the binary view's two classes. */
export function categoryTitle(category: string): string {
	if (category === 'genuine') return 'Genuine follow-up';
	if (category === 'not_genuine') return 'Not genuine';
	return category in LABEL_INFO ? LABEL_INFO[category as Label].title : category;
}
