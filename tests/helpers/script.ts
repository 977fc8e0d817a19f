/**
 * One scripted "brain" shared by every test backend: the scripted engine calls it directly, the mock
 * OpenAI server streams it over HTTP, the fake web-llm surface returns it. So one contract suite can
 * assert the same behaviour of every engine.
 */
import type { ChatMessage, FinishReason } from '../../src/lib/probe/types.ts';

export interface ScriptRequest {
	kind: 'complete' | 'chat';
	model: string;
	/** complete: the rendered prompt; chat: the messages joined as "role: content" lines. */
	prompt: string;
	messages?: ChatMessage[];
	temperature: number;
	seed: number;
	max_tokens: number;
	stop: string[];
}

export type ScriptFn = (req: ScriptRequest) => string;

/** Words with their leading whitespace kept, so joining tokens restores the text exactly. */
export function tokenize(text: string): string[] {
	return text.match(/\s*\S+|\s+$/g) ?? [];
}

export interface ScriptedReply {
	tokens: string[];
	text: string;
	finish_reason: FinishReason;
	prompt_tokens: number;
}

/** Run a script and apply OpenAI semantics: cut at the first stop string, cap at max_tokens. */
export function applyScript(script: ScriptFn, req: ScriptRequest): ScriptedReply {
	let full = script(req);
	let finish: FinishReason = 'stop';
	let cut = -1;
	for (const s of req.stop) {
		const i = full.indexOf(s);
		if (s && i >= 0 && (cut < 0 || i < cut)) cut = i;
	}
	if (cut >= 0) full = full.slice(0, cut);
	let tokens = tokenize(full);
	if (tokens.length > req.max_tokens) {
		tokens = tokens.slice(0, req.max_tokens);
		finish = 'length';
	}
	return {
		tokens,
		text: tokens.join(''),
		finish_reason: finish,
		prompt_tokens: tokenize(req.prompt).length
	};
}

/** Stable 32-bit FNV-1a, so scripted text depends on the request and nothing else. */
export function fnv(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

/**
 * The default brain: deterministic in (prompt, temperature, seed). Greedy requests ignore the seed,
 * as a real engine does at temperature 0. Chat requests (the judge) answer JSON.
 */
export const defaultScript: ScriptFn = (req) => {
	const salt = req.temperature === 0 ? 0 : req.seed;
	const h = fnv(`${req.prompt}\u0000${req.temperature}\u0000${salt}`);
	if (req.kind === 'chat') {
		return JSON.stringify({
			label: 'genuine_followup',
			verdict: 'genuine',
			rationale: `scripted ${h % 1000}`
		});
	}
	return `Reply ${h % 100000} to the conversation, with several words to stream.<|im_end|> after stop`;
};
