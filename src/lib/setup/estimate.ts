/**
 * What a run will cost before it starts: downloads, generations and a rough time. The time is a
 * guess from typical output lengths and a typical speed, and the UI says so; the counts are exact.
 * Nobody knows a user's bandwidth beforehand: the download's time is added only from a download
 * measured in this browser (the last one), and otherwise left out and said to be.
 */
import type { JudgeMode } from '../probe/types.ts';

/** Typical output lengths in tokens (short GSM8K answers, one-sentence user turns, a JSON verdict). */
export const TYPICAL_TOKENS = { answer: 220, user_turn: 50, judge: 60 } as const;

/** A speed measured by "Benchmark this device", for the estimate. */
export interface MeasuredSpeed {
	tokens_per_second: number;
	/** When it was measured (ISO). */
	at: string;
}

/**
 * The newest benchmark of this engine and model that measured a decode speed, or undefined.
 * @param history stored benchmarks (any order)
 */
export function measuredSpeed(
	history: readonly {
		engine: string;
		model_id: string;
		created_at: string;
		results: Record<string, number>;
	}[],
	engine: string,
	model: string
): MeasuredSpeed | undefined {
	let best: MeasuredSpeed | undefined;
	for (const row of history) {
		const tps = row.results.decode_tps;
		if (row.engine !== engine || row.model_id !== model) continue;
		if (!(typeof tps === 'number' && Number.isFinite(tps) && tps > 0)) continue;
		if (!best || row.created_at > best.at) best = { tokens_per_second: tps, at: row.created_at };
	}
	return best;
}

/** How fast the last model download in this browser went (downloadSpeed.ts measures it). */
export interface MeasuredDownload {
	MB_per_s: number;
	/** When it was measured (ISO). */
	at: string;
}

export interface ModelCost {
	id: string;
	/** null: the catalog does not list it. */
	download_MB: number | null;
	/** true when the browser already holds it; undefined when unknown. */
	cached?: boolean;
}

export interface EstimateInput {
	items: number;
	/** temperatures × perturbations × samples. */
	conditions: number;
	judge_mode: JudgeMode;
	/** The engine's typical decode speed, tokens/s (its provider's guess). */
	guess_tps: number;
	/** Models to download (engines on this device only; duplicates count once). */
	models: ModelCost[];
	/** This device's benchmarked speed for the chosen engine and generator, when there is one. */
	measured?: MeasuredSpeed;
	answer_max_tokens: number;
	max_tokens: number;
	/** The last download's speed in this browser, when one was measured. */
	download_speed?: MeasuredDownload;
}

export interface Estimate {
	/** Sum of known download sizes of models not cached. */
	download_MB: number;
	/** Models that need a download whose size the catalog does not list. */
	unknown_sizes: string[];
	answers: number;
	user_turns: number;
	/** hybrid asks the judge only when the rules are undecided: anywhere in [min, max]. */
	judge_calls: { min: number; max: number };
	tokens_per_second: number;
	/** Whether tokens_per_second was measured here (a benchmark) or is the engine's guess. */
	speed_source: 'measured' | 'guess';
	/** Rough generation time in seconds, [min, max] following judge_calls; downloads excluded. */
	seconds: { min: number; max: number };
	/**
	 * Seconds to download download_MB at the last measured speed: 0 with nothing to download, null
	 * when there is something and no speed was measured here (the time then excludes it).
	 */
	download_seconds: number | null;
	/** The measured speed download_seconds was worked out from. */
	download_speed?: MeasuredDownload;
}

export function estimateRun(x: EstimateInput): Estimate {
	const seen = new Set<string>();
	let download = 0;
	const unknown: string[] = [];
	for (const m of x.models) {
		if (seen.has(m.id) || m.cached === true) continue;
		seen.add(m.id);
		if (m.download_MB === null) unknown.push(m.id);
		else download += m.download_MB;
	}
	const answers = x.items;
	const userTurns = x.items * x.conditions;
	const judge =
		x.judge_mode === 'rules'
			? { min: 0, max: 0 }
			: x.judge_mode === 'llm'
				? { min: userTurns, max: userTurns }
				: { min: 0, max: userTurns };
	const tps = x.measured?.tokens_per_second ?? x.guess_tps;
	const base =
		answers * Math.min(x.answer_max_tokens, TYPICAL_TOKENS.answer) +
		userTurns * Math.min(x.max_tokens, TYPICAL_TOKENS.user_turn);
	const seconds = (judgeCalls: number) => (base + judgeCalls * TYPICAL_TOKENS.judge) / tps;
	return {
		download_MB: download,
		unknown_sizes: unknown,
		answers,
		user_turns: userTurns,
		judge_calls: judge,
		tokens_per_second: tps,
		speed_source: x.measured ? 'measured' : 'guess',
		seconds: { min: seconds(judge.min), max: seconds(judge.max) },
		...downloadTime(download, x.download_speed)
	};
}

/** The download's time at a measured speed; nothing to download takes no time, whatever is known. */
export function downloadTime(
	MB: number,
	speed: MeasuredDownload | undefined
): Pick<Estimate, 'download_seconds' | 'download_speed'> {
	const known = speed && speed.MB_per_s > 0 && Number.isFinite(speed.MB_per_s) ? speed : undefined;
	if (MB <= 0) return { download_seconds: 0, ...(known ? { download_speed: known } : {}) };
	if (!known) return { download_seconds: null };
	return { download_seconds: MB / known.MB_per_s, download_speed: known };
}

/** "about 4 min", "about 1 h 20 min", "under a minute". */
export function formatDuration(seconds: number): string {
	if (!Number.isFinite(seconds) || seconds < 60) return 'under a minute';
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) return `about ${minutes} min`;
	const h = Math.floor(minutes / 60);
	const m = minutes % 60;
	return m === 0 ? `about ${h} h` : `about ${h} h ${m} min`;
}
