/**
 * "See what the model sees", as plain data: the probe prompt cut into text and special tokens,
 * the point where the model takes over as the user, example user turns, and how the rules label a
 * turn. Only display: the prompt comes from setup/conversationRun.ts and the label from the rules
 * (probe/rules.ts) and labels.ts, as in a run.
 */
import { EXAMPLE_CONVERSATION, LABEL_INFO, PRECEDENCE } from '../probe/labels.ts';
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
	/**
	 * For a kind the rules never give (a follow-up, a new task): why it is the judge's call, said
	 * before the rules' "undecided". Absent for a failure the rules catch.
	 */
	judgesCall?: string;
}

/** Why a kind is the judge's: the rules see failures only (labels.ts, the undecided label). */
const JUDGES_CALL: Partial<Record<Label, string>> = {
	genuine_followup:
		'A plausible follow-up is the judge’s call: the rules recognise failures only, and whether a turn reacts to something concrete in the answer (the verdict’s criteria) takes a model that reads it. The rules will say undecided.',
	undecided:
		'A new request is the judge’s call: no rule fires on it, and only a model that reads it can tell a follow-up from the start of a new task. The rules will say undecided.'
};

/**
 * The restatements as models write them, built from the conversation shown so they stay
 * restatements when the student edits it: the question asked again behind a preface that asks
 * nothing new, and the assistant's answer written again, word for word, in the user's turn. Reworded restatements
 * (the positive examples in labels.ts) are the judge's call; these are the near copies the rules
 * catch (rules.ts, restatement).
 */
function restatements(question: string, answer: string): Partial<Record<Label, string>> {
	return {
		prompt_restatement: `Can you solve this? ${question}`,
		assistant_restatement: answer
	};
}

/**
 * One user turn per label, in the order the rules check them (each written after the conversation
 * shown; EXAMPLE_CONVERSATION by default): each failure is a turn the rules label as its button
 * says, and the kinds only a judge can tell say so (judgesCall). The other texts are the quoted
 * part of the label's positive example (labels.ts).
 */
export function exampleTurns(
	question: string = EXAMPLE_CONVERSATION.question,
	answer: string = EXAMPLE_CONVERSATION.answer
): ExampleTurn[] {
	const labels: Label[] = ['genuine_followup', ...PRECEDENCE.map((p) => p.label), 'undecided'];
	const built = restatements(question, answer);
	const out: ExampleTurn[] = [];
	for (const label of new Set(labels)) {
		const info = LABEL_INFO[label];
		const quoted = /^"([\s\S]*?)"(?:\s*\(|\s*labelled|\s*,|$)/.exec(info.positive);
		const text = built[label] ?? quoted?.[1].replace(/\\n/g, '\n');
		if (text === undefined) continue;
		const why = JUDGES_CALL[label];
		out.push({ label, title: info.title, text, ...(why ? { judgesCall: why } : {}) });
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
