/**
 * Reasoning models (Qwen3 with thinking on, DeepSeek-R1 distills) put their scratch work in a
 * `<think>…</think>` block before the answer. Numbers and letters in that block are drafts, not
 * the answer, so scoring only looks at what follows it.
 */

const LEADING_THINK = /^\s*<think>[\s\S]*?<\/think>/;
/** Generation stopped (max_tokens) while still thinking: nothing after it is an answer. */
const UNTERMINATED_THINK = /^\s*<think>[\s\S]*$/;

/** Removes one leading think block; an unterminated one removes everything. */
export function stripThinking(answer: string): string {
	if (LEADING_THINK.test(answer)) return answer.replace(LEADING_THINK, '').trimStart();
	if (UNTERMINATED_THINK.test(answer)) return '';
	return answer;
}
