/**
 * Named brains for the mock server (`--script NAME`), so e2e tests and manual runs can point the
 * app at canned behaviour: the default scripted text, hostile markup, or probe-like variety.
 */
import { defaultScript, fnv, type ScriptFn, type ScriptRequest } from './script.ts';

/** What a hostile model might write; the app must show it as text, never run it. */
export const XSS_TEXT = '<script>alert(1)</script><img src=x onerror=alert(1)>';

export const xssScript: ScriptFn = (req) =>
	req.kind === 'chat'
		? JSON.stringify({ label: 'malformed_artifact', rationale: XSS_TEXT })
		: XSS_TEXT;

/** True when the rendered prompt ends in a user header: the probe's user turn, not an answer. */
export function asksForUserTurn(prompt: string): boolean {
	const tail = prompt.slice(-64).toLowerCase();
	const user = tail.lastIndexOf('user');
	return user >= 0 && user > Math.max(tail.lastIndexOf('assistant'), tail.lastIndexOf('model'));
}

/** The first message of a role in a rendered ChatML / Llama 3 / Gemma prompt, if recognisable. */
export function firstMessage(prompt: string, role: 'user' | 'assistant'): string | undefined {
	const patterns = [
		new RegExp(`<\\|im_start\\|>${role}\\n([\\s\\S]*?)<\\|im_end\\|>`),
		new RegExp(
			`<\\|start_header_id\\|>${role}<\\|end_header_id\\|>\\n\\n([\\s\\S]*?)<\\|eot_id\\|>`
		),
		new RegExp(
			`<start_of_turn>${role === 'assistant' ? 'model' : 'user'}\\n([\\s\\S]*?)<end_of_turn>`
		)
	];
	for (const p of patterns) {
		const m = p.exec(prompt);
		if (m) return m[1].replace(/<think>[\s\S]*?<\/think>\s*/g, '').trim();
	}
	return undefined;
}

type ProbeLabel =
	| 'genuine_followup'
	| 'prompt_restatement'
	| 'assistant_restatement'
	| 'malformed_artifact'
	| 'meta_planning'
	| 'degenerate';

const FOLLOWUPS = [
	'Thanks! Why did you multiply in the second step instead of adding?',
	'Could you check that again with 12 instead of 10?',
	'That makes sense. How would the answer change if the price went up by half?',
	'Wait, where did the 3 come from?'
];
const ARTIFACTS = [
	'<|im_start|>assistant\nSure, here is the solution again.',
	'</s><s>[INST] user user user',
	'<|endoftext|><|im_start|>user'
];
const META = [
	'Okay, so I need to write what the user would say next. The user probably wants to check the answer, so I should ask about it.',
	'Let me think about how to respond as the user here. First, I will summarise the problem.'
];

function userTurn(req: ScriptRequest, h: number): { label: ProbeLabel; text: string } {
	const pick = <T>(xs: T[]) => xs[(h >>> 3) % xs.length];
	switch (h % 6) {
		case 0:
		case 1:
			return { label: 'genuine_followup', text: pick(FOLLOWUPS) };
		case 2:
			return {
				label: 'prompt_restatement',
				text: `Again, here is my problem: ${firstMessage(req.prompt, 'user') ?? 'solve it step by step.'}`
			};
		case 3:
			return {
				label: 'assistant_restatement',
				text: `To recap what you said: ${firstMessage(req.prompt, 'assistant') ?? 'the answer is 42.'}`
			};
		case 4:
			return h & 8
				? { label: 'malformed_artifact', text: pick(ARTIFACTS) }
				: { label: 'meta_planning', text: pick(META) };
		default:
			return { label: 'degenerate', text: Array.from({ length: 40 }, () => 'haha').join(' ') };
	}
}

/** What the judge may answer when asked which of two user turns is more grounded. */
const COMPARISON_REPLIES = ['A', 'B', 'SAME'] as const;

/**
 * Plausible, varied probe output: answers for answer prompts, a spread of user turns (follow-ups,
 * restatements, artifacts, meta-planning, degenerate) for user-turn prompts, a judge that labels
 * each user turn with the kind it was generated as, and a spread of verdicts when it compares a
 * generated turn with a human one. Deterministic in (prompt, temp, seed).
 */
export function createProbeScript(): ScriptFn {
	// The judge recognises a user turn by its opening, remembered when it was generated (openings
	// are chosen not to occur in questions or answers, which the judge prompt also contains).
	const generated = new Map<string, ProbeLabel>();
	return (req) => {
		const salt = req.temperature === 0 ? 0 : req.seed;
		const h = fnv(`${req.prompt}\u0000${req.temperature}\u0000${salt}`);
		if (req.kind === 'chat') {
			// The reference comparison shows two turns as <turn_a> and <turn_b>: one word of three.
			if (req.prompt.includes('<turn_a>')) {
				return JSON.stringify({ more_grounded: COMPARISON_REPLIES[h % COMPARISON_REPLIES.length] });
			}
			let label: ProbeLabel = 'genuine_followup';
			for (const [opening, l] of generated) if (req.prompt.includes(opening)) label = l;
			return JSON.stringify({
				label,
				verdict: label === 'genuine_followup' ? 'genuine' : 'not_genuine',
				rationale: `The user turn reads as ${label.replace('_', ' ')}.`
			});
		}
		if (!asksForUserTurn(req.prompt)) {
			const n = (h % 90) + 10;
			return `Let's work through it step by step. Adding the amounts gives ${n - 4}, plus 4 more is ${n}.\nThe answer is ${n}.\n#### ${n}`;
		}
		const turn = userTurn(req, h);
		if (turn.text.trim()) generated.set(turn.text.slice(0, 32), turn.label);
		return turn.text;
	};
}

export const SCRIPT_NAMES = ['default', 'xss', 'probe'] as const;
export type ScriptName = (typeof SCRIPT_NAMES)[number];

/** A fresh brain by name (the probe script keeps state, so each server gets its own). */
export function namedScript(name: ScriptName): ScriptFn {
	if (name === 'xss') return xssScript;
	if (name === 'probe') return createProbeScript();
	return defaultScript;
}
