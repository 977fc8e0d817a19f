/**
 * This app's reference measure (not the paper's): how the judge compared each generated user
 * turn with the human's real next turn, on unperturbed records only, with the outcomes kept
 * apart: more grounded, as grounded (a tie), less grounded. Computed here once; the results view,
 * the study and `summarize` print it.
 *
 * The paper compares nothing with the human turn: its annotators did not see it
 * (../shared/paper/001, the human-annotation excerpt in its reference graph, entry [24]: "Annotators did not see … reference user turn"), and its metric
 * "does not require matching the actual human next turn" (../shared/paper/002, "Boundaries",
 * second point). The human wrote for the unperturbed answer, so a truncated or appended answer has
 * no human turn to compare with: such records are counted as left out, never in the share.
 * Records without a reference turn (reference_grounding absent) are not part of it at all; those
 * with one but no verdict (rules-only runs, pending, a reply that named neither turn) are counted
 * as not compared and stay out of the rates.
 */
import type { ProbeRecord } from '../probe/types.ts';
import { perCondition, wilson } from '../stats/aggregate.ts';
import type { Condition, Rate } from '../stats/aggregate.ts';

/** What the share reads of a record (facts carry it too). */
export type GroundedRecord = Pick<
	ProbeRecord,
	'temperature' | 'perturbation' | 'reference_grounding'
>;

/** Said wherever the measure is shown, so nobody reads it as the paper's number. */
export const REFERENCE_MEASURE_NOTE =
	"This app's measure, not the paper's: the paper never compares a generated turn with the " +
	"human's (its annotators did not see it, and its follow-up rate does not require matching it). " +
	'Unperturbed records only; ties apart.';

export interface ReferenceTally {
	/** Unperturbed records with a reference turn. */
	records: number;
	/** Of them, the judge found the generated turn more grounded, the human's, or both alike. */
	generated: number;
	reference: number;
	tie: number;
	/** Records with a reference but no verdict: rules only, still pending, or an unreadable reply. */
	uncompared: number;
	/** generated / compared: the generated turn more grounded than the human's. */
	more_grounded: Rate;
	/** tie / compared: as grounded as the human's, reported apart (not a win). */
	as_grounded: Rate;
}

export interface ReferenceShare {
	/** REFERENCE_MEASURE_NOTE: `summarize --json` carries the caveat with the numbers. */
	measure: string;
	overall: ReferenceTally;
	/** Per temperature, unperturbed conditions only, in condition order. */
	conditions: (Condition & ReferenceTally)[];
	/** Records with a reference under a perturbation: the human never saw that answer. */
	perturbed_left_out: number;
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
			more_grounded: wilson(this.generated, compared),
			as_grounded: wilson(this.tie, compared)
		};
	}
}

/** The share, or undefined when no record has a reference turn (the table then has no such row). */
export function referenceShare(records: Iterable<GroundedRecord>): ReferenceShare | undefined {
	// One pass that holds no records: the CLI hands a million of them, made one at a time.
	let referenced = 0;
	const overall = new Counts();
	function* unperturbed() {
		for (const r of records) {
			if (r.reference_grounding === undefined) continue;
			referenced++;
			if (r.perturbation === 'none') yield r;
		}
	}
	const groups = perCondition(
		unperturbed(),
		() => new Counts(),
		(counts, r) => {
			counts.add(r.reference_grounding ?? null);
			overall.add(r.reference_grounding ?? null);
		}
	);
	if (referenced === 0) return undefined;
	return {
		measure: REFERENCE_MEASURE_NOTE,
		overall: overall.tally(),
		conditions: groups.map(({ condition, acc }) => ({ ...condition, ...acc.tally() })),
		perturbed_left_out: referenced - overall.records
	};
}
