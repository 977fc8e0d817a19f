/**
 * Who labeled what, and how well the labelers agree: the rules, the LLM judge and each human
 * annotator, compared pairwise on the records both labeled. Shared by the agreement view and the
 * CLI's `agreement` command.
 */
import type { Annotation } from '../probe/exchange.ts';
import { binaryLabel } from '../probe/labels.ts';
import { LABELS } from '../probe/types.ts';
import type { Label, ProbeRecord } from '../probe/types.ts';
import { cohenKappa, type Agreement } from './kappa.ts';

/** Labeler name → record key → label. Humans are named `human:<annotator>`. */
export type Labelings = Map<string, Map<string, Label>>;

export const RULES = 'rules';
export const JUDGE = 'judge';

/**
 * The rules only name failure modes; a turn no rule catches is read as a follow-up, exactly as
 * the rules-only judge mode counts it, so "rules" here is the labeler a user would actually get.
 */
export function collectLabelings(
	records: readonly ProbeRecord[],
	annotations: readonly Annotation[] = []
): Labelings {
	const out: Labelings = new Map([
		[RULES, new Map()],
		[JUDGE, new Map()]
	]);
	for (const r of records) {
		out.get(RULES)?.set(r.key, r.rule_label === 'undecided' ? 'genuine_followup' : r.rule_label);
		if (r.judge_label !== null) out.get(JUDGE)?.set(r.key, r.judge_label);
	}
	const keys = new Set(records.map((r) => r.key));
	// Later annotations by the same person replace earlier ones (relabeling after an undo).
	const sorted = [...annotations].sort((a, b) => a.created_at.localeCompare(b.created_at));
	for (const a of sorted) {
		if (!keys.has(a.key)) continue;
		const name = `human:${a.annotator}`;
		if (!out.has(name)) out.set(name, new Map());
		out.get(name)?.set(a.key, a.label);
	}
	for (const [name, labels] of out) if (labels.size === 0) out.delete(name);
	return out;
}

export interface PairAgreement {
	a: string;
	b: string;
	full: Agreement;
	binary: Agreement;
}

/** Every pair of labelers with at least one record in common. */
export function pairwiseAgreement(
	labelings: Labelings,
	opts: { seed?: number; reps?: number } = {}
): PairAgreement[] {
	const names = [...labelings.keys()];
	const out: PairAgreement[] = [];
	for (let i = 0; i < names.length; i++) {
		for (let j = i + 1; j < names.length; j++) {
			const la = labelings.get(names[i]) ?? new Map<string, Label>();
			const lb = labelings.get(names[j]) ?? new Map<string, Label>();
			const keys = [...la.keys()].filter((k) => lb.has(k)).sort();
			if (keys.length === 0) continue;
			const a = keys.map((k) => la.get(k) as Label);
			const b = keys.map((k) => lb.get(k) as Label);
			out.push({
				a: names[i],
				b: names[j],
				full: cohenKappa(a, b, { categories: [...LABELS], ...opts }),
				binary: cohenKappa(a.map(binaryLabel), b.map(binaryLabel), {
					categories: ['genuine', 'not_genuine'],
					...opts
				})
			});
		}
	}
	return out;
}
