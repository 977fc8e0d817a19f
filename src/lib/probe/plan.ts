/** What a run will make, as plain data: the conditions, their keys, and what is already stored. */
import { hashSeed } from './random.ts';
import type { StoredRecords } from './store.ts';
import type { JudgeMode, Perturbation, ProbeConfig, ProbeRecord } from './types.ts';

export interface Condition {
	temperature: number;
	perturbation: Perturbation;
	sample: number;
}

/**
 * Samples made at temperature 0. Decoding there is greedy: every sample of a condition would be the
 * same turn, costing model work and counting copies as independent observations. So `samples`
 * applies to T > 0 only, and T = 0 makes one turn per item × perturbation (sample 0).
 */
export const GREEDY_SAMPLES = 1;

/** How many samples a condition at this temperature gets. */
export function samplesAt(temperature: number, samples: number): number {
	return temperature === 0 ? Math.min(samples, GREEDY_SAMPLES) : samples;
}

/**
 * temperatures × perturbations × samples (one sample at T = 0, see GREEDY_SAMPLES), in a fixed
 * order so runs are reproducible.
 */
export function planConditions(
	config: Pick<ProbeConfig, 'temperatures' | 'perturbations' | 'samples'>
): Condition[] {
	const out: Condition[] = [];
	for (const temperature of config.temperatures)
		for (const perturbation of config.perturbations)
			for (let sample = 0; sample < samplesAt(temperature, config.samples); sample++)
				out.push({ temperature, perturbation, sample });
	return out;
}

/** The seed of one condition's user turn: the run's seed, the item and the condition. */
export function userTurnSeed(runSeed: number, itemId: string, c: Condition): number {
	return hashSeed(runSeed, itemId, c.temperature, c.perturbation, c.sample);
}

/** Unique within a run; the resume logic and the paired statistics both rely on it. */
export function recordKey(itemId: string, c: Condition): string {
	return `${itemId}|${c.temperature}|${c.perturbation}|${c.sample}`;
}

export interface WorkPlan {
	conditions: Condition[];
	total: number;
	/** Per item, the conditions not yet stored. Items with none are skipped entirely. */
	missing: Map<string, Condition[]>;
	/**
	 * Stored records still waiting for the judge (it had not run when the run stopped): for a label,
	 * or for the comparison with their reference turn.
	 */
	unlabeled: ProbeRecord[];
	labeled: number;
}

export function planWork(config: ProbeConfig, stored: StoredRecords): WorkPlan {
	const conditions = planConditions(config);
	const missing = new Map<string, Condition[]>();
	const unlabeled: ProbeRecord[] = [];
	let labeled = 0;
	// One pass over the plan, each key made once and dropped: a resumed run of a million records
	// must not hold a set of its keys (records of other configs are not the plan's).
	const items = new Set<string>();
	const keyOf = (c: Condition) => recordKey('', c);
	const distinct = conditions.filter(
		(c, i) => conditions.findIndex((d) => keyOf(d) === keyOf(c)) === i
	);
	for (const item of config.items) {
		if (items.has(item.id)) continue;
		items.add(item.id);
		const todo: Condition[] = [];
		for (const c of distinct) {
			const r = stored.get(recordKey(item.id, c));
			if (r === undefined) todo.push(c);
			else if (r.label === null) unlabeled.push(r as ProbeRecord);
			else {
				labeled++;
				// Labelled but never compared with its reference turn: the judge phase compares it.
				if ('reference_turn' in r && awaitsComparison(r, config.judge_mode)) unlabeled.push(r);
			}
		}
		if (todo.length > 0) missing.set(item.id, todo);
	}
	return { conditions, total: items.size * distinct.length, missing, unlabeled, labeled };
}

/**
 * Whether a record still waits for the judge's comparison with its reference turn: it has one, a
 * judge compares (not rules only), and no reply was ever stored (referenceJudge.ts asks).
 */
export function awaitsComparison(
	record: Pick<ProbeRecord, 'reference_turn' | 'reference_grounding_raw'>,
	judgeMode: JudgeMode
): boolean {
	return (
		judgeMode !== 'rules' &&
		record.reference_turn !== undefined &&
		(record.reference_grounding_raw ?? null) === null
	);
}
