/**
 * What a template's markup means for the probe beyond rendering: where its user header should stop,
 * whether it has a reasoning-effort knob, and how to tell a reply whose markup a server dropped.
 * Everything is read off renders of the template, as in template.ts; the one family fact named here
 * is harmony's (gpt-oss) channel tag, which thinking.ts and the rules read too.
 *
 * Why dropped markup matters: vLLM and SGLang decode with `skip_special_tokens` on by default, so a
 * gpt-oss reply "<|channel|>analysis<|message|>We need…<|end|><|start|>assistant<|channel|>final
 * <|message|>5" comes back as "analysisWe need…assistantfinal5". The reasoning then looks like the
 * answer, stops that are special tokens never match, and the paper's gpt-oss failure (its analysis
 * channel opening the user turn) loses the markup that identifies it. The engine asks servers to
 * keep the markup; this is the check that it did.
 */
import {
	assistantPrompt,
	headerAfterRole,
	renderChat,
	TemplateError,
	userHeader,
	type ChatTemplate
} from './template.ts';
import {
	REASONING_EFFORTS,
	type ChatMessage,
	type ReasoningEffort,
	type UserHeaderCut
} from './types.ts';
import { AppError } from '../errors/appError.ts';

const CHANNEL = '<|channel|>';
/** Special tokens as chat templates spell them: "<|end|>", "<|assistant|>", "<|im_start|>". */
const SPECIAL_TAG = /<\|[^|<>\s]{1,40}\|>/g;
const HARMONY_CHANNELS = 'analysis|commentary|final';
/**
 * "analysisWe need…" (a reply's first message: the channel name glued to a message, which opens
 * with a capital or a digit, so "finally, …" is not one) or "…assistantfinal5" (a later one).
 */
const STRIPPED_HARMONY = new RegExp(
	`^\\s*(?:${HARMONY_CHANNELS})(?=[A-Z0-9])|assistant(?:${HARMONY_CHANNELS})(?=\\S)`
);

/** sentinel() in template.ts: private-use code points no model output contains. */
const A = '\uE000utp-markup-a\uE001';
const B = '\uE000utp-markup-b\uE001';
const C = '\uE000utp-markup-c\uE001';

/**
 * What a template writes between the assistant header of its generation prompt and the text of a
 * reply: gpt-oss "<|channel|>final<|message|>", Qwen3.5 "\n</think>\n\n"; "" when the closed turn
 * does not extend the generation prompt (GLM rewrites "<think>" as "</think>").
 */
function replyOpener(t: ChatTemplate): string {
	const one = [{ role: 'user' as const, content: A }];
	const open = assistantPrompt(t, one);
	const closed = renderChat(t, [...one, { role: 'assistant', content: B }], {
		add_generation_prompt: false
	});
	const at = closed.indexOf(B);
	return at >= 0 && closed.startsWith(open) ? closed.slice(open.length, at) : '';
}

/** gpt-oss's harmony format: every reply opens with a channel ("<|channel|>final<|message|>"). */
export function usesChannels(t: ChatTemplate): boolean {
	return replyOpener(t).includes(CHANNEL);
}

/**
 * The family's rule for where the probe's user header stops. Harmony: at "<|start|>user", as the
 * paper did (its gpt-oss example's user turn opens "<|channel|>analysis<|message|>", which a model
 * writes only after a bare "<|start|>user"; after "<|message|>" it is already inside a message).
 * Every other template: the whole header ("<|im_start|>user\n").
 */
export function userHeaderDefault(t: ChatTemplate): UserHeaderCut {
	return usesChannels(t) ? 'role' : 'template';
}

/** Why the default is what it is, for the set-up view and the CLI's log. */
export function userHeaderReason(t: ChatTemplate): string {
	return usesChannels(t)
		? 'gpt-oss (harmony): the header stops at "<|start|>user", so the model chooses the channel ' +
				"itself: the paper's appendix example has a gpt-oss user turn open " +
				'"<|channel|>analysis<|message|>…", which a model can only write there (this app\'s ' +
				"inference; the paper's prompt is not printed)."
		: 'the whole user header the template writes (for Qwen "<|im_start|>user\\n"; Figure 1 names ' +
				'"<|im_start|>user").';
}

/**
 * A user turn generated after a header cut at the role, without the rest of the header the
 * template would have written: "<|message|>Why…" → "Why…". Text that opens otherwise (gpt-oss's
 * "<|channel|>analysis<|message|>…") is the model's choice and is kept as it is.
 */
export function userTurnText(
	t: ChatTemplate,
	cut: UserHeaderCut | undefined,
	text: string
): string {
	if (cut !== 'role') return text;
	const rest = headerAfterRole(t);
	return rest.trim() !== '' && text.startsWith(rest) ? text.slice(rest.length) : text;
}

/**
 * A generated answer or user turn as the probe keeps it: checked for dropped markup; a user turn
 * also without the header rest a model wrote after a header cut at the role.
 * @throws StrippedMarkupError as checkMarkupKept.
 */
export function keptGeneration<R extends { text: string }>(
	t: ChatTemplate,
	cut: UserHeaderCut | undefined,
	stage: 'answer' | 'user_turn' | 'judge',
	res: R
): R {
	if (stage === 'judge') return res;
	checkMarkupKept(t, res.text, stage);
	return stage === 'answer' ? res : { ...res, text: userTurnText(t, cut, res.text) };
}

/**
 * The template's default reasoning effort (gpt-oss: "medium", its "Reasoning:" line), or null when
 * the template does not read `reasoning_effort`.
 * @throws TemplateError when the template cannot render a one-turn conversation.
 */
export function reasoningEffortDefault(t: ChatTemplate): ReasoningEffort | null {
	const one = [{ role: 'user' as const, content: A }];
	const unset = assistantPrompt(t, one);
	const renders = REASONING_EFFORTS.map((e) => assistantPrompt(t, one, { reasoning_effort: e }));
	if (renders.every((r) => r === renders[0])) return null;
	return REASONING_EFFORTS.find((_, i) => renders[i] === unset) ?? null;
}

/**
 * What the template writes from the end of a user message to the text of the assistant's reply
 * inside a conversation, with its special tokens deleted as a server that drops them would: GLM
 * "<|assistant|></think>" → "</think>". Only kept when what remains is itself markup (not a bare
 * role word such as Llama's "assistant", which a user may well write): that text in a generated
 * user turn means the turn ran past an assistant header the server did not return.
 */
function strippedAssistantOpener(t: ChatTemplate): string | null {
	const text = renderChat(
		t,
		[
			{ role: 'user', content: A },
			{ role: 'assistant', content: B },
			{ role: 'user', content: C }
		],
		{ add_generation_prompt: false }
	);
	const [ia, ib] = [text.indexOf(A), text.indexOf(B)];
	if (ia < 0 || ib < ia) return null;
	const opener = text.slice(ia + A.length, ib);
	const stripped = opener.replace(SPECIAL_TAG, '').trim();
	return stripped !== opener.trim() && /[^\p{L}\s]/u.test(stripped) ? stripped : null;
}

/**
 * Whether `text` holds `opener` where a server stripped it: not right after a special token (the
 * markup kept), not closing a tag the text opened before (a `<think>…</think>` block the user turn
 * kept, an artifact to label), and not quoted (prose that mentions "</think>").
 */
function hasStrippedOpener(text: string, opener: string): boolean {
	const openTag = /^<\/[\w-]+>$/.test(opener) ? `<${opener.slice(2)}` : null;
	for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at + 1)) {
		const before = text.slice(0, at);
		if (/<\|[^|<>\s]{1,40}\|>\s*$/.test(before)) continue;
		if (openTag !== null && before.lastIndexOf(openTag) > before.lastIndexOf(opener)) continue;
		const [prev, next] = [text[at - 1] ?? '', text[at + opener.length] ?? ''];
		if (prev !== '' && prev === next && '`"\''.includes(prev)) continue;
		return true;
	}
	return false;
}

/** A reply or user turn came back without the markup the template says it carries. */
export class StrippedMarkupError extends AppError {
	constructor(message: string, recovery: string) {
		super(message, { code: 'stripped_markup', recovery });
		this.name = 'StrippedMarkupError';
	}
}

/** Per template: the facts the check needs, so it costs a string search per generated text. */
const facts = new Map<string, { channels: boolean; opener: string | null }>();

/**
 * Stop the run when a generated text has the shape of markup a server dropped: gpt-oss channel
 * names glued to the text ("analysisWe need…", "…assistantfinal5"), or, in a user turn, what is
 * left of the assistant's header once its special tokens are gone (GLM's "</think>"), where it is
 * not kept markup (a `<think>…</think>` block, "<|assistant|></think>") or quoted prose.
 * @throws StrippedMarkupError saying what was seen and what to do.
 */
export function checkMarkupKept(
	t: ChatTemplate,
	text: string,
	stage: 'answer' | 'user_turn'
): void {
	let f = facts.get(t.source);
	if (!f) {
		try {
			f = { channels: usesChannels(t), opener: strippedAssistantOpener(t) };
		} catch (err) {
			if (!(err instanceof TemplateError)) throw err;
			f = { channels: false, opener: null };
		}
		facts.set(t.source, f);
	}
	let seen: string | null = null;
	if (f.channels && !text.includes(CHANNEL) && !text.includes('<|message|>')) {
		seen = STRIPPED_HARMONY.exec(text)?.[0].trim() ?? null;
	}
	if (
		seen === null &&
		stage === 'user_turn' &&
		f.opener !== null &&
		hasStrippedOpener(text, f.opener)
	) {
		seen = f.opener;
	}
	if (seen === null) return;
	const what = stage === 'answer' ? 'An answer' : 'A generated user turn';
	const excerpt = JSON.stringify(text.trim().slice(0, 60));
	throw new StrippedMarkupError(
		`${what} came back without the template's special tokens (${excerpt}, where ` +
			`${JSON.stringify(seen)} is what is left of them): the server dropped them from the ` +
			'text, so reasoning would be scored as the answer and user turns would not stop at ' +
			'their end.',
		'Serve the model so its replies keep special tokens: vLLM and SGLang do when a request ' +
			'sends "skip_special_tokens": false, which this app sends unless the server rejects the ' +
			'field (docs/servers.md, "Special tokens"). Through a proxy or hosted API that drops ' +
			'them, this model cannot be probed.'
	);
}

/** What the set-up view shows and offers for a template's header cut and reasoning effort. */
export interface TemplateMarkup {
	/** The family's rule (userHeaderDefault) and why (userHeaderReason). */
	headerDefault: UserHeaderCut;
	headerReason: string;
	/** The header each cut ends the probe prompt with; null where the header names no role. */
	headers: Record<UserHeaderCut, string | null>;
	/** The template's reasoning effort default; null when it has none. */
	effortDefault: ReasoningEffort | null;
}

/**
 * @param sample an exchange the template renders (gemma needs alternating roles).
 * @throws TemplateError when the template cannot render it.
 */
export function templateMarkup(t: ChatTemplate, sample: ChatMessage[]): TemplateMarkup {
	let role: string | null;
	try {
		role = userHeader(t, sample, { user_header: 'role' });
	} catch {
		role = null;
	}
	return {
		headerDefault: userHeaderDefault(t),
		headerReason: userHeaderReason(t),
		headers: { template: userHeader(t, sample), role },
		effortDefault: reasoningEffortDefault(t)
	};
}
