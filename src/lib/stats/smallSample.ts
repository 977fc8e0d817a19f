/**
 * When a number is too thin to mean anything, said once for every shell: the results view, the
 * agreement view and the CLI print these same words.
 */
import type { Rate } from './interval.ts';

/**
 * A 95% interval wider than this many points leaves a rate nearly open: 40 points is what about
 * 20 turns give at a rate near 50% (Wilson), too wide to tell most models apart.
 */
export const WIDE_INTERVAL = 0.4;

/**
 * Fewer items than this and κ is noise: on one item it is 0 or undefined whatever the labels, and
 * a bootstrap over a handful of items returns an interval that looks narrow but only repeats them.
 */
export const MIN_KAPPA_ITEMS = 20;

const pct = (x: number) => `${Math.round(x * 100)}%`;

/** Why this rate cannot be read as measured yet; null when it can. */
export function rateWarning(r: Rate, unit = 'turns'): string | null {
	if (r.n === 0) return `no ${unit} to count yet`;
	if (r.k === 0)
		return `none seen, but with ${r.n} ${unit} the true rate could still be up to ${pct(r.hi)}`;
	if (r.hi - r.lo > WIDE_INTERVAL) {
		const few = r.n === 1 ? `1 ${unit.replace(/s$/, '')} is` : `${r.n} ${unit} are`;
		return `${few} too few to pin it down: the true rate could be anywhere from ${pct(r.lo)} to ${pct(r.hi)}`;
	}
	return null;
}

/** Why a κ over `items` items says nothing yet; null when there are enough. */
export function kappaWarning(items: number): string | null {
	if (items >= MIN_KAPPA_ITEMS) return null;
	return `${items === 1 ? '1 item is' : `${items} items are`} too few for κ to mean anything (on one item it is 0 or undefined whatever the labels): label at least ${MIN_KAPPA_ITEMS}`;
}
