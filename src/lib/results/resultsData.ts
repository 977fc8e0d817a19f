/**
 * What the results view shows beside the results table (resultsTable.ts): one point per run for
 * the accuracy-vs-follow-up chart, the paired perturbation deltas and how often a perturbation
 * changed the turn. Pure, so it is tested in Node and the view only wires it to runes.
 */
import { compareConditions, conditionKey, drawnRate, tally, wilson } from '../stats/aggregate.ts';
import { pairedDifference } from '../stats/clustered.ts';
import type { Condition, CountedRecord, Exclusions, Rate } from '../stats/aggregate.ts';
import type { Delta, RunPoint } from '../stats/charts.ts';
import { holm } from '../stats/pairedTest.ts';
import type { Perturbation, ProbeRecord, RunManifest } from '../probe/types.ts';

/** How often a perturbation changed the generated user turn, at one temperature. */
export interface TextChange {
	temperature: number;
	perturbation: Perturbation;
	/** k: pairs whose user turn differs from the unperturbed one; n: pairs with both turns. */
	changed: Rate;
}

/**
 * Per temperature and perturbation other than 'none': the share of (item, sample) pairs whose
 * generated user turn differs from the unperturbed turn of the same item, temperature and sample
 * (the paper reports 99.0% under append). Texts are compared exactly, after trimming surrounding
 * whitespace. At T > 0 a different seed alone can change the text, so the T = 0 rows are the ones
 * that isolate the perturbation. Conditions with no 'none' beside them are left out.
 */
export function textChangeRates(
	records: readonly Pick<
		ProbeRecord,
		'item_id' | 'temperature' | 'perturbation' | 'sample' | 'user_turn'
	>[]
): TextChange[] {
	const pairKey = (r: { item_id: string; temperature: number; sample: number }) =>
		`${r.item_id}|${r.temperature}|${r.sample}`;
	const unperturbed = new Map<string, string>();
	for (const r of records)
		if (r.perturbation === 'none') unperturbed.set(pairKey(r), r.user_turn.trim());
	const counts = new Map<string, TextChange['changed'] & Condition>();
	for (const r of records) {
		if (r.perturbation === 'none') continue;
		const base = unperturbed.get(pairKey(r));
		if (base === undefined) continue;
		const key = conditionKey(r);
		const c = counts.get(key) ?? {
			temperature: r.temperature,
			perturbation: r.perturbation,
			k: 0,
			n: 0,
			p: 0,
			lo: 0,
			hi: 0
		};
		c.n++;
		if (r.user_turn.trim() !== base) c.k++;
		counts.set(key, c);
	}
	return [...counts.values()].sort(compareConditions).map((c) => ({
		temperature: c.temperature,
		perturbation: c.perturbation,
		changed: wilson(c.k, c.n)
	}));
}

/** "Qwen3-0.6B · gsm8k": how a run is named in legends and the runs list. */
export function runName(manifest: Pick<RunManifest, 'config'>): string {
	return `${manifest.config.generator.id} · ${manifest.config.dataset}`;
}

/**
 * One run on the accuracy-vs-follow-up chart. Accuracy is the run's (answers do not depend on the
 * condition); follow-up is taken at the unperturbed condition with the lowest temperature, the
 * closest match to the paper's deterministic points. Runs without 'none' fall back to all records.
 * `exclusions` are the results table's (resultsTable.ts exclusionsFor).
 */
export function runPoint(
	name: string,
	records: readonly CountedRecord[],
	exclusions: Exclusions = {}
): RunPoint {
	let lowest = Number.POSITIVE_INFINITY;
	for (const r of records) if (r.perturbation === 'none') lowest = Math.min(lowest, r.temperature);
	const base = Number.isFinite(lowest)
		? records.filter((r) => r.perturbation === 'none' && r.temperature === lowest)
		: records;
	const suffix = Number.isFinite(lowest) ? ` (T=${lowest})` : ' (all conditions)';
	return {
		name: name + suffix,
		accuracy: tally(records, exclusions).accuracy,
		followup: drawnRate(tally(base, exclusions).followup)
	};
}

export interface PairedDelta extends Delta {
	n_pairs: number;
	n_items: number;
	/** The exact paired test's two-sided p-value (stats/pairedTest.ts); NaN without pairs. */
	p_value: number;
	/**
	 * Holm-adjusted over the run's comparisons shown together: every perturbed condition against
	 * 'none', at every temperature. A study row adjusts over its own run's, so it equals the run's.
	 */
	p_adjusted: number;
}

/** One paired comparison: condition b minus condition a. */
export interface ConditionPair {
	name: string;
	a: Condition;
	b: Condition;
}

/** Per temperature, each perturbation against 'none'; temperatures without 'none' give none. */
export function perturbationPairs(records: Iterable<CountedRecord>): ConditionPair[] {
	const conditions = new Map<string, Condition>();
	for (const r of records) {
		const key = conditionKey(r);
		if (!conditions.has(key))
			conditions.set(key, { temperature: r.temperature, perturbation: r.perturbation });
	}
	const out: ConditionPair[] = [];
	for (const b of [...conditions.values()].sort(compareConditions)) {
		const a: Condition = { temperature: b.temperature, perturbation: 'none' };
		if (b.perturbation === 'none' || !conditions.has(conditionKey(a))) continue;
		out.push({ name: `T=${b.temperature}: ${b.perturbation} − none`, a, b });
	}
	return out;
}

/**
 * The paired difference of one pair (see pairedDifference: by item and sample, cluster bootstrap),
 * leaving out the probes the results table leaves out.
 */
export function pairedDelta(
	records: Iterable<CountedRecord>,
	pair: ConditionPair,
	seed: number,
	unprobed?: ReadonlySet<string>
): Omit<PairedDelta, 'p_adjusted'> {
	return { name: pair.name, ...pairedDifference(records, pair.a, pair.b, { seed, unprobed }) };
}

/** The family's deltas with their Holm-adjusted p-values: call it on all of a run's at once. */
export function withHolm(deltas: readonly Omit<PairedDelta, 'p_adjusted'>[]): PairedDelta[] {
	const adjusted = holm(deltas.map((d) => d.p_value));
	return deltas.map((d, i) => ({ ...d, p_adjusted: adjusted[i] }));
}

/**
 * Every perturbation minus 'none', per temperature, in condition order, Holm-adjusted together.
 * The one owner of a run's paired effects: the results view, a study's rows and `summarize` read
 * them from here.
 */
export function perturbationDeltas(
	records: Iterable<CountedRecord>,
	seed: number,
	unprobed?: ReadonlySet<string>
): PairedDelta[] {
	return withHolm(
		perturbationPairs(records).map((pair) => pairedDelta(records, pair, seed, unprobed))
	);
}
