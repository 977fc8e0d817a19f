import type { Rate } from '../../src/lib/stats/interval.ts';

/** A follow-up rate a test expects to be there (not null, as rules-only groups give). */
export function rated(r: Rate | null | undefined): Rate {
	if (!r) throw new Error('expected a follow-up rate, got none (a group with undecided turns?)');
	return r;
}
