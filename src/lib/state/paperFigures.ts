/**
 * The paper's published numbers for the overlay (static/paper-figures.json, which we write by
 * hand from the paper; tests/unit/paperFigures.test.ts checks every number). Imported, not
 * fetched, so the overlay works offline; only the results chunk pulls it in.
 */
import figures from '../../../static/paper-figures.json';
import type { PaperPoint } from '../stats/charts.ts';

export interface PaperSource {
	authors: string;
	year: number;
	title: string;
	arxiv: string;
	url: string;
	citation: string;
}

export interface PaperFigures {
	source: PaperSource;
	notes: string[];
	points: PaperPoint[];
	/** Published accuracies without a follow-up rate beside them: listed, never drawn. */
	accuracy_only: { model: string; benchmark: string; accuracy: number }[];
}

/** Typed by assignment: a field of the wrong type in the JSON fails the type check. */
export const PAPER_FIGURES: PaperFigures = figures;

/** "GSM8K", "gsm8k/test", "openai/gsm8k" → "gsm8k"; "GPQA-Diamond" → "gpqadiamond". */
function squash(name: string): string {
	return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/**
 * The paper points about the run's benchmark when the dataset name mentions one (a GSM8K run is
 * compared with GSM8K points), else all of them.
 */
export function overlayFor(points: readonly PaperPoint[], dataset: string): PaperPoint[] {
	const name = squash(dataset);
	const matching = points.filter((p) => name.includes(squash(p.benchmark)));
	return matching.length > 0 ? matching : points.slice();
}
