/**
 * One palette for every chart: Okabe & Ito (2008), "Color Universal Design", distinguishable
 * under the common color-vision deficiencies and in grayscale by lightness. Greys are the only
 * additions, for "no signal" (judge errors, undecided turns), so they never compete with a real
 * category.
 */
import type { Label, Perturbation } from '../probe/types.ts';

export const PALETTE = {
	black: '#000000',
	orange: '#E69F00',
	skyBlue: '#56B4E9',
	bluishGreen: '#009E73',
	yellow: '#F0E442',
	blue: '#0072B2',
	vermillion: '#D55E00',
	reddishPurple: '#CC79A7',
	grey: '#999999',
	lightGrey: '#D9D9D9'
} as const;

export const PERTURBATION_COLORS: Record<Perturbation, string> = {
	none: PALETTE.blue,
	truncate: PALETTE.vermillion,
	append: PALETTE.bluishGreen,
	neutral: PALETTE.skyBlue,
	contradict: PALETTE.reddishPurple,
	header_only: PALETTE.orange
};

export const LABEL_COLORS: Record<Label, string> = {
	genuine_followup: PALETTE.bluishGreen,
	prompt_restatement: PALETTE.orange,
	assistant_restatement: PALETTE.skyBlue,
	malformed_artifact: PALETTE.reddishPurple,
	meta_planning: PALETTE.yellow,
	degenerate: PALETTE.vermillion,
	judge_error: PALETTE.grey,
	undecided: PALETTE.lightGrey
};

/** Series without a fixed meaning (runs, models) take colors in this order, then wrap. */
export const SERIES_COLORS: readonly string[] = [
	PALETTE.blue,
	PALETTE.vermillion,
	PALETTE.bluishGreen,
	PALETTE.orange,
	PALETTE.reddishPurple,
	PALETTE.skyBlue,
	PALETTE.yellow,
	PALETTE.black
];

export function seriesColor(index: number): string {
	return SERIES_COLORS[index % SERIES_COLORS.length];
}

/** '#RRGGBB' + alpha in [0, 1] → 'rgba(r, g, b, a)', for CI bands and translucent bars. */
export function withAlpha(hex: string, alpha: number): string {
	const value = Number.parseInt(hex.slice(1), 16);
	return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}
