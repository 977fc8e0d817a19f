/**
 * Who labeled what, and how well the labelers agree: the rules, the LLM judge, the hybrid of the
 * two and each human annotator, compared pairwise on the records both labeled. Shared by the
 * agreement view and the CLI's `agreement` command.
 */
import type { Annotation } from '../probe/exchange.ts';
import { LABEL_INFO, recordVerdict, verdictOf } from '../probe/labels.ts';
import { LABELS } from '../probe/types.ts';
import type { Label, ProbeRecord, Verdict } from '../probe/types.ts';
import { cohenKappa, type Agreement } from './kappa.ts';

/**
 * Labeler name → record key → label (or verdict). Humans are named `human:<annotator>`. The
 * categories and the verdicts are two labelings: a human label given before verdicts were asked
 * has a category and no verdict.
 */
export type Labelings<T extends string = Label> = Map<string, Map<string, T>>;
/** Labeler name → record key → the binary verdict: the paper's validated decision. */
export type Verdicts = Labelings<Verdict>;

export const RULES = 'rules';
export const JUDGE = 'judge';
/** Derived, not stored: what judge_mode 'hybrid' would label (see hybridLabel). */
export const HYBRID = 'hybrid';
export const HUMAN_PREFIX = 'human:';

/** The categories of κ; 'undecided' joins them only for a pair where the rules left some turn so. */
const FULL: readonly string[] = LABELS.filter((l) => l !== 'undecided');
const BINARY: readonly string[] = ['genuine', 'not_genuine'];

function categories(base: readonly string[], a: readonly string[], b: readonly string[]): string[] {
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
	return withHumans(out, records, annotations, (a) => a.label);
}

/**
 * Adds each human's labeling (what `pick` reads of a label; undefined: none) and drops labelers
 * without a label. Later annotations by the same person replace earlier ones (relabeling after an
 * undo), one without a value too.
 */
function withHumans<T extends string>(
	out: Labelings<T>,
	records: Iterable<Pick<ProbeRecord, 'key'>>,
	annotations: readonly Annotation[],
	pick: (a: Annotation) => T | undefined
): Labelings<T> {
	const keys = new Set(Array.from(records, (r) => r.key));
	const sorted = [...annotations].sort((a, b) => a.created_at.localeCompare(b.created_at));
	for (const a of sorted) {
		if (!keys.has(a.key)) continue;
		const name = `${HUMAN_PREFIX}${a.annotator}`;
		const labels = out.get(name) ?? new Map<string, T>();
		out.set(name, labels);
		const value = pick(a);
		if (value === undefined) labels.delete(a.key);
		else labels.set(a.key, value);
	}
	for (const [name, labels] of out) if (labels.size === 0) out.delete(name);
	return out;
}

/**
 * The verdict a judge gave: the one its record counts with (a conflict counts as not genuine), or
 * a failure category's own. undefined when the judge has not run.
 */
function judgeVerdict(
	r: Pick<ProbeRecord, 'judge_label' | 'label' | 'verdict' | 'label_source'>
): Verdict | undefined {
	if (r.judge_label === null) return undefined;
	if (r.label_source === 'judge' && r.label === r.judge_label) {
		return recordVerdict(r) ?? undefined;
	}
	// Judged, but another label counts (a hybrid run's rule): only a failure category says its verdict.
	return LABEL_INFO[r.judge_label].genuine === false ? 'not_genuine' : undefined;
}

/**
 * The binary verdicts beside collectLabelings' categories, labeler by labeler: the rules' (not
 * genuine, or undecided), the judge's (as its record counts it), hybrid's, and each human's as
 * given. A human label without a verdict (given before verdicts were asked) has none here: its
 * verdict is unknown, and a later label replaces an earlier one either way.
 */
export function collectVerdicts(
	records: Iterable<
		Pick<ProbeRecord, 'key' | 'rule_label' | 'judge_label' | 'label' | 'verdict' | 'label_source'>
	>,
	annotations: readonly Annotation[] = [],
	opts: CollectOptions = {}
): Verdicts {
	const out: Verdicts = new Map([
		[RULES, new Map()],
		[JUDGE, new Map()]
	]);
	let judged = false;
	for (const r of records) {
		out.get(RULES)?.set(r.key, verdictOf(r.rule_label));
		const v = judgeVerdict(r);
		if (v !== undefined) out.get(JUDGE)?.set(r.key, v);
		if (r.judge_label !== null) judged = true;
	}
	if (opts.hybrid && judged) {
		const hybrid = new Map<string, Verdict>();
		for (const r of records) {
			const v = r.rule_label !== 'undecided' ? verdictOf(r.rule_label) : judgeVerdict(r);
			if (v !== undefined) hybrid.set(r.key, v);
		}
		out.set(HYBRID, hybrid);
	}
	return withHumans(out, records, annotations, (a) => a.verdict);
}

export interface PairAgreement {
	a: string;
	b: string;
	/** κ of the binary verdict: the paper's validated decision, reported first. */
	binary: Agreement;
	/** κ of the categories. */
	full: Agreement;
}

function agreementOn<T extends string>(
	la: ReadonlyMap<string, T>,
	lb: ReadonlyMap<string, T>,
	base: readonly string[],
	opts: { seed?: number; reps?: number }
): Agreement {
	const keys = [...la.keys()].filter((k) => lb.has(k)).sort();
	const a = keys.map((k) => la.get(k) as T);
	const b = keys.map((k) => lb.get(k) as T);
	return cohenKappa(a, b, { categories: categories(base, a, b), ...opts });
}

/**
 * Every pair of labelers with at least one record in common, κ of the verdicts and of the
 * categories, each on the records both gave one (a human's labels without a verdict count in the
 * categories only, so the two n may differ).
 */
export function pairwiseAgreement(
	labelings: Labelings,
	verdicts: Verdicts,
	opts: { seed?: number; reps?: number } = {}
): PairAgreement[] {
	const names = [...labelings.keys()];
	const out: PairAgreement[] = [];
	const none = new Map<string, never>();
	for (let i = 0; i < names.length; i++) {
		for (let j = i + 1; j < names.length; j++) {
			const la = labelings.get(names[i]) ?? none;
			const lb = labelings.get(names[j]) ?? none;
			if (![...la.keys()].some((k) => lb.has(k))) continue;
			out.push({
				a: names[i],
				b: names[j],
				binary: agreementOn(
					verdicts.get(names[i]) ?? none,
					verdicts.get(names[j]) ?? none,
					BINARY,
					opts
				),
				full: agreementOn(la, lb, FULL, opts)
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
export function orderLabelings<T extends string>(labelings: Labelings<T>): Labelings<T> {
	return new Map([...labelings].sort(([a], [b]) => compareLabelers(a, b)));
}

/** A stable id for a pair, in reference order whatever the argument order: "human:ana|judge". */
export function pairId(a: string, b: string): string {
	return compareLabelers(a, b) <= 0 ? `${a}|${b}` : `${b}|${a}`;
}

export function isHuman(name: string): boolean {
	return name.startsWith(HUMAN_PREFIX);
}

export interface Disagreement<T extends string = Label | Verdict> {
	key: string;
	a: T;
	b: T;
}

/**
 * Records both labelers labeled differently, sorted by key. Pass the verdicts to compare genuine
 * vs not only, so a "prompt vs assistant restatement" is no disagreement.
 */
export function disagreements<T extends string>(
	labelings: Labelings<T>,
	a: string,
	b: string
): Disagreement<T>[] {
	const la = labelings.get(a) ?? new Map<string, T>();
	const lb = labelings.get(b) ?? new Map<string, T>();
	const out: Disagreement<T>[] = [];
	for (const [key, x] of la) {
		const y = lb.get(key);
		if (y !== undefined && x !== y) out.push({ key, a: x, b: y });
	}
	return out.sort((p, q) => (p.key < q.key ? -1 : p.key > q.key ? 1 : 0));
}
