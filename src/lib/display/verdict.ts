/**
 * A record's verdict in words for the sample and annotation views, with the conflict spelled out
 * when the judge gave a failure category a genuine verdict (labels.ts isVerdictConflict).
 */
import { isVerdictConflict, LABEL_INFO, recordVerdict } from '../probe/labels.ts';
import type { ProbeRecord, Verdict } from '../probe/types.ts';

export const VERDICT_WORDS: Record<Verdict, string> = {
	genuine: 'genuine follow-up',
	not_genuine: 'not a genuine follow-up',
	undecided: 'undecided (no judge asked)'
};

export interface VerdictWords {
	/** The verdict the record counts with. */
	text: string;
	/** Set for a conflict: what the judge wrote and how it is counted. */
	conflict?: string;
}

/** null while the record is pending. */
export function verdictWords(r: Pick<ProbeRecord, 'label' | 'verdict'>): VerdictWords | null {
	const counted = recordVerdict(r);
	if (counted === null) return null;
	if (!isVerdictConflict(r) || r.label === null) return { text: VERDICT_WORDS[counted] };
	return {
		text: VERDICT_WORDS[counted],
		conflict: `Conflict: the judge chose the failure category ${LABEL_INFO[r.label].title} and the verdict genuine. Both are kept as written; it counts as not genuine.`
	};
}
