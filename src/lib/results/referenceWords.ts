/**
 * Plain words for a record's reference user turn: what the person in the original conversation
 * actually wrote next, and the judge's pairwise verdict on it. The sample view and the agreement
 * tab both print these, so the two never word the same verdict differently.
 */
import type { ReferenceGrounding } from '../probe/types.ts';

export const REFERENCE_HEADING = 'What the person actually wrote next';

/** Says whose text it is, since both turns sit side by side and look alike. */
export const REFERENCE_NOTE = 'a human wrote this, in the original conversation';

/** The judge's verdict in one sentence; absent and null both mean it was not compared. */
export function groundingWords(g: ReferenceGrounding | null | undefined): string {
	switch (g) {
		case 'generated':
			return 'Judge: the generated turn is more grounded in the answer than the human one.';
		case 'reference':
			return 'Judge: the human turn is more grounded in the answer than the generated one.';
		case 'tie':
			return 'Judge: both turns are as grounded in the answer.';
		default:
			return 'Judge: not compared (rules only, no clear reply, or still pending).';
	}
}

/** The verdict from the generated turn's side, for a column of several samples. */
export function groundingShort(g: ReferenceGrounding | null | undefined): string {
	switch (g) {
		case 'generated':
			return 'more grounded than the human turn';
		case 'reference':
			return 'less grounded than the human turn';
		case 'tie':
			return 'as grounded as the human turn';
		default:
			return 'not compared with the human turn';
	}
}
