/**
 * The rules that compare the turn with its sources, the question and the assistant's answer:
 * near-verbatim restatements of either, and the assistant's voice (its openers, its final answer,
 * its arithmetic). Each source is analysed once per text (an LRU cache), since it repeats across a
 * run's conditions.
 */
import { RULE_THRESHOLDS, SOURCE_CACHE_SIZE, SOURCE_EDGE_CHARS, quote } from './ruleBasics.ts';
import type { Finding } from './ruleBasics.ts';
import { containment, twoDecimals, jaccard, normalizeText, shingles, wordTokens } from './text.ts';

/** The turn's words and n-grams, computed once for both restatement checks. */
export interface TurnShape {
	text: string;
	words: string[];
	trigrams: Set<string>;
	wordSet: Set<string>;
}

/** The shape of a turn's text, given its words (already normalized and capped). */
export function turnShape(text: string, words: string[]): TurnShape {
	return { text, words, trigrams: shingles(words, 3), wordSet: new Set(words) };
}

export interface SourceAnalysis {
	trigrams: Set<string>;
	wordSet: Set<string>;
	/** Trigrams of the source's own question sentences (those ending in "?"). */
	questionTrigrams: Set<string>;
	/** The last number in the text: for GSM8K answers, the final answer. */
	lastNumber: string | null;
}

/** Question and answer repeat across a run's conditions, so their analysis is cached (LRU). */
const sourceCache = new Map<string, SourceAnalysis>();

export function analyze(source: string): SourceAnalysis {
	const hit = sourceCache.get(source);
	if (hit) {
		sourceCache.delete(source);
		sourceCache.set(source, hit);
		return hit;
	}
	// Long answers keep their head and tail: restatements copy the start or continue the end.
	const text =
		source.length > 2 * SOURCE_EDGE_CHARS
			? source.slice(0, SOURCE_EDGE_CHARS) + '\n' + source.slice(-SOURCE_EDGE_CHARS)
			: source;
	const normalized = normalizeText(text);
	const words = wordTokens(normalized);
	const questionTrigrams = new Set<string>();
	for (const sentence of questionSentences(normalized)) {
		for (const t of shingles(wordTokens(sentence), 3)) questionTrigrams.add(t);
	}
	const numbers = normalized.match(/-?\d[\d,]*(?:\.\d+)?/g);
	const analysis: SourceAnalysis = {
		trigrams: shingles(words, 3),
		wordSet: new Set(words),
		questionTrigrams,
		lastNumber: numbers ? canonicalNumber(numbers[numbers.length - 1]) : null
	};
	sourceCache.set(source, analysis);
	if (sourceCache.size > SOURCE_CACHE_SIZE) {
		const oldest = sourceCache.keys().next();
		if (!oldest.done) sourceCache.delete(oldest.value);
	}
	return analysis;
}

function canonicalNumber(n: string): string {
	return String(Number(n.replace(/,/g, '')));
}

/** Sentences ending in "?". A split, not /[^.!?]*\?/g, which is quadratic on unpunctuated text. */
function questionSentences(text: string): string[] {
	return text.split(/(?<=[.!?\n])/).filter((s) => s.endsWith('?'));
}

/** Prefaces that ask nothing new ("Can you solve this?"), so they don't block a restatement. */
const GENERIC_REQUEST =
	/^\s*(?:(?:can|could|would|will) you(?: please)? (?:help(?: me)?(?: with| solve)?|solve|answer|do|work out|figure out)(?: this| that| the following)?(?: (?:math |word )?(?:problem|question|one))?(?: for me)?|what(?: is|'s) the answer)\s*\?$/;

const SOURCE_NAME = { prompt_restatement: 'question', assistant_restatement: 'answer' } as const;

/**
 * Near-verbatim copies only; rephrasings are the judge's call. A turn that asks a question its
 * source never asked ("<question> Why did you multiply?") is not a restatement, whatever the overlap.
 */
export function restatement(
	turn: TurnShape,
	source: SourceAnalysis,
	label: 'prompt_restatement' | 'assistant_restatement'
): Finding | null {
	const T = RULE_THRESHOLDS;
	if (turn.words.length < T.RESTATE_MIN_WORDS || source.trigrams.size === 0) return null;
	const name = SOURCE_NAME[label];
	const turnInSource = containment(turn.trigrams, source.trigrams);
	const sourceInTurn = containment(source.trigrams, turn.trigrams);
	const setOverlap =
		turn.wordSet.size >= T.RESTATE_SET_MIN_WORDS ? jaccard(turn.wordSet, source.wordSet) : 0;
	let reason = '';
	if (turnInSource >= T.RESTATE_CONTAINED) {
		reason = `repeats the ${name} (${twoDecimals(turnInSource)} of the turn's word trigrams are in it)`;
	} else if (sourceInTurn >= T.RESTATE_CONTAINS && turnInSource >= T.RESTATE_CONTAINS_MIN_SHARE) {
		reason = `contains the ${name} (${twoDecimals(sourceInTurn)} of its word trigrams) with little else (${twoDecimals(turnInSource)} of the turn)`;
	} else if (setOverlap >= T.RESTATE_TOKEN_SET) {
		reason = `repeats the ${name}'s words (token-set overlap ${twoDecimals(setOverlap)})`;
	}
	if (!reason) return null;
	for (const sentence of questionSentences(normalizeText(turn.text))) {
		if (GENERIC_REQUEST.test(sentence)) continue;
		const asked = shingles(wordTokens(sentence), 3);
		if (asked.size > 0 && containment(asked, source.questionTrigrams) < T.RESTATE_CONTAINED) {
			return null;
		}
	}
	return { label, reason };
}

// ── assistant voice ─────────────────────────────────────────────────────────────────────────

/** Openers only an assistant uses: offering help, accepting thanks, praising the question. */
const ASSISTANT_OPENER =
	/^["'\s]*(is there anything else (?:i|we) can (?:help|assist|do)|how (?:can|may) i (?:help|assist)|i hope (?:this|that) helps|let me know if you (?:have|need)|feel free to (?:ask|reach out)|(?:i'm |i am )?glad (?:i could|to) help|happy to help|you're (?:very |most )?welcome|great question|certainly!)/i;
/** "So the answer is 18": restating the final answer; it must equal the answer's last number. */
const FINAL_ANSWER =
	/^["'\s]*(?:(?:so|thus|therefore|hence)[,\s]+)?(?:the\s+)?(?:final\s+)?answer\s+is:?\s*\$?\s*(?:\\boxed\{)?\s*(-?\d[\d,]*(?:\.\d+)?)/i;
/** Words that turn a repeated result into a user's challenge ("the answer is 18, not 20"). */
const CHALLENGE = /\?|\b(?:not|no|wrong|incorrect|but|you|actually|really|sure)\b|n't\b/i;
const GSM8K_MARKER = /^\s*#{4}\s*-?\$?\d/;
const ARITHMETIC_CONTINUATION = /^\s*(?:[=+*/×÷]|-\s)\s*\$?\d/;

export function assistantVoice(turn: string, answer: SourceAnalysis): Finding | null {
	const opener = ASSISTANT_OPENER.exec(turn);
	if (opener) {
		return {
			label: 'assistant_restatement',
			reason: `speaks as the assistant: opens with ${quote(opener[1])}`
		};
	}
	const final = FINAL_ANSWER.exec(turn);
	if (final && !CHALLENGE.test(turn) && canonicalNumber(final[1]) === answer.lastNumber) {
		return {
			label: 'assistant_restatement',
			reason: `restates the assistant's final answer: ${quote(final[0].trim())}`
		};
	}
	if (GSM8K_MARKER.test(turn) || (/\\boxed\{/.test(turn) && !turn.includes('?'))) {
		return {
			label: 'assistant_restatement',
			reason: `writes a final-answer marker as the assistant: ${quote(turn.trim())}`
		};
	}
	if (ARITHMETIC_CONTINUATION.test(turn)) {
		return {
			label: 'assistant_restatement',
			reason: `continues the assistant's arithmetic: starts with ${quote(turn.trim(), 20)}`
		};
	}
	return null;
}
