/**
 * The page ↔ engine-worker protocol. Ours, not web-llm's: its CreateWebWorkerMLCEngine makes the
 * page bundle the whole library, while these messages are plain data and cost the page nothing.
 *
 * Every request carries an `id`; the worker answers it with exactly ONE terminal reply (`result`
 * or `error`), possibly preceded by events (`progress`, `token`) carrying the same id.
 */
import type { AppConfig } from '@mlc-ai/web-llm';
import type {
	CompletionRequest,
	CompletionResult,
	JsonChatRequest,
	LoadProgress
} from '../../probe/engine.ts';

/** Callbacks and signals cannot cross a worker boundary: they stay on the page. */
export type WireCompletionRequest = Omit<CompletionRequest, 'signal' | 'onToken'>;
export type WireJsonChatRequest = Omit<JsonChatRequest, 'signal'>;

export type CacheOp = 'has' | 'delete' | 'sizes';

export interface LoadMessage {
	kind: 'load';
	id: number;
	/**
	 * Exactly the models to have resident afterwards. One already loaded stays as it is (a judge
	 * kept between runs: naming it again is how the page says "keep it"); the others are freed.
	 */
	models: string[];
	/** Only for models outside web-llm's prebuiltAppConfig. */
	appConfig?: AppConfig;
	/** A model mirror's base: catalog models not yet cached load from it (engines/mirror.ts). */
	mirror?: string;
}
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
export interface CacheQueryMessage {
	kind: 'cacheQuery';
	id: number;
	op: CacheOp;
	model: string;
	/** The page's custom model list, so a query before any load can find models outside the catalog. */
	appConfig?: AppConfig;
	/** A model mirror's base: a model cached from it counts as cached too. */
	mirror?: string;
}
export interface StatsMessage {
	kind: 'stats';
	id: number;
}

export type WorkerRequest =
	| LoadMessage
	| UnloadMessage
	| CompleteMessage
	| ChatJsonMessage
	| AbortMessage
	| CacheQueryMessage
	| StatsMessage;

export type RequestKind = WorkerRequest['kind'];

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

export interface WorkerStats {
	/** Models resident on the GPU after the last successful load. */
	loaded: string[];
	/** Kind of the request being served, null when idle. */
	running: RequestKind | null;
	queued: number;
	/** web-llm's runtimeStatsText() for the first loaded model, when available. */
	runtime?: string;
}

/** What `result.value` holds for each request kind. */
export interface ResultByKind {
	load: null;
	unload: null;
	complete: CompletionResult;
	chatJson: CompletionResult;
	abort: { aborted: boolean };
	cacheQuery: CacheQueryResult;
	stats: WorkerStats;
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
	value: ResultByKind[RequestKind];
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

const REPLY_KINDS: ReadonlySet<string> = new Set(['result', 'error', 'progress', 'token']);
const REQUEST_KINDS: ReadonlySet<string> = new Set([
	'load',
	'unload',
	'complete',
	'chatJson',
	'abort',
	'cacheQuery',
	'stats'
]);

function hasKindAndId(data: unknown): data is { kind: string; id: number } {
	if (typeof data !== 'object' || data === null) return false;
	const { kind, id } = data as { kind?: unknown; id?: unknown };
	return typeof kind === 'string' && typeof id === 'number';
}

/** Guards the page against stray messages (extensions, devtools) on the worker port. */
export function isWorkerReply(data: unknown): data is WorkerReply {
	return hasKindAndId(data) && REPLY_KINDS.has(data.kind);
}

export function isWorkerRequest(data: unknown): data is WorkerRequest {
	return hasKindAndId(data) && REQUEST_KINDS.has(data.kind);
}
