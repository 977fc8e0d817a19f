/**
 * The page ↔ CPU-engine-worker protocol: the shared requests and replies (worker/protocol.ts),
 * except that a model is named by the URL of its GGUF file and loading says how large a context
 * to allocate. Plain data: the page imports no wllama.
 */
import type { BaseWorkerStats, CacheQueryMessage, SharedRequest } from '../worker/protocol.ts';
import type { MirrorManifest } from '../mirror.ts';

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

export type CpuWorkerRequest = CpuLoadMessage | CacheQueryMessage | SharedRequest;

export type CpuRequestKind = CpuWorkerRequest['kind'];

export interface CpuWorkerStats extends BaseWorkerStats<CpuRequestKind> {
	/** Threads llama.cpp computes with: more than 1 only when the page is cross-origin isolated. */
	threads?: number;
	/** Times a model's runtime died and was restarted from the cache (see worker/handler.ts). */
	restarts: number;
}
