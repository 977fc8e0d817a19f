/**
 * How much time and how many bytes one reply of a server may take. The idle timeout alone lets a
 * server that sends a token every half second, forever, hold a run for good, and an unbounded body
 * lets it fill memory (a 1 GB stream crashed a tab). Both limits grow with `max_tokens`, so a long
 * answer from a slow but honest server fits, and a flag (or option) replaces either.
 */

/** Time per token of max_tokens a request may take beyond the idle timeout: a floor of 2 tokens/s. */
export const MS_PER_TOKEN = 500;
/**
 * Bytes per token of max_tokens a streamed completion or a judge body may have. One SSE event per
 * token is about 150–450 bytes on vLLM, SGLang and llama-server (id, model, created, choices,
 * llama-server's timings); 2 KB leaves room for servers that send more per event.
 */
export const REPLY_BYTES_PER_TOKEN = 2048;
/** The floor of the byte limit, for small max_tokens. */
export const MIN_REPLY_BYTES = 1024 * 1024;
/** GET /v1/models, /props and /tokenize replies: a served template is tens of KB at most. */
export const SMALL_REPLY_MAX_BYTES = 8 * 1024 * 1024;
/**
 * /props waits this long for silence and twice it in all: it only sets a default (the template,
 * the context window), so a server that stalls there must not hold set-up or a run for minutes.
 */
export const PROPS_TIMEOUT_MS = 10_000;

/** The limits an engine was given; each undefined one is derived per request. */
export interface ReplyLimitOptions {
	/** The whole of one request, reply included, in ms. */
	requestTimeoutMs?: number;
	/** The size of one streamed completion or judge body, in bytes. */
	maxReplyBytes?: number;
}

/** One request's total time: the given limit, else the idle timeout plus MS_PER_TOKEN per token. */
export function requestTotalMs(idleMs: number, maxTokens: number, given?: number): number {
	return given ?? idleMs + Math.max(1, maxTokens) * MS_PER_TOKEN;
}

/** One reply's byte ceiling: the given limit, else REPLY_BYTES_PER_TOKEN per token (1 MiB at least). */
export function replyMaxBytes(maxTokens: number, given?: number): number {
	return given ?? Math.max(MIN_REPLY_BYTES, maxTokens * REPLY_BYTES_PER_TOKEN);
}
