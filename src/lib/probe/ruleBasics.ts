/**
 * What every rule shares: the decision's shape, the thresholds (the one table of tunables the
 * golden cases pin) and the caps that keep the rules linear. rules.ts orders the checks.
 */
import type { RuleLabel, Verdict } from './types.ts';

export interface RuleDecision {
	label: RuleLabel;
	/** The binary verdict the label implies: not_genuine, or undecided when no rule fired. */
	verdict: Verdict;
	/** Cites the evidence, e.g. `contains template token "<|im_end|>"`. */
	reason: string;
}

/** What each check finds, before the verdict is added. */
export type Finding = Omit<RuleDecision, 'verdict'>;

/**
 * Thresholds, chosen conservatively on hand-written cases (tests/fixtures/rules/cases.json).
 * Overlap is measured on word trigrams of normalized text (NFKC, lower case, letters and digits),
 * so one changed word costs three trigrams: 0.85 allows about one edit per 20 words.
 */
export const RULE_THRESHOLDS = {
	/** A repeated n-gram must occur this many times in a row… */
	LOOP_MIN_REPEATS: 4,
	/** …over at least this share of the turn's words, to call the turn a loop. */
	LOOP_MIN_COVERAGE: 0.6,
	/** Longest n-gram (in words) the loop check looks for: about one sentence. */
	LOOP_MAX_NGRAM: 16,
	/** One character repeated this many times in a row… */
	CHAR_RUN_MIN: 20,
	/** …making up at least this share of the non-space characters. */
	CHAR_RUN_MIN_SHARE: 0.5,
	/** Below this share of letters and digits (with ≥ 8 visible characters) a turn is gibberish. */
	GIBBERISH_MAX_ALNUM_SHARE: 0.25,
	/** Turns shorter than this (in words) are never called restatements: too little evidence. */
	RESTATE_MIN_WORDS: 4,
	/** Share of the turn's trigrams found in the source: the turn is (nearly) a copy of it. */
	RESTATE_CONTAINED: 0.85,
	/** Share of the source's trigrams found in the turn: the turn contains the source… */
	RESTATE_CONTAINS: 0.85,
	/** …and at least this share of the turn is the source (little else was added). */
	RESTATE_CONTAINS_MIN_SHARE: 0.6,
	/** Same words in another order: unigram set Jaccard, with at least RESTATE_SET_MIN_WORDS. */
	RESTATE_TOKEN_SET: 0.8,
	RESTATE_SET_MIN_WORDS: 6
} as const;

/** Caps that keep the rules linear and well under the 0.5 ms/record budget on long texts. */
export const TURN_MAX_CHARS = 8_000;
export const SOURCE_EDGE_CHARS = 8_000;
export const LOOP_MAX_WORDS = 2_000;
export const SOURCE_CACHE_SIZE = 64;

/** A short excerpt for reasons, JSON-quoted so whitespace and markup stay visible. */
export function quote(text: string, max = 40): string {
	return JSON.stringify(text.length > max ? text.slice(0, max) + '…' : text);
}
