/** Numbers as the results and runs views print them: percentages with one decimal, "—" for none. */
import type { Rate } from '$lib/stats/aggregate';

/** 0.125 → "12.5%"; NaN (nothing to count yet) → "—". */
export function percent(p: number, digits = 1): string {
	return Number.isFinite(p) ? `${(p * 100).toFixed(digits)}%` : '—';
}

/** The 95% interval as "8.1–18.0%"; "—" when there is no estimate. */
export function interval(r: Rate): string {
	if (!Number.isFinite(r.p)) return '—';
	return `${(r.lo * 100).toFixed(1)}–${(r.hi * 100).toFixed(1)}%`;
}

/** A difference in percentage points, signed: "+4.2 pp". */
export function points(d: number): string {
	if (!Number.isFinite(d)) return '—';
	const pp = d * 100;
	return `${pp > 0 ? '+' : pp < 0 ? '−' : '±'}${Math.abs(pp).toFixed(1)} pp`;
}

/** An interval in percentage points, the unit said once: "−4.1 to +12.0 pp". */
export function pointsRange(lo: number, hi: number): string {
	const [a, b] = [points(lo), points(hi)];
	return a === '—' || b === '—' ? '—' : `${a.replace(/ pp$/, '')} to ${b}`;
}

/** One line of model text for a list row: whitespace folded, cut at `max` characters. */
export function preview(text: string, max = 160): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	if (flat === '') return '(empty)';
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
