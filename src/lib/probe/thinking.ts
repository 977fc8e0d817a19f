/**
 * Reasoning models put scratch work before the answer, in one of three shapes:
 * - Qwen3 with thinking on writes "<think>…</think>final";
 * - Qwen3.5 and GLM-4.7-Flash get "<think>" from their generation prompt, so the completion
 *   starts inside the block: "…reasoning…</think>final";
 * - gpt-oss writes harmony messages: "<|channel|>analysis<|message|>…<|end|><|start|>assistant
 *   <|channel|>final<|message|>final".
 * The probe scores, perturbs, shows and puts in the history only the visible answer; the template
 * decides how earlier reasoning is rendered (Qwen3.5, GLM and gpt-oss drop it).
 */

export interface SplitAnswer {
	/** The reasoning trace (think block, or analysis and commentary channels); "" when none. */
	thinking: string;
	/** What the user is shown: the text after the think block, or the final channel. */
	visible: string;
	/** False when generation stopped inside the reasoning: there is no answer at all. */
	complete: boolean;
}

const THINK_BLOCK = /^\s*<think>([\s\S]*?)(?:<\/think>|$)/;
const CHANNEL = '<|channel|>';

/**
 * Split a completion into reasoning and visible answer.
 * @param prefilledThinking the prompt ended inside an open "<think>" (see template.opensReasoning)
 */
export function splitThinking(
	text: string,
	opts: { prefilledThinking?: boolean } = {}
): SplitAnswer {
	if (text.includes(CHANNEL)) return splitHarmony(text);
	if (opts.prefilledThinking && !/^\s*<think>/.test(text)) {
		const end = text.indexOf('</think>');
		if (end < 0) return { thinking: text.trim(), visible: '', complete: false };
		return {
			thinking: text.slice(0, end).trim(),
			visible: text.slice(end + '</think>'.length).trimStart(),
			complete: true
		};
	}
	const m = THINK_BLOCK.exec(text);
	if (!m) return { thinking: '', visible: text, complete: true };
	const closed = m[0].trimEnd().endsWith('</think>');
	return { thinking: m[1].trim(), visible: text.slice(m[0].length).trimStart(), complete: closed };
}

/**
 * gpt-oss harmony: messages separated by "<|start|>assistant", each "<|channel|>NAME<|message|>"
 * then its text up to "<|end|>", "<|return|>" or "<|call|>". The final channel is the answer; a
 * completion with channels but no final one stopped while reasoning.
 */
function splitHarmony(text: string): SplitAnswer {
	const thinking: string[] = [];
	let visible: string | null = null;
	for (const part of text.split('<|start|>')) {
		const at = part.indexOf(CHANNEL);
		if (at < 0) {
			// Text before the first channel tag: a model that skipped the header. Keep it visible.
			if (part.trim() !== '' && visible === null && thinking.length === 0) visible = part;
			continue;
		}
		const rest = part.slice(at + CHANNEL.length);
		const body = rest.indexOf('<|message|>');
		const channel = (body < 0 ? rest : rest.slice(0, body)).trim().split(/[\s<]/)[0];
		const content = body < 0 ? '' : rest.slice(body + '<|message|>'.length);
		const message = content.replace(/<\|(?:end|return|call)\|>[\s\S]*$/, '');
		if (channel === 'final') visible = (visible ?? '') + message;
		else thinking.push(message.trim());
	}
	return {
		thinking: thinking.filter((t) => t !== '').join('\n\n'),
		visible: visible === null ? '' : visible.trim(),
		complete: visible !== null
	};
}
