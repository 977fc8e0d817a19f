/**
 * Reading OpenAI-shaped replies: the streamed /v1/completions events and the one-shot chat body,
 * into the engine's CompletionResult with usage and timings.
 */
import type { CompletionResult } from '../../probe/engine.ts';
import { EngineError } from '../../probe/engine.ts';
import type { FinishReason, Usage } from '../../probe/types.ts';
import type { IdleDeadline } from '../../net/deadline.ts';
import {
	attemptError,
	contextWindowError,
	isContextOverflow,
	type LimitHints,
	notJsonError,
	notOpenAIError,
	serverMessage
} from './http.ts';
import { sseData } from './sse.ts';

/** The fields we read from a completion chunk or body; servers add others. */
export interface ReplyChoice {
	text?: string;
	delta?: { content?: string | null };
	message?: { content?: string | null };
	finish_reason?: string | null;
}
export interface ReplyJson {
	choices?: ReplyChoice[];
	usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
	/** llama.cpp's own measurements, better than ours because they exclude the network. */
	timings?: { prompt_per_second?: number; predicted_per_second?: number };
	error?: unknown;
}

/** Only 'length' matters to the probe; 'stop', 'eos', 'tool_calls', null… all ended normally. */
export function mapFinish(reason: unknown): FinishReason {
	return reason === 'length' ? 'length' : 'stop';
}

export interface Timing {
	sentAt: number;
	firstTokenAt?: number;
	endAt: number;
}

/** Usage from the server when it reported some, else counted deltas; tps from server or clock. */
export function buildUsage(reply: ReplyJson, deltas: number, t: Timing): Usage {
	const reported = reply.usage ?? undefined;
	const usage: Usage = {
		prompt_tokens: reported?.prompt_tokens ?? 0,
		completion_tokens: reported?.completion_tokens ?? deltas,
		total_ms: Math.round(t.endAt - t.sentAt)
	};
	if (t.firstTokenAt !== undefined) {
		usage.ttft_ms = Math.round(t.firstTokenAt - t.sentAt);
		const decodeMs = t.endAt - t.firstTokenAt;
		if (usage.completion_tokens > 1 && decodeMs > 0) {
			usage.decode_tps = ((usage.completion_tokens - 1) * 1000) / decodeMs;
		}
	}
	const timings = reply.timings;
	if (typeof timings?.predicted_per_second === 'number')
		usage.decode_tps = timings.predicted_per_second;
	if (typeof timings?.prompt_per_second === 'number') usage.prefill_tps = timings.prompt_per_second;
	return usage;
}

/** Parse one JSON reply or event; a server-side `error` object becomes an EngineError. */
export function parseReply(text: string, apiRoot: string): ReplyJson {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		throw notJsonError(apiRoot, text);
	}
	if (typeof json !== 'object' || json === null) throw notOpenAIError(apiRoot, text);
	const reply = json as ReplyJson;
	if (reply.error !== undefined && reply.error !== null) {
		const said = serverMessage(text);
		if (isContextOverflow(said) || isContextOverflow(text)) {
			throw contextWindowError(`The server at ${apiRoot} reported: ${said}`);
		}
		throw new EngineError(
			'http',
			`The server at ${apiRoot} reported an error: ${serverMessage(text)}`,
			'Check the server logs; retrying may help.',
			true
		);
	}
	return reply;
}

/**
 * One streamed event. An event that is not JSON (or not an object) means the stream was mangled
 * on the way, not that the server speaks another protocol (it already answered 200 with an
 * event stream), so it is retryable like a dropped connection.
 */
function parseEvent(data: string, apiRoot: string): ReplyJson {
	try {
		return parseReply(data, apiRoot);
	} catch (err) {
		// A server's own error event (llama-server's context overflow) is what it says, not mangling.
		if (!(err instanceof EngineError) || err.retryable || err.code === 'context_window') throw err;
		throw new EngineError(
			'network',
			`The reply from ${apiRoot} broke off: one of its events is not valid JSON (${data.trim().slice(0, 80) || 'empty'}).`,
			'Retry; if it keeps happening, check the server and any proxy in between.',
			true
		);
	}
}

/**
 * Consume a streamed completion, calling onToken per non-empty delta.
 * @throws AbortError / EngineError('timeout') via the deadline; EngineError('network') when the
 * stream ends before the server said it was finished.
 */
export async function readStream(
	res: Response,
	deadline: IdleDeadline,
	apiRoot: string,
	sentAt: number,
	onToken?: (delta: string) => void,
	limits: { maxBytes?: number; hints?: LimitHints } = {}
): Promise<CompletionResult> {
	if (!res.body) throw notJsonError(apiRoot, '');
	const events = sseData(res.body, {
		onChunk: () => deadline.touch(),
		signal: deadline.signal,
		maxBytes: limits.maxBytes
	});
	const failed = (err: unknown) =>
		attemptError(deadline, err, apiRoot, true, { what: 'one completion', hints: limits.hints });
	let text = '';
	let deltas = 0;
	let finish: string | null | undefined;
	let finished = false;
	let firstTokenAt: number | undefined;
	const last: ReplyJson = {};
	try {
		for (;;) {
			let next: IteratorResult<string>;
			try {
				next = await deadline.race(events.next());
			} catch (err) {
				throw failed(err);
			}
			if (deadline.signal.aborted) throw failed(undefined);
			if (next.done) break;
			if (next.value === '[DONE]') {
				finished = true;
				break;
			}
			const chunk = parseEvent(next.value, apiRoot);
			if (chunk.usage) last.usage = chunk.usage;
			if (chunk.timings) last.timings = chunk.timings;
			const choice = chunk.choices?.[0];
			if (!choice) continue;
			const delta = choice.text ?? choice.delta?.content ?? '';
			if (choice.finish_reason) finish = choice.finish_reason;
			if (delta === '') continue;
			firstTokenAt ??= performance.now();
			deltas++;
			text += delta;
			onToken?.(delta);
			// onToken may have aborted: stop before reading another event.
			if (deadline.signal.aborted) throw failed(undefined);
		}
	} finally {
		void events.return(undefined);
	}
	if (!finished && !finish) {
		throw new EngineError(
			'network',
			`The reply from ${apiRoot} stopped before the server finished it.`,
			'Retry; if it keeps happening, check the server logs.',
			true
		);
	}
	const usage = buildUsage(last, deltas, { sentAt, firstTokenAt, endAt: performance.now() });
	return { text, finish_reason: mapFinish(finish), usage };
}
