/**
 * How vLLM (and SGLang) turn what a model generates into the text a /v1/completions reply carries,
 * so the mock server can behave like them rather than like a text pipe:
 * - the model's output is tokens; special tokens are single tokens with ids (modelled here as the
 *   template's special-token strings, e.g. "<|end|>", "<|assistant|>");
 * - generation ends at an EOS token (the model's generation_config eos ids) or one of the request's
 *   `stop_token_ids`; that token's text is not returned;
 * - decoding drops special tokens unless `skip_special_tokens: false`, and (when it keeps them)
 *   puts a space between a special token and its neighbours unless
 *   `spaces_between_special_tokens: false` (HF's `_decode` joining its sub-texts with " ");
 * - `stop` strings are matched on that decoded text, which is cut before the match;
 * - `max_tokens` counts tokens, EOS included.
 */
import type { FinishReason } from '../../src/lib/probe/types.ts';
import { tokenize } from './script.ts';

export interface VllmModel {
	/** Every special token, as the template spells it. */
	special: string[];
	/** The special tokens generation ends on (eos_token and generation_config's other eos ids). */
	eos: string[];
}

export interface VllmParams {
	max_tokens: number;
	stop: string[];
	stop_token_ids: number[];
	skip_special_tokens: boolean;
	spaces_between_special_tokens: boolean;
}

interface Token {
	text: string;
	special: boolean;
}

export interface VllmOutput {
	/** Streamed deltas, in order; joined they are `text`. */
	deltas: string[];
	text: string;
	finish_reason: FinishReason;
	completion_tokens: number;
}

/** Ids above any real vocabulary's words, so a test never confuses them with counts. */
const SPECIAL_ID_BASE = 200_000;

export function specialTokenId(model: VllmModel, token: string): number | undefined {
	const i = model.special.indexOf(token);
	return i < 0 ? undefined : SPECIAL_ID_BASE + i;
}

function tokens(model: VllmModel, text: string): Token[] {
	const specials = [...model.special].sort((a, b) => b.length - a.length);
	const out: Token[] = [];
	let rest = text;
	while (rest !== '') {
		let at = -1;
		let found = '';
		for (const s of specials) {
			const i = rest.indexOf(s);
			if (i >= 0 && (at < 0 || i < at)) [at, found] = [i, s];
		}
		const plain = at < 0 ? rest : rest.slice(0, at);
		for (const word of tokenize(plain)) out.push({ text: word, special: false });
		if (at < 0) break;
		out.push({ text: found, special: true });
		rest = rest.slice(at + found.length);
	}
	return out;
}

/** The ids a prompt tokenizes to (POST /tokenize): special tokens by id, words by position. */
export function tokenIds(model: VllmModel, text: string): number[] {
	return tokens(model, text).map((t, i) => (t.special ? (specialTokenId(model, t.text) ?? i) : i));
}

function decode(toks: Token[], p: VllmParams): string {
	const parts: string[] = [];
	let current = '';
	for (const t of toks) {
		if (!t.special) current += t.text;
		else if (!p.skip_special_tokens) {
			if (current !== '') parts.push(current);
			current = '';
			parts.push(t.text);
		}
	}
	if (current !== '') parts.push(current);
	return parts.join(p.spaces_between_special_tokens ? ' ' : '');
}

/** Generate `raw` (what the model would write, unbounded) under vLLM's rules. */
export function vllmGenerate(model: VllmModel, raw: string, p: VllmParams): VllmOutput {
	const all = tokens(model, raw);
	const kept: Token[] = [];
	const ends: number[] = [];
	let finish: FinishReason = 'length';
	let count = 0;
	let text = '';
	for (const t of all) {
		if (count >= p.max_tokens) break;
		count++;
		const id = t.special ? specialTokenId(model, t.text) : undefined;
		if (
			t.special &&
			(model.eos.includes(t.text) || (id !== undefined && p.stop_token_ids.includes(id)))
		) {
			finish = 'stop';
			break;
		}
		kept.push(t);
		text = decode(kept, p);
		const cut = firstStop(text, p.stop);
		if (cut >= 0) {
			text = text.slice(0, cut);
			finish = 'stop';
			ends.push(text.length);
			break;
		}
		ends.push(text.length);
	}
	// The model said everything it had: a real one would have ended on EOS.
	if (count < p.max_tokens && kept.length === all.length) finish = 'stop';
	const deltas: string[] = [];
	let from = 0;
	for (const end of ends) {
		const to = Math.min(end, text.length);
		if (to > from) deltas.push(text.slice(from, to));
		from = Math.max(from, to);
	}
	return { deltas, text, finish_reason: finish, completion_tokens: count };
}

function firstStop(text: string, stops: string[]): number {
	let cut = -1;
	for (const s of stops) {
		const i = s === '' ? -1 : text.indexOf(s);
		if (i >= 0 && (cut < 0 || i < cut)) cut = i;
	}
	return cut;
}
