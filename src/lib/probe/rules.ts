/**
 * The rule-based classifier: deterministic, explainable, and only for clear cases. Anything it is
 * not sure about is `undecided` and goes to the LLM judge (in hybrid mode), so every rule errs
 * towards silence: a false "restatement" on a genuine follow-up would bias the paper's metric.
 * Rules run in the order of labels.ts PRECEDENCE, which the judge prompt states too, and the first
 * that fires decides: degenerate → the assistant speaking through template markup, planning or not
 * (assistant_restatement) → malformed_artifact → prompt_restatement → assistant_restatement →
 * meta_planning → undecided. A genuine follow-up is never the rules' call.
 */
import { MESSAGE_CHANNELS, REASONING_CHANNELS, verdictOf } from './labels.ts';
import { LOOP_MAX_WORDS, RULE_THRESHOLDS, TURN_MAX_CHARS, quote } from './ruleBasics.ts';
import type { Finding, RuleDecision } from './ruleBasics.ts';
import { analyze, assistantVoice, restatement, turnShape } from './ruleSources.ts';
import { normalizeText, wordTokens } from './text.ts';

export { RULE_THRESHOLDS } from './ruleBasics.ts';
export type { RuleDecision } from './ruleBasics.ts';

export interface RuleInput {
	question: string;
	answer: string;
	user_turn: string;
	/** The engine's stop strings: one left at the end of the turn is its terminator, not an artifact. */
	stop_tokens?: string[];
}

const UNDECIDED_REASON = 'no rule fired: needs the judge';

/**
 * Classifies a generated user turn when a rule clearly applies, else returns `undecided`.
 * Pure and deterministic; never returns judge_error.
 */
export function classifyRules(input: RuleInput): RuleDecision {
	const found = findRule(input);
	return { ...found, verdict: verdictOf(found.label) };
}

function findRule(input: RuleInput): Finding {
	const stripped = stripTrailingStops(input.user_turn, input.stop_tokens ?? []);
	const message = messageChannel(stripped);
	if (message) {
		const found = findTurnRule(message.content, input.answer, input.question, input.user_turn);
		return {
			...found,
			reason: `${found.reason} (read after its ${message.channel}-channel header)`
		};
	}
	return findTurnRule(stripped, input.answer, input.question, input.user_turn);
}

/**
 * gpt-oss opens any message with a channel header; in the final or commentary channel (labels.ts
 * MESSAGE_CHANNELS) the header is its format, not an artifact, so the rules read what follows it.
 * null when the turn does not open so, or nothing follows the header (then the header is the turn).
 */
function messageChannel(turn: string): { channel: string; content: string } | null {
	const m = MESSAGE_HEADER.exec(turn);
	if (!m) return null;
	const content = turn.slice(m[0].length);
	return content.trim() === '' ? null : { channel: m[1].toLowerCase(), content };
}

function findTurnRule(stripped: string, answer: string, question: string, raw: string): Finding {
	const input = { answer, question };
	const turn = stripped.slice(0, TURN_MAX_CHARS);
	const words = wordTokens(normalizeText(turn), LOOP_MAX_WORDS);
	const artifact = findArtifact(turn);
	const early =
		empty(raw, turn) ??
		degenerate(turn, words, artifact !== null) ??
		(artifact === null
			? null
			: (assistantThroughMarkup(turn, input.answer) ?? {
					label: 'malformed_artifact' as const,
					reason: artifact
				}));
	if (early) return early;
	const shape = turnShape(turn, words);
	return (
		restatement(shape, analyze(input.question), 'prompt_restatement') ??
		restatement(shape, analyze(input.answer), 'assistant_restatement') ??
		assistantVoice(turn, analyze(input.answer)) ??
		metaPlanning(turn) ?? { label: 'undecided', reason: UNDECIDED_REASON }
	);
}

function stripTrailingStops(text: string, stops: readonly string[]): string {
	let out = text.trimEnd();
	for (let changed = true; changed;) {
		changed = false;
		for (const stop of stops) {
			if (stop && out.endsWith(stop)) {
				out = out.slice(0, -stop.length).trimEnd();
				changed = true;
			}
		}
	}
	return out;
}

function empty(raw: string, turn: string): Finding | null {
	if (turn.trim() !== '') return null;
	const reason =
		raw === ''
			? 'empty turn'
			: raw.trim() === ''
				? 'only whitespace'
				: `nothing but the stop token ${quote(raw.trim())}`;
	return { label: 'degenerate', reason };
}

// ── degenerate ──────────────────────────────────────────────────────────────────────────────

function degenerate(turn: string, words: string[], hasMarkup: boolean): Finding | null {
	const T = RULE_THRESHOLDS;
	const run = longestCharRun(turn);
	const visible = turn.replace(/\s+/g, '').length;
	if (run.length >= T.CHAR_RUN_MIN && run.length >= T.CHAR_RUN_MIN_SHARE * visible) {
		return { label: 'degenerate', reason: `a run of ${run.length} ${quote(run.char)} characters` };
	}
	const loop = findLoop(words);
	if (loop) {
		const share = Math.round((100 * loop.covered) / words.length);
		return {
			label: 'degenerate',
			reason: `repetition loop: ${quote(loop.ngram)} repeated ${loop.repeats} times (${share}% of the words)`
		};
	}
	// A turn that is only markup ("<|im_start|>assistant") is an artifact, not a short message.
	if (hasMarkup) return null;
	if (words.length <= 1) {
		const reason =
			words.length === 0
				? `no words, only ${quote(turn.trim())}`
				: `only one word ${quote(words[0])}`;
		return { label: 'degenerate', reason };
	}
	const alnum = (turn.match(/[\p{L}\p{N}]/gu) ?? []).length;
	if (visible >= 8 && alnum < T.GIBBERISH_MAX_ALNUM_SHARE * visible) {
		const pct = Math.round((100 * alnum) / visible);
		return { label: 'degenerate', reason: `gibberish: only ${pct}% letters or digits` };
	}
	return null;
}

function longestCharRun(text: string): { char: string; length: number } {
	let best = { char: '', length: 0 };
	let start = 0;
	for (let i = 1; i <= text.length; i++) {
		if (i < text.length && text[i] === text[start]) continue;
		if (i - start > best.length && !/\s/.test(text[start])) {
			best = { char: text[start], length: i - start };
		}
		start = i;
	}
	return best;
}

/**
 * The shortest n-gram repeated back to back at least LOOP_MIN_REPEATS times over most of the turn.
 * A run where word i equals word i-n is n-periodic text: O(LOOP_MAX_NGRAM × words), no quadratic scan.
 */
function findLoop(words: string[]): { ngram: string; repeats: number; covered: number } | null {
	const T = RULE_THRESHOLDS;
	for (let n = 1; n <= T.LOOP_MAX_NGRAM && n * T.LOOP_MIN_REPEATS <= words.length; n++) {
		let bestStart = 0;
		let bestLen = 0;
		let runStart = n;
		for (let i = n; i <= words.length; i++) {
			if (i < words.length && words[i] === words[i - n]) continue;
			if (i - runStart > bestLen) {
				bestLen = i - runStart;
				bestStart = runStart - n;
			}
			runStart = i + 1;
		}
		const covered = bestLen + n;
		const repeats = Math.floor(covered / n);
		if (repeats >= T.LOOP_MIN_REPEATS && covered >= T.LOOP_MIN_COVERAGE * words.length) {
			return { ngram: words.slice(bestStart, bestStart + n).join(' '), repeats, covered };
		}
	}
	return null;
}

// ── malformed_artifact ──────────────────────────────────────────────────────────────────────

const ARTIFACTS: { pattern: RegExp; what: string }[] = [
	{ pattern: /<\|[^|<>\s]{1,40}\|>|<｜[^｜<>]{1,40}｜>/, what: 'template token' },
	{
		pattern: /<\/?(?:start_of_turn|end_of_turn|bos|eos|s|tool_call|tool_response|tools)>/i,
		what: 'template token'
	},
	{ pattern: /\[\/?INST\]|<<\/?SYS>>/, what: 'template token' },
	{ pattern: /<\/?think(?:ing)?>/i, what: 'think tag' },
	{ pattern: /^[ \t>*_#]*(?:user|assistant|system|human)[ \t*_]*:/im, what: 'role label' },
	{ pattern: /^[ \t]*(?:user|assistant|system|model)[ \t]*$/im, what: 'bare role name' },
	{ pattern: /^#{2,4}[ \t]*(?:instruction|response|input)[ \t]*:?[ \t]*$/im, what: 'role header' }
];

/** The first piece of template machinery in the turn, described for a reason, or null. */
export function findArtifact(turn: string): string | null {
	for (const { pattern, what } of ARTIFACTS) {
		const m = pattern.exec(turn);
		if (m) return `contains ${what} ${quote(m[0].trim())}`;
	}
	return null;
}

/** A harmony channel header of one of `names`, at the start of the turn; group 1 is the channel. */
function channelOpener(names: readonly string[]): string {
	return `^\\s*<\\|channel\\|>\\s*(${names.join('|')})\\b[^<]*(?:<\\|constrain\\|>[^<]*)?<\\|message\\|>`;
}

const MESSAGE_HEADER = new RegExp(channelOpener(MESSAGE_CHANNELS), 'i');

/**
 * The turn opens with an assistant header or the reasoning channel: the model is not writing the
 * user's turn but continuing as the assistant (gpt-oss's "<|channel|>analysis<|message|>We need
 * to…", the paper's dominant gpt-oss failure, 001's appendix example). The paper counts that as
 * assistant restatement, not as a template artifact; so is markup wrapped around a copy of the
 * answer. A final- or commentary-channel turn is read past its header instead (messageChannel).
 */
const ASSISTANT_MARKUP = new RegExp(
	channelOpener(REASONING_CHANNELS).replace('^\\s*', '^\\s*(?:<\\|start\\|>\\s*assistant\\s*)?') +
		'|^\\s*(?:<\\|im_start\\|>\\s*assistant\\b|<\\|start\\|>\\s*assistant\\b|<\\|assistant\\|>|<start_of_turn>\\s*model\\b|<\\|start_header_id\\|>\\s*assistant\\s*<\\|end_header_id\\|>)',
	'i'
);
const CHANNEL_HEADER = /<\|channel\|>[^<]*(?:<\|constrain\|>[^<]*)?/g;
const MARKUP = /<\|[^|<>\s]{1,40}\|>|<\/?think>|<\/?(?:start_of_turn|end_of_turn)>/g;

function assistantThroughMarkup(turn: string, answer: string): Finding | null {
	const T = RULE_THRESHOLDS;
	const inner = turn
		.replace(CHANNEL_HEADER, ' ')
		.replace(MARKUP, ' ')
		.replace(/^\s*(?:assistant|model)\b/i, ' ')
		.trim();
	const innerWords = wordTokens(normalizeText(inner), LOOP_MAX_WORDS);
	const opener = ASSISTANT_MARKUP.exec(turn);
	if (opener && innerWords.length >= T.RESTATE_MIN_WORDS) {
		// Planning in there is still the assistant's own voice (the paper's gpt-oss leak), not a
		// user's meta-planning: the reason says so, the label does not change.
		const where = opener[1] ? `its ${opener[1].toLowerCase()} channel` : 'an assistant turn';
		const plans = metaPlanning(inner) ? ', planning as the assistant' : '';
		return {
			label: 'assistant_restatement',
			reason: `continues as the assistant in ${where}${plans}: opens with ${quote(opener[0].trim())}`
		};
	}
	const shape = turnShape(inner, innerWords);
	const copy = restatement(shape, analyze(answer), 'assistant_restatement');
	return copy && { label: copy.label, reason: `inside template markup, ${copy.reason}` };
}

// ── meta_planning ───────────────────────────────────────────────────────────────────────────

/** What a planner plans to write: "a short follow-up question", "my reply". */
const PLANNED =
	'(?:a |an |the |my |one )?(?:(?:good|short|natural|new|follow-up|next|realistic|relevant) )*(?:response|reply|follow-up|question|message|user turn)';

/**
 * Narrating the reply instead of writing it, only at the very start (after an optional "Okay,").
 * Each phrase names the reply or "the user", so a user's own "I need to know why…" never matches.
 */
const META_OPENER = new RegExp(
	`^["'\\s]*((?:(?:okay|ok|alright|all right|so|hmm+|well|now)[,.!]*\\s+)*(?:` +
		[
			'let me think about how to (?:respond|reply|answer)',
			'i (?:need|have|want|must|should) (?:to )?(?:respond|reply)\\b',
			`i (?:need|have|want|must) to (?:write|come up with|generate|craft|formulate|produce|ask) ${PLANNED}`,
			'i (?:need|have|want|must) to (?:answer|ask|respond to|reply to) the user',
			`i should (?:write|come up with|generate|craft|ask) ${PLANNED}`,
			'i should ask (?:the user|whether|if|about)',
			`(?:i'll|i will|let me) (?:craft|draft|write|compose|formulate|generate|come up with) ${PLANNED}`,
			'the user (?:wants|is asking|asked|has asked|seems to|is looking for|needs|might|would like)',
			'we need to (?:respond|reply|answer|write|generate|produce|continue)',
			`we (?:need|have|want|should) to (?:ask|write|come up with|craft) ${PLANNED}`,
			'my (?:response|reply|next message) should',
			'as the user,? i (?:should|need|will|would)'
		].join('|') +
		'))',
	'i'
);

function metaPlanning(turn: string): Finding | null {
	const m = META_OPENER.exec(turn);
	if (!m) return null;
	return {
		label: 'meta_planning',
		reason: `plans the reply instead of writing it: opens with ${quote(m[1], 60)}`
	};
}
