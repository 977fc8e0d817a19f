/**
 * Pooling a class's labels into one run: each annotator's labels are added beside the ones already
 * there, never over them. Every label is kept (the store's rule: the newest per record and
 * annotator counts), so a conflict, the same annotator name giving a record another label than
 * the stored one, is listed for a person to look at rather than decided silently.
 */
import type { Annotation } from '../probe/exchange.ts';
import type { HumanVerdict, Label } from '../probe/types.ts';

export interface LabelConflict {
	key: string;
	annotator: string;
	/** The label that counted before the merge. */
	stored: Label;
	/** The label the merged file gives. */
	incoming: Label;
	/** Their verdicts (undefined: a label given before verdicts were asked). */
	storedVerdict?: HumanVerdict;
	incomingVerdict?: HumanVerdict;
}

export interface LabelMerge {
	/** The annotations to store: new to this run. */
	added: Annotation[];
	/** Already stored exactly so (a file merged twice). */
	already: number;
	/** Labels of records this run does not have: left out. */
	unknown: number;
	/** Annotators the added labels are by. */
	annotators: string[];
	conflicts: LabelConflict[];
}

/** One label event: a file merged twice adds nothing the second time. */
const signature = (a: Annotation) =>
	JSON.stringify([a.key, a.annotator, a.label, a.verdict ?? null, a.created_at]);

/** Newest label per record and annotator, as the agreement view counts them. */
function latest(list: readonly Annotation[]): Map<string, Annotation> {
	const out = new Map<string, Annotation>();
	for (const a of list) {
		const id = `${a.annotator}\u0000${a.key}`;
		const seen = out.get(id);
		if (!seen || seen.created_at <= a.created_at) out.set(id, a);
	}
	return out;
}

/**
 * What merging `incoming` into a run holding `stored` and the records `keys` adds, and where it
 * disagrees. Pure: the caller stores `added` (with the run's id).
 */
export function mergeLabels(
	stored: readonly Annotation[],
	incoming: readonly Annotation[],
	keys: ReadonlySet<string>
): LabelMerge {
	const added: Annotation[] = [];
	const seen = new Set(stored.map(signature));
	let already = 0;
	let unknown = 0;
	for (const a of incoming) {
		const sig = signature(a);
		if (!keys.has(a.key)) unknown++;
		else if (seen.has(sig)) already++;
		else {
			seen.add(sig);
			added.push(a);
		}
	}
	const before = latest(stored);
	const conflicts: LabelConflict[] = [];
	for (const [id, mine] of latest(added)) {
		const old = before.get(id);
		if (old && (old.label !== mine.label || old.verdict !== mine.verdict)) {
			conflicts.push({
				key: mine.key,
				annotator: mine.annotator,
				stored: old.label,
				incoming: mine.label,
				storedVerdict: old.verdict,
				incomingVerdict: mine.verdict
			});
		}
	}
	return {
		added,
		already,
		unknown,
		annotators: [...new Set(added.map((a) => a.annotator))].sort(),
		conflicts
	};
}
