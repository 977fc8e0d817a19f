/**
 * Renders a model's own Hugging Face chat template (via @huggingface/jinja) and derives, from the
 * template alone, the pieces the probe needs: the bare user-role header that makes the model speak
 * as the user, and the end-of-turn markers to stop on. Nothing here knows a model family: every
 * structural fact is read off renders of sentinel conversations, so a new template works unchanged.
 */
import { Environment, Template } from '@huggingface/jinja';
import { checkRenderInputs, runBounded, withRenderDeadline } from './renderLimits.ts';
import { DEFAULT_DATE_STRING } from './runConfig.ts';
import { TemplateError } from './templateError.ts';
import { jinjaGlobals } from './templateGlobals.ts';
import type { ChatMessage, UserHeaderCut } from './types.ts';

export interface ChatTemplate {
	/** The Jinja source, exactly as the model's tokenizer_config.json carries it. */
	source: string;
	bos_token: string | null;
	eos_token: string | null;
	/** Further ids the model stops on (generation_config eos_token_id beyond eos_token). */
	extra_stop_tokens?: string[];
	/** Hex sha256 of `source`, recorded in the run manifest. */
	sha256?: string;
	/** Where the template came from, e.g. "Qwen/Qwen3-0.6B". */
	repo?: string;
	/** Set when the template shipped with the app: the package, version and file it was read from. */
	provenance?: string;
	/** Set when the server served it (llama-server GET /props): the URL it was read from. */
	server?: string;
}

export interface RenderOptions {
	/** Qwen3-style templates; left undefined the template's own default applies. */
	enable_thinking?: boolean;
	/** gpt-oss's "Reasoning:" line (low, medium, high); left undefined the template's default. */
	reasoning_effort?: string;
	/** Pinned date, e.g. "26 Jul 2024" (the default), so prompts never depend on today. */
	date_string?: string;
}

export { TemplateError, DEFAULT_DATE_STRING };

/** Private-use code points around a tag: no tokenizer output or dataset text contains them. */
const sentinel = (tag: string): string => `\uE000utp-${tag}\uE001`;
const PROBE_SENTINEL = sentinel('probe');

interface TurnShape {
	/** What closes an assistant turn inside a conversation, whitespace included, e.g. "<|im_end|>\n". */
	endOfTurn: string;
	/** What opens a user turn, e.g. "<|im_start|>user\n". */
	userHeader: string;
	/** What closes a user turn before the assistant header, e.g. "<|im_end|>\n"; "" for GLM. */
	userEnd: string;
	/** The assistant header with any reasoning opener cut off, e.g. "<|assistant|>" for GLM. */
	assistantHeader: string;
	/** What closes the last assistant turn of a finished conversation ("<|return|>" for gpt-oss). */
	finalEnd: string;
}

interface Compiled {
	template: Template;
	/** Keyed by bos/eos, the only template inputs besides messages that can shape a turn. */
	shapes: Map<string, TurnShape>;
	/** Recent probe prompts: every temperature and sample of an item renders the same one. */
	probes: Map<string, string>;
}

/** Enough for a batch of items times their perturbations; each entry is one prompt string. */
const PROBE_CACHE_ENTRIES = 256;

// Compiling parses the whole template; the pipeline renders per record, so parse once per source.
const compiled = new Map<string, Compiled>();

function compile(source: string): Compiled {
	let entry = compiled.get(source);
	if (!entry) {
		try {
			entry = { template: new Template(source), shapes: new Map(), probes: new Map() };
		} catch (err) {
			throw new TemplateError(`Chat template does not parse: ${errorText(err)}`, { cause: err });
		}
		compiled.set(source, entry);
	}
	return entry;
}

/**
 * Render `messages` with the template, as transformers' apply_chat_template(tokenize=False) does.
 * @throws TemplateError when the template does not parse or raises (gemma rejects system messages).
 */
export function renderChat(
	t: ChatTemplate,
	messages: ChatMessage[],
	opts: RenderOptions & { add_generation_prompt: boolean }
): string {
	// A long input is named as such, not reported as the template building too much.
	checkRenderInputs(messages);
	const { template } = compile(t.source);
	const dateString = opts.date_string ?? DEFAULT_DATE_STRING;
	const vars: Record<string, unknown> = {
		...jinjaGlobals(dateString),
		messages,
		add_generation_prompt: opts.add_generation_prompt,
		date_string: dateString
	};
	// Absent rather than null: HF leaves unset tokens undefined, which renders as '' not "None".
	if (t.bos_token !== null) vars.bos_token = t.bos_token;
	if (t.eos_token !== null) vars.eos_token = t.eos_token;
	if (opts.enable_thinking !== undefined) vars.enable_thinking = opts.enable_thinking;
	if (opts.reasoning_effort !== undefined) vars.reasoning_effort = opts.reasoning_effort;
	const env = new Environment();
	for (const [name, value] of Object.entries(vars)) env.set(name, value);
	let out: unknown;
	try {
		out = runBounded(template.parsed, env).value;
	} catch (err) {
		if (err instanceof TemplateError) throw err;
		throw new TemplateError(`Chat template raised an error: ${errorText(err)}`, { cause: err });
	}
	if (typeof out !== 'string') throw new TemplateError('Chat template did not render to text');
	return out;
}

/** The prompt the model answers from: `messages` plus the assistant header. */
export function assistantPrompt(
	t: ChatTemplate,
	messages: ChatMessage[],
	opts: RenderOptions = {}
): string {
	return renderChat(t, messages, { ...opts, add_generation_prompt: true });
}

export interface ProbeOptions extends RenderOptions {
	/** Absent: `template`, the cut every run used before the setting existed. */
	user_header?: UserHeaderCut;
}

/**
 * The probe prompt: the conversation followed by a bare user-role header, cut from a render with
 * one more user turn whose content is a sentinel. The template decides everything else, e.g. Qwen3
 * drops earlier turns' think blocks, Phi-3.5 leaves out the eos it puts after a closed conversation.
 * @throws TemplateError when the template raises, or the sentinel is missing or repeated, or (with
 * `user_header: 'role'`) its user header does not name the role.
 */
export function probePrompt(
	t: ChatTemplate,
	messages: ChatMessage[],
	opts: ProbeOptions = {}
): string {
	const { probes } = compile(t.source);
	const key = JSON.stringify([
		t.bos_token,
		t.eos_token,
		opts.enable_thinking,
		opts.reasoning_effort,
		opts.date_string,
		opts.user_header,
		messages
	]);
	const hit = probes.get(key);
	if (hit !== undefined) return hit;
	const text = renderChat(t, [...messages, { role: 'user', content: PROBE_SENTINEL }], {
		...opts,
		add_generation_prompt: false
	});
	const full = text.slice(0, uniqueIndex(text, PROBE_SENTINEL, 'the probe user turn'));
	const rest = opts.user_header === 'role' ? headerAfterRole(t) : '';
	if (!full.endsWith(rest)) {
		throw new TemplateError(
			`The probe prompt does not end with the user header ${JSON.stringify(turnShape(t).userHeader)}`
		);
	}
	const prompt = full.slice(0, full.length - rest.length);
	// Map keeps insertion order, so the first key is the oldest.
	if (probes.size >= PROBE_CACHE_ENTRIES) probes.delete(probes.keys().next().value ?? '');
	probes.set(key, prompt);
	return prompt;
}

/**
 * The bare user-role header the probe prompt ends with, e.g. "<|im_start|>user\n", or with
 * `user_header: 'role'` only its part up to the role name ("<|start|>user").
 * @throws TemplateError as probePrompt does, or when the prompt does not end with the header.
 */
export function userHeader(
	t: ChatTemplate,
	messages: ChatMessage[],
	opts: ProbeOptions = {}
): string {
	const { userHeader: full } = turnShape(t);
	const header =
		opts.user_header === 'role' ? full.slice(0, full.length - headerAfterRole(t).length) : full;
	if (!probePrompt(t, messages, opts).endsWith(header)) {
		throw new TemplateError(
			`The probe prompt does not end with the user header ${JSON.stringify(header)}`
		);
	}
	return header;
}

/**
 * What the template's user header writes after the role name: "<|message|>" for gpt-oss, "\n" for
 * ChatML. A model given the header cut at the role writes this itself when it opens a plain message.
 * @throws TemplateError when the header does not contain the role name "user".
 */
export function headerAfterRole(t: ChatTemplate): string {
	const { userHeader: header } = turnShape(t);
	const at = header.lastIndexOf('user');
	if (at < 0) {
		throw new TemplateError(
			`The user header ${JSON.stringify(header)} does not name the role "user", so it cannot stop there`
		);
	}
	return header.slice(at + 'user'.length);
}

/**
 * Where a generated user turn must stop: eos, the model's extra stop tokens, and the template's
 * end-of-turn markers, so the turn ends where the user's turn would close. A template whose turns
 * have no end marker (GLM: the next role tag ends a turn) stops on the role headers instead.
 * De-duplicated, in that order.
 * @throws TemplateError when the template cannot render a user/assistant/user exchange.
 */
export function stopSequences(t: ChatTemplate): string[] {
	const shape = turnShape(t);
	return stops(t, [shape.endOfTurn, shape.userEnd], shape);
}

/**
 * Where an assistant answer must stop. Usually the same markers as a user turn; but when the last
 * assistant turn closes differently from one inside a conversation (gpt-oss: a reply is several
 * messages, analysis then final, each closed by "<|end|>", and the reply by "<|return|>"), the
 * answer must run on through the inner markers to the final one.
 * @throws TemplateError when the template cannot render a user/assistant/user exchange.
 */
export function answerStopSequences(t: ChatTemplate): string[] {
	const shape = turnShape(t);
	const innerEndsReply =
		shape.endOfTurn.trim() === '' || shape.finalEnd.startsWith(shape.endOfTurn);
	return stops(t, innerEndsReply ? [shape.endOfTurn] : [shape.finalEnd], shape);
}

function stops(t: ChatTemplate, ends: string[], shape: TurnShape): string[] {
	const markers = ends.map((s) => s.trim()).filter((s) => s !== '');
	// No end-of-turn marker at all: the next role header is where a turn ends.
	if (markers.length === 0) markers.push(shape.userHeader.trim(), shape.assistantHeader.trim());
	const candidates = [t.eos_token, ...(t.extra_stop_tokens ?? []), ...markers];
	return [...new Set(candidates.filter((s): s is string => typeof s === 'string' && s !== ''))];
}

/**
 * Whether the template thinks by default: true or false when it reads enable_thinking (Qwen3,
 * Qwen3.5, GLM-4.7 default to on), null when the flag changes nothing (Qwen2.5, gpt-oss, Llama).
 * @throws TemplateError when the template cannot render a one-turn conversation.
 */
export function thinkingDefault(t: ChatTemplate): boolean | null {
	const one: ChatMessage[] = [{ role: 'user', content: sentinel('q') }];
	return withRenderDeadline(() => {
		const unset = assistantPrompt(t, one);
		const on = assistantPrompt(t, one, { enable_thinking: true });
		const off = assistantPrompt(t, one, { enable_thinking: false });
		if (on === off) return null;
		return unset === on;
	});
}

/**
 * Whether a prompt ends inside an open reasoning block, as Qwen3.5's generation prompt
 * ("<|im_start|>assistant\n<think>\n") and GLM-4.7's ("<|assistant|><think>") do with thinking on:
 * the completion then starts with the reasoning and has no opening tag of its own.
 */
export function opensReasoning(prompt: string): boolean {
	return /<think>\s*$/.test(prompt);
}

/**
 * Check that a template parses and renders a user/assistant/user exchange, so a bad user-provided
 * file fails when loaded rather than mid-run.
 * @throws TemplateError describing what is wrong.
 */
export function validateTemplate(t: ChatTemplate): void {
	withRenderDeadline(() => turnShape(t));
}

/**
 * Split the text between an assistant turn and the next user turn into end-of-turn + user header.
 * If a closed conversation ends exactly with a prefix of that text, that prefix is the end of turn
 * (ChatML, Llama, gemma). Otherwise, if it starts with what closes a user turn, assistant turns
 * close the same way (gpt-oss's "<|end|>", whose closed conversation ends "<|return|>" instead).
 * Otherwise the template appends a trailer after the last turn (Phi-3.5's eos), and the header is
 * the longest part that also opens the first user turn. GLM has no end of turn at all.
 */
function turnShape(t: ChatTemplate): TurnShape {
	const entry = compile(t.source);
	const key = `${t.bos_token}\u0000${t.eos_token}`;
	const cached = entry.shapes.get(key);
	if (cached) return cached;
	const [a, b, c] = [sentinel('a'), sentinel('b'), sentinel('c')];
	const render = (messages: ChatMessage[], add_generation_prompt = false) =>
		renderChat(t, messages, { add_generation_prompt });
	const exchange = render([
		{ role: 'user', content: a },
		{ role: 'assistant', content: b },
		{ role: 'user', content: c }
	]);
	const closed = render([
		{ role: 'user', content: a },
		{ role: 'assistant', content: b }
	]);
	const [ia, ib, ic] = [a, b, c].map((s) => uniqueIndex(exchange, s, 'a sample exchange'));
	if (!(ia < ib && ib < ic)) throw new TemplateError('Chat template reorders the conversation');
	const between = exchange.slice(ib + b.length, ic);
	const tail = closed.slice(uniqueIndex(closed, b, 'a sample exchange') + b.length);
	const user = userTurnEnd(t, a);
	const split =
		tail !== '' && between.startsWith(tail)
			? tail.length
			: user.end !== '' && between.startsWith(user.end) && between !== user.end
				? user.end.length
				: between.length - commonSuffixLength(between, exchange.slice(0, ia));
	const shape: TurnShape = {
		endOfTurn: between.slice(0, split),
		userHeader: between.slice(split),
		userEnd: user.end,
		assistantHeader: user.header.replace(/(?:\s*<\/?think>)+\s*$/, ''),
		finalEnd: tail
	};
	if (shape.userHeader === '') throw new TemplateError('Chat template has no user-role header');
	// A template that ignores the role renders every turn with one header: the probe would ask
	// the model to go on as the assistant, not as the user.
	if (shape.assistantHeader !== '' && shape.userHeader.trim() === shape.assistantHeader.trim())
		throw new TemplateError(
			`Chat template renders user turns with the assistant header ${JSON.stringify(shape.assistantHeader)}, so it has no user-role header`
		);
	entry.shapes.set(key, shape);
	return shape;
}

/**
 * What follows a lone user turn: the part a closed render and a generation prompt share is the
 * user's end of turn ("<|im_end|>\n", gpt-oss "<|end|>", GLM nothing); the rest is the assistant
 * header the generation prompt adds.
 */
function userTurnEnd(t: ChatTemplate, a: string): { end: string; header: string } {
	const one: ChatMessage[] = [{ role: 'user', content: a }];
	const closed = renderChat(t, one, { add_generation_prompt: false });
	const open = renderChat(t, one, { add_generation_prompt: true });
	const closedTail = closed.slice(uniqueIndex(closed, a, 'a one-turn conversation') + a.length);
	const openTail = open.slice(uniqueIndex(open, a, 'a one-turn conversation') + a.length);
	let n = 0;
	while (n < closedTail.length && n < openTail.length && closedTail[n] === openTail[n]) n++;
	// Never split a special token: Phi's "<|end|>\n<|endoftext|>" and "<|end|>\n<|assistant|>" share "<|".
	const lt = openTail.lastIndexOf('<', n - 1);
	if (lt >= 0 && openTail.indexOf('>', lt) >= n) n = lt;
	return { end: openTail.slice(0, n), header: openTail.slice(n) };
}

function uniqueIndex(text: string, needle: string, what: string): number {
	const at = text.indexOf(needle);
	if (at < 0) throw new TemplateError(`Chat template dropped the content of ${what}`);
	if (text.indexOf(needle, at + 1) >= 0) {
		throw new TemplateError(`Chat template repeated the content of ${what}`);
	}
	return at;
}

function commonSuffixLength(x: string, y: string): number {
	let n = 0;
	while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
	return n;
}

function errorText(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}
