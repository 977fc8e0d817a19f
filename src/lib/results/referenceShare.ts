/**
 * The share of generated user turns the judge rated at least as grounded in the assistant's answer
 * as the human's real next turn: (generated + tie) / compared, with a Wilson 95% interval, per
 * condition and for the whole run. Computed here once; the results view and `summarize` print it.
 * Records without a reference turn (reference_grounding absent) are not part of it at all; those
 * with one but no verdict (rules-only runs, pending, a reply that named neither turn) are counted
 * as not compared and stay out of the share.
 */
import type { ProbeRecord } from '../probe/types.ts';
import { perCondition, wilson } from '../stats/aggregate.ts';
import type { Condition, Rate } from '../stats/aggregate.ts';

/** What the share reads of a record (facts carry it too). */
export type GroundedRecord = Pick<
	ProbeRecord,
	'temperature' | 'perturbation' | 'reference_grounding'
>;

export interface ReferenceTally {
	/** Records with a reference turn. */
	records: number;
	/** Of them, the judge found the generated turn more grounded, the human's, or both alike. */
	generated: number;
	reference: number;
	tie: number;
	/** Records with a reference but no verdict: rules only, still pending, or an unreadable reply. */
	uncompared: number;
	/** (generated + tie) / compared. */
	at_least_as_grounded: Rate;
}

export interface ReferenceShare {
	overall: ReferenceTally;
	/** Per temperature × perturbation, in condition order. */
	conditions: (Condition & ReferenceTally)[];
}

class Counts {
	records = 0;
	generated = 0;
	reference = 0;
	tie = 0;

	add(g: NonNullable<GroundedRecord['reference_grounding']> | null): void {
		this.records++;
		if (g !== null) this[g]++;
	}

	tally(): ReferenceTally {
		const compared = this.generated + this.reference + this.tie;
		return {
			records: this.records,
			generated: this.generated,
			reference: this.reference,
			tie: this.tie,
			uncompared: this.records - compared,
			at_least_as_grounded: wilson(this.generated + this.tie, compared)
		};
	}
}

/** The share, or undefined when no record has a reference turn (the table then has no such row). */
export function referenceShare(records: readonly GroundedRecord[]): ReferenceShare | undefined {
	const referenced = records.filter((r) => r.reference_grounding !== undefined);
	if (referenced.length === 0) return undefined;
	const overall = new Counts();
	for (const r of referenced) overall.add(r.reference_grounding ?? null);
	const groups = perCondition(
		referenced,
		() => new Counts(),
		(counts, r) => counts.add(r.reference_grounding ?? null)
	);
	return {
		overall: overall.tally(),
		conditions: groups.map(({ condition, acc }) => ({ ...condition, ...acc.tally() }))
	};
}
