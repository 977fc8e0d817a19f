/**
 * Who labeled what, and how well the labelers agree: the rules, the LLM judge, the hybrid of the
 * two and each human annotator, compared pairwise on the records both labeled. Shared by the
 * agreement view and the CLI's `agreement` command.
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
/** Derived, not stored: what judge_mode 'hybrid' would label (see hybridLabel). */
export const HYBRID = 'hybrid';
export const HUMAN_PREFIX = 'human:';

/** The categories of κ; 'undecided' joins them only for a pair where the rules left some turn so. */
const FULL: readonly string[] = LABELS.filter((l) => l !== 'undecided');
const BINARY: readonly string[] = ['genuine', 'not_genuine'];

function categories(base: readonly string[], a: readonly Label[], b: readonly Label[]): string[] {
	const undecided = a.includes('undecided') || b.includes('undecided');
	return undecided ? [...base, 'undecided'] : [...base];
}

export interface CollectOptions {
	/**
	 * Also derive the "hybrid" labeler. Off by default so existing callers (the CLI) print the
	 * same pairs as before. Never added when no record has a judge label: without a judge, hybrid
	 * is just the rules under another name, which would be misleading.
	 */
	hybrid?: boolean;
}

/**
 * The label hybrid mode gives a record: the rule's when a rule decided, else the judge's.
 * undefined when the rules were undecided and the judge has not run (yet).
 */
export function hybridLabel(r: Pick<ProbeRecord, 'rule_label' | 'judge_label'>): Label | undefined {
	if (r.rule_label !== 'undecided') return r.rule_label;
	return r.judge_label ?? undefined;
}

/**
 * The rules only name failure modes; a turn no rule catches is undecided, exactly as rules-only
 * labelling stores it, so "rules" here is the labeler a user would actually get: its undecided
 * turns agree with nobody, rather than passing for follow-ups.
 */
export function collectLabelings(
	records: Iterable<Pick<ProbeRecord, 'key' | 'rule_label' | 'judge_label'>>,
	annotations: readonly Annotation[] = [],
	opts: CollectOptions = {}
): Labelings {
	const out: Labelings = new Map([
		[RULES, new Map()],
		[JUDGE, new Map()]
	]);
	for (const r of records) {
		out.get(RULES)?.set(r.key, r.rule_label);
		if (r.judge_label !== null) out.get(JUDGE)?.set(r.key, r.judge_label);
	}
	if (opts.hybrid && (out.get(JUDGE)?.size ?? 0) > 0) {
		const hybrid = new Map<string, Label>();
		for (const r of records) {
			const label = hybridLabel(r);
			if (label !== undefined) hybrid.set(r.key, label);
		}
		out.set(HYBRID, hybrid);
	}
	const keys = new Set(Array.from(records, (r) => r.key));
	// Later annotations by the same person replace earlier ones (relabeling after an undo).
	const sorted = [...annotations].sort((a, b) => a.created_at.localeCompare(b.created_at));
	for (const a of sorted) {
		if (!keys.has(a.key)) continue;
		const name = `${HUMAN_PREFIX}${a.annotator}`;
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
				full: cohenKappa(a, b, { categories: categories(FULL, a, b), ...opts }),
				binary: cohenKappa(a.map(binaryLabel), b.map(binaryLabel), {
					categories: categories(BINARY, a, b),
					...opts
				})
			});
		}
	}
	return out;
}

/** Humans first (they are the reference in every pair they are in), then judge, hybrid, rules. */
const MACHINE_ORDER = [JUDGE, HYBRID, RULES];

function labelerRank(name: string): number {
	if (name.startsWith(HUMAN_PREFIX)) return -1;
	const i = MACHINE_ORDER.indexOf(name);
	return i === -1 ? MACHINE_ORDER.length : i;
}

/** Orders labeler names: humans (by name), judge, hybrid, rules, anything else (by name). */
export function compareLabelers(a: string, b: string): number {
	return labelerRank(a) - labelerRank(b) || a.localeCompare(b);
}

/**
 * The same labelings in reference order (see compareLabelers), so pairwiseAgreement puts the
 * human in `a` (the rows and the reference for precision / recall) whenever a human is in a pair.
 */
export function orderLabelings(labelings: Labelings): Labelings {
	return new Map([...labelings].sort(([a], [b]) => compareLabelers(a, b)));
}

/** A stable id for a pair, in reference order whatever the argument order: "human:ana|judge". */
export function pairId(a: string, b: string): string {
	return compareLabelers(a, b) <= 0 ? `${a}|${b}` : `${b}|${a}`;
}

export function isHuman(name: string): boolean {
	return name.startsWith(HUMAN_PREFIX);
}

export interface Disagreement {
	key: string;
	a: Label;
	b: Label;
}

/**
 * Records both labelers labeled differently, sorted by key.
 * @param binary compare genuine vs not only, so a "prompt vs assistant restatement" is no
 * disagreement.
 */
export function disagreements(
	labelings: Labelings,
	a: string,
	b: string,
	binary = false
): Disagreement[] {
	const la = labelings.get(a) ?? new Map<string, Label>();
	const lb = labelings.get(b) ?? new Map<string, Label>();
	const differ = (x: Label, y: Label) => (binary ? binaryLabel(x) !== binaryLabel(y) : x !== y);
	const out: Disagreement[] = [];
	for (const [key, x] of la) {
		const y = lb.get(key);
		if (y !== undefined && differ(x, y)) out.push({ key, a: x, b: y });
	}
	return out.sort((p, q) => (p.key < q.key ? -1 : p.key > q.key ? 1 : 0));
}
