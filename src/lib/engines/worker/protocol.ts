/**
 * What every engine worker and its page share: the requests both engines answer, the replies, and
 * the wire shape of an error. Plain data, so the page imports no engine library. Each engine adds
 * its own load and cache-query messages (webgpu/protocol.ts, cpu/protocol.ts).
 *
 * Every request carries an `id`; the worker answers it with exactly ONE terminal reply (`result`
 * or `error`), possibly preceded by events (`progress`, `token`) carrying the same id.
 */
import type {
	CompletionRequest,
	CompletionResult,
	JsonChatRequest,
	LoadProgress
} from '../../probe/engine.ts';

/** Callbacks and signals cannot cross a worker boundary: they stay on the page. */
export type WireCompletionRequest = Omit<CompletionRequest, 'signal' | 'onToken'>;
export type WireJsonChatRequest = Omit<JsonChatRequest, 'signal'>;

/** Any request: its kind routes it, its id pairs it with its one reply. */
export interface WireRequest {
	kind: string;
	id: number;
}

export type CacheOp = 'has' | 'delete' | 'sizes';

export interface UnloadMessage {
	kind: 'unload';
	id: number;
}
export interface CompleteMessage {
	kind: 'complete';
	id: number;
	req: WireCompletionRequest;
}
export interface ChatJsonMessage {
	kind: 'chatJson';
	id: number;
	req: WireJsonChatRequest;
}
export interface AbortMessage {
	kind: 'abort';
	id: number;
	/** The id of the request to cancel. */
	target: number;
}
/** A cache query as the CPU worker takes it; the web-llm worker's adds its model list. */
export interface CacheQueryMessage {
	kind: 'cacheQuery';
	id: number;
	op: CacheOp;
	model: string;
}
export interface StatsMessage {
	kind: 'stats';
	id: number;
}

/** The requests every worker takes as they are; each engine adds its load and cache query. */
export type SharedRequest =
	UnloadMessage | CompleteMessage | ChatJsonMessage | AbortMessage | StatsMessage;

/** Bytes a model takes in the browser's cache; fields are absent when the browser cannot tell. */
export interface CacheSizes {
	model: string;
	/** Sum over the model's cached files (weights, config, tokenizer, wasm). */
	model_bytes?: number;
	/** Whole-origin usage and quota from navigator.storage.estimate(). */
	usage_bytes?: number;
	quota_bytes?: number;
}

export interface CacheQueryResult {
	op: CacheOp;
	model: string;
	/** `has`: whether every file of the model is cached. */
	cached?: boolean;
	sizes?: CacheSizes;
}

/** What every worker's `stats` says; each engine adds its own fields. */
export interface BaseWorkerStats<K extends string> {
	/** Models resident after the last successful load. */
	loaded: string[];
	/** Kind of the request being served, null when idle. */
	running: K | null;
	queued: number;
}

/** What `result.value` holds for the request kinds every worker answers. */
export interface SharedResults {
	unload: null;
	complete: CompletionResult;
	chatJson: CompletionResult;
	abort: { aborted: boolean };
	cacheQuery: CacheQueryResult;
}

/** An error flattened for postMessage: the class survives as `name`, rebuilt by errors.ts. */
export interface WireError {
	name: string;
	message: string;
	/** The AppError code: an EngineErrorCode, or "aborted". */
	code?: string;
	recovery?: string;
	retryable?: boolean;
}

export interface ResultReply {
	kind: 'result';
	id: number;
	/** The request kind's result (each engine's ResultByKind); the page casts per kind. */
	value: unknown;
}
export interface ErrorReply {
	kind: 'error';
	id: number;
	error: WireError;
}
export interface ProgressReply {
	kind: 'progress';
	id: number;
	progress: LoadProgress;
}
export interface TokenEvent {
	kind: 'token';
	id: number;
	delta: string;
}

export type WorkerReply = ResultReply | ErrorReply | ProgressReply | TokenEvent;

export type Post = (msg: WorkerReply) => void;

const REPLY_KINDS: ReadonlySet<string> = new Set(['result', 'error', 'progress', 'token']);

/** Has the shape of a request or a reply: a string kind and a numeric id. */
export function hasKindAndId(data: unknown): data is WireRequest {
	if (typeof data !== 'object' || data === null) return false;
	const { kind, id } = data as { kind?: unknown; id?: unknown };
	return typeof kind === 'string' && typeof id === 'number';
}

/** Guards the page against stray messages (extensions, devtools) on the worker port. */
export function isWorkerReply(data: unknown): data is WorkerReply {
	return hasKindAndId(data) && REPLY_KINDS.has(data.kind);
}
