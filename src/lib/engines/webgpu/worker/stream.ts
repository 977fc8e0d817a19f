/**
 * Turning web-llm's streamed chunks into one CompletionResult. Both generation turns and the judge
 * stream, so an abort can stop them between tokens and usage arrives in the final chunk.
 */
import type { CompletionUsage } from '@mlc-ai/web-llm';
import { type CompletionResult } from '../../../probe/engine.ts';
import { AbortError } from '../../../errors/appError.ts';
import type { FinishReason, Usage } from '../../../probe/types.ts';

/** What completion and chat-completion chunks have in common. */
export interface ChunkLike {
	choices: { finish_reason: string | null }[];
	usage?: CompletionUsage;
}

export interface StreamControl {
	readonly aborted: boolean;
}

/**
 * Read a stream to its end, passing each non-empty delta on. Stops reading as soon as the request
 * is aborted: leaving the loop makes web-llm's generator run its `finally`, which stops the
 * pipeline and releases the model lock.
 * @throws AbortError when `ctl.aborted` was set before the stream ended.
 */
export async function collect<C extends ChunkLike>(
	stream: AsyncIterable<C>,
	deltaOf: (chunk: C) => string | null | undefined,
	ctl: StreamControl,
	onDelta?: (delta: string) => void
): Promise<CompletionResult> {
	let text = '';
	let deltas = 0;
	let finish: string | null = null;
	let usage: CompletionUsage | undefined;
	for await (const chunk of stream) {
		if (ctl.aborted) break;
		const delta = deltaOf(chunk);
		if (delta) {
			text += delta;
			deltas++;
			onDelta?.(delta);
		}
		finish = chunk.choices[0]?.finish_reason ?? finish;
		if (chunk.usage) usage = chunk.usage;
	}
	if (ctl.aborted) throw new AbortError();
	return { text, finish_reason: toFinishReason(finish), usage: toUsage(usage, deltas) };
}

export function toFinishReason(reason: string | null): FinishReason {
	if (reason === 'length' || reason === 'abort') return reason;
	// 'stop', 'tool_calls' (never requested) and a stream that ended without saying.
	return 'stop';
}

/**
 * web-llm usage → ours. Timing comes from `usage.extra` (0.2.86 CompletionUsage): seconds become
 * milliseconds. Without a usage chunk, fall back to counting streamed deltas.
 */
export function toUsage(usage: CompletionUsage | undefined, deltas: number): Usage {
	if (!usage) return { prompt_tokens: 0, completion_tokens: deltas };
	const out: Usage = {
		prompt_tokens: usage.prompt_tokens,
		completion_tokens: usage.completion_tokens
	};
	const extra = usage.extra as Partial<CompletionUsage['extra']> | undefined;
	if (isNum(extra?.prefill_tokens_per_s)) out.prefill_tps = extra.prefill_tokens_per_s;
	if (isNum(extra?.decode_tokens_per_s)) out.decode_tps = extra.decode_tokens_per_s;
	if (isNum(extra?.time_to_first_token_s)) out.ttft_ms = extra.time_to_first_token_s * 1000;
	if (isNum(extra?.e2e_latency_s)) out.total_ms = extra.e2e_latency_s * 1000;
	return out;
}

function isNum(x: unknown): x is number {
	return typeof x === 'number' && Number.isFinite(x);
}
