/**
 * What a run will cost before it starts: downloads, generations and a rough time. The time is a
 * guess from typical output lengths and a typical speed, and the UI says so; the counts are exact.
 */
import type { JudgeMode } from '../probe/types.ts';

/** Typical output lengths in tokens (short GSM8K answers, one-sentence user turns, a JSON verdict). */
export const TYPICAL_TOKENS = { answer: 220, user_turn: 50, judge: 60 } as const;

/** Guessed decode speeds, tokens/s: a small quantized model on a laptop GPU; a server batching. */
export const GUESS_TPS = { webllm: 15, openai: 120 } as const;

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
	engine: keyof typeof GUESS_TPS;
	/** Models to download (device engine only; duplicates count once). */
	models: ModelCost[];
	answer_max_tokens: number;
	max_tokens: number;
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
	/** Rough wall time in seconds, [min, max] following judge_calls. */
	seconds: { min: number; max: number };
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
	const tps = GUESS_TPS[x.engine];
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
		seconds: { min: seconds(judge.min), max: seconds(judge.max) }
	};
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
