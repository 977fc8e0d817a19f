/**
 * "See what the model sees", as plain data: the probe prompt cut into text and special tokens,
 * the point where the model takes over as the user, example user turns, and how the rules label a
 * turn. Only display: the prompt comes from setup/conversationRun.ts and the label from the rules
 * (probe/rules.ts) and labels.ts, as in a run.
 */
import { LABEL_INFO, PRECEDENCE } from '../probe/labels.ts';
import { classifyRules, type RuleDecision } from '../probe/rules.ts';
import { stopSequences, type ChatTemplate } from '../probe/template.ts';
import type { Label } from '../probe/types.ts';

export interface PromptPart {
	text: string;
	/** A special token (what a tokenizer reads as one control id), not text the model reads. */
	special: boolean;
	/** Part of the bare user header at the end: from here on the model writes as the user. */
	header: boolean;
}

/** Token-shaped markup every template family here uses, and the GLM prefix. */
const SPECIAL =
	/<\|[^|<>\s]{1,40}\|>|<\/?think>|<\/?(?:start_of_turn|end_of_turn)>|\[gMASK\]|<sop>/g;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function specialPattern(t: ChatTemplate): RegExp {
	const named = [t.bos_token, t.eos_token, ...(t.extra_stop_tokens ?? [])].filter(
		(s): s is string => typeof s === 'string' && s !== ''
	);
	// Longest first, so a token that contains another wins.
	const literals = [...new Set(named)].sort((a, b) => b.length - a.length).map(escape);
	return new RegExp([...literals, SPECIAL.source].join('|'), 'g');
}

function split(text: string, pattern: RegExp, header: boolean): PromptPart[] {
	const parts: PromptPart[] = [];
	let at = 0;
	for (const m of text.matchAll(pattern)) {
		if (m[0] === '') continue;
		if (m.index > at) parts.push({ text: text.slice(at, m.index), special: false, header });
		parts.push({ text: m[0], special: true, header });
		at = m.index + m[0].length;
	}
	if (at < text.length) parts.push({ text: text.slice(at), special: false, header });
	return parts;
}

/**
 * The prompt as parts, in order; joined they give `prompt` back exactly.
 * @param header the bare user header `prompt` ends with.
 */
export function promptParts(prompt: string, header: string, t: ChatTemplate): PromptPart[] {
	const body = prompt.endsWith(header) ? prompt.slice(0, prompt.length - header.length) : prompt;
	const tail = body.length === prompt.length ? '' : header;
	const pattern = specialPattern(t);
	return [...split(body, pattern, false), ...split(tail, pattern, true)];
}

/** How whitespace shows in the marked prompt: a newline as ↵ before the break, so none hides. */
export function visibleWhitespace(text: string): string {
	return text.replace(/\n/g, '↵\n');
}

export interface ExampleTurn {
	/** The label the example was written for (labels.ts), not the rules' verdict on it. */
	label: Label;
	title: string;
	text: string;
}

/**
 * One user turn per label, as labels.ts gives them (each written after EXAMPLE_CONVERSATION): the
 * quoted part of the label's positive example, in the order the rules check them.
 */
export function exampleTurns(): ExampleTurn[] {
	const labels: Label[] = ['genuine_followup', ...PRECEDENCE.map((p) => p.label), 'undecided'];
	const out: ExampleTurn[] = [];
	for (const label of new Set(labels)) {
		const info = LABEL_INFO[label];
		const quoted = /^"([\s\S]*?)"(?:\s*\(|\s*labelled|\s*,|$)/.exec(info.positive);
		if (!quoted) continue;
		out.push({ label, title: info.title, text: quoted[1].replace(/\\n/g, '\n') });
	}
	return out;
}

export interface TurnLabelling {
	rule: RuleDecision;
	/** The label's name and its criteria (labels.ts), for the label the rules gave. */
	title: string;
	definition: string;
	/** The rules gave no label: only the judge (a model) can say whether it is a genuine follow-up. */
	needsJudge: boolean;
}

/** How the rules label `userTurn` after `question` and `answer`, as a run's pipeline calls them. */
export function labelTurn(
	t: ChatTemplate,
	question: string,
	answer: string,
	userTurn: string
): TurnLabelling {
	const rule = classifyRules({
		question,
		answer,
		user_turn: userTurn,
		stop_tokens: stopSequences(t)
	});
	const info = LABEL_INFO[rule.label];
	return {
		rule,
		title: info.title,
		definition: info.definition,
		needsJudge: rule.label === 'undecided'
	};
}
