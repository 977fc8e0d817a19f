/**
 * The page ↔ CPU-engine-worker protocol: the web-llm worker's messages and replies (one terminal
 * reply per request id, events before it), except that a model is named by the URL of its GGUF
 * file and loading says how large a context to allocate. Plain data: the page imports no wllama.
 */
import type {
	AbortMessage,
	CacheOp,
	ChatJsonMessage,
	CompleteMessage,
	StatsMessage,
	UnloadMessage
} from '../webgpu/protocol.ts';

export type {
	CacheOp,
	CacheQueryResult,
	CacheSizes,
	ErrorReply,
	ResultReply,
	WireCompletionRequest,
	WireJsonChatRequest,
	WorkerReply
} from '../webgpu/protocol.ts';
import type { MirrorManifest } from '../mirror.ts';
export { isWorkerReply, isWorkerRequest } from '../webgpu/protocol.ts';

export interface CpuLoadMessage {
	kind: 'load';
	id: number;
	/** GGUF URLs (the first shard of a split model); each is also the model's id in requests. */
	models: string[];
	/** Tokens of context per model (llama.cpp n_ctx). */
	n_ctx: number;
	/** Threads to compute with; absent: the worker's own plan (threads.ts). */
	n_threads?: number;
	/** A model mirror to fetch catalog files from instead of the Hub (engines/mirror.ts). */
	mirror?: { base: string; manifest?: MirrorManifest };
}

export interface CpuCacheQueryMessage {
	kind: 'cacheQuery';
	id: number;
	op: CacheOp;
	model: string;
}

export type CpuWorkerRequest =
	| CpuLoadMessage
	| UnloadMessage
	| CompleteMessage
	| ChatJsonMessage
	| AbortMessage
	| CpuCacheQueryMessage
	| StatsMessage;

export type CpuRequestKind = CpuWorkerRequest['kind'];

export interface CpuWorkerStats {
	loaded: string[];
	running: CpuRequestKind | null;
	queued: number;
	/** Threads llama.cpp computes with: more than 1 only when the page is cross-origin isolated. */
	threads?: number;
	/** Times a model's runtime died and was restarted from the cache (see handler.ts). */
	restarts: number;
}
