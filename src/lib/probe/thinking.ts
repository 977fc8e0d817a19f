/**
 * Reasoning models (Qwen3 with thinking on) answer "<think>…</think>final". The probe perturbs and
 * shows only the visible part; the template decides how earlier reasoning is rendered.
 */
const THINK_BLOCK = /^\s*<think>([\s\S]*?)(?:<\/think>|$)/;

export function splitThinking(text: string): { thinking: string; visible: string } {
	const m = THINK_BLOCK.exec(text);
	if (!m) return { thinking: '', visible: text };
	return { thinking: m[1].trim(), visible: text.slice(m[0].length).trimStart() };
}
