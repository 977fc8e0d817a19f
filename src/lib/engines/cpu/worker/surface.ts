/**
 * The narrow slice of wllama the CPU worker's operations use (runtime.ts implements it over
 * wllama; the tests, over a fake): open a GGUF, stream a raw completion, read the model cache.
 */
import type { MirrorSource } from './mirrorFetch.ts';

/** The fields of llama.cpp's streamed completion chunk we read (wllama RawCompletionChunk). */
export interface CpuChunk {
	choices: { text?: string; finish_reason?: string | null }[];
	usage?: { prompt_tokens: number; completion_tokens: number } | null;
	timings?: {
		prompt_ms?: number;
		prompt_per_second?: number;
		predicted_ms?: number;
		predicted_per_second?: number;
	};
}

/** What the handler sends per completion: llama-server's /v1/completions body, streamed. */
export interface CpuCompletionParams {
	prompt: string;
	max_tokens: number;
	temperature: number;
	top_p: number;
	seed: number;
	stop: string[];
	/** Grammar-constrained output (llama.cpp turns the schema into a GBNF grammar). */
	json_schema?: Record<string, unknown>;
	stream: true;
	onData: (chunk: CpuChunk) => void;
	abortSignal: AbortSignal;
}

/** One model resident in its own wllama instance (and wasm runtime). */
export interface CpuModel {
	createCompletion(params: CpuCompletionParams): Promise<void>;
	/** tokenizer.chat_template from the GGUF metadata, or null. */
	getChatTemplate(): string | null;
	getNumThreads?(): number;
	exit(): Promise<void>;
}

export interface OpenOptions {
	n_ctx: number;
	/** Threads llama.cpp computes with (1 unless the worker is cross-origin isolated). */
	n_threads: number;
	signal: AbortSignal;
	/** Bytes of the GGUF file(s) downloaded so far; `loaded === total` when served from cache. */
	onProgress: (p: { loaded: number; total: number }) => void;
	/** Where a catalog file not yet cached is fetched from instead of the Hub (mirrorFetch.ts). */
	mirror?: MirrorSource;
}

/** Opening models and reading the model cache (wllama's ModelManager over OPFS/Cache API). */
export interface CpuRuntime {
	open(url: string, opts: OpenOptions): Promise<CpuModel>;
	isCached?(url: string): Promise<boolean>;
	deleteCached?(url: string): Promise<void>;
	cachedBytes?(url: string): Promise<number | undefined>;
	storageEstimate?(): Promise<{ usage?: number; quota?: number }>;
}
