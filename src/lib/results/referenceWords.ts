/**
 * Plain words for a record's reference user turn: what the person in the original conversation
 * actually wrote next, and the judge's pairwise verdict on it. The sample view and the agreement
 * tab both print these, so the two never word the same verdict differently.
 */
import type { ReferenceGrounding } from '../probe/types.ts';

export const REFERENCE_HEADING = 'What the person actually wrote next';

/** Says whose text it is, since both turns sit side by side and look alike. */
export const REFERENCE_NOTE = 'a human wrote this, in the original conversation';

/** Beside the verdict: the comparison is this app's, not the paper's (referenceShare.ts says why). */
export const REFERENCE_MEASURE_WORDS =
	"This comparison is this app's measure, not the paper's: the paper's annotators never saw the human turn.";

type Verdict = ReferenceGrounding | 'none';

/** Each verdict as a sentence (for one sample) and from the generated turn's side (for a column). */
const WORDS: Record<Verdict, { sentence: string; short: string }> = {
	generated: {
		sentence: 'Judge: the generated turn is more grounded in the answer than the human one.',
		short: 'more grounded than the human turn'
	},
	reference: {
		sentence: 'Judge: the human turn is more grounded in the answer than the generated one.',
		short: 'less grounded than the human turn'
	},
	tie: {
		sentence: 'Judge: both turns are as grounded in the answer.',
		short: 'as grounded as the human turn'
	},
	none: {
		sentence: 'Judge: not compared (rules only, no clear reply, or still pending).',
		short: 'not compared with the human turn'
	}
};

/** Absent and null both mean the judge did not compare the turns. */
const verdict = (g: ReferenceGrounding | null | undefined): Verdict => g ?? 'none';

/** The judge's verdict in one sentence. */
export function groundingWords(g: ReferenceGrounding | null | undefined): string {
	return WORDS[verdict(g)].sentence;
}

/** The verdict from the generated turn's side, for a column of several samples. */
export function groundingShort(g: ReferenceGrounding | null | undefined): string {
	return WORDS[verdict(g)].short;
}
