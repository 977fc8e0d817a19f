/**
 * The one narrow, OpenAI-shaped interface every engine implements: web-llm in a worker, any
 * OpenAI-compatible server, and the scripted engine the tests use. The core only sees this.
 */
import { AppError } from '../errors/appError.ts';
import type { ChatMessage, FinishReason, Usage } from './types.ts';

export interface LoadProgress {
	model: string;
	/** 0..1, monotone per model (engines that restart per phase must fold phases in). */
	fraction: number;
	phase: string;
	loaded_bytes?: number;
	total_bytes?: number;
	/** Estimated time left in the current phase, when the engine can tell (web-llm downloads). */
	eta_ms?: number;
	text?: string;
}

export interface CompletionRequest {
	model: string;
	/** Fully rendered prompt text: the core renders the model's own chat template. */
	prompt: string;
	temperature: number;
	top_p: number;
	/** Integer; with temperature 0 generation is greedy and the seed is irrelevant. */
	seed: number;
	max_tokens: number;
	stop: string[];
	signal?: AbortSignal;
	/** Called with each streamed delta, in order. */
	onToken?: (delta: string) => void;
	/**
	 * Called when the engine is about to try the request again after a transient failure (a 429,
	 * a 5xx, a reply that broke or stalled mid-stream): the deltas seen so far are void, and the
	 * next attempt streams the reply again from the start.
	 */
	onRetry?: (notice: EngineRetryNotice) => void;
}

/** One retry about to happen: which, of how many, after how long, and why. */
export interface EngineRetryNotice {
	/** 1 for the first retry. */
	retry: number;
	/** Retries allowed in all. */
	of: number;
	delay_ms: number;
	/** The failure being retried, for people. */
	message: string;
}

export interface CompletionResult {
	text: string;
	finish_reason: FinishReason;
	usage: Usage;
}

export interface JsonChatRequest {
	model: string;
	messages: ChatMessage[];
	/** JSON Schema the reply must follow; engines that cannot enforce it still get it in the prompt. */
	schema: Record<string, unknown>;
	temperature: number;
	top_p: number;
	seed: number;
	max_tokens: number;
	signal?: AbortSignal;
}

export interface EngineCapabilities {
	/** Whether the engine can enforce a JSON schema (else the judge relies on tolerant parsing). */
	json_schema: boolean;
	streaming: boolean;
	/** Requests the engine can usefully have in flight (web-llm: 1; servers batch). */
	max_concurrency: number;
	/** Can these models be resident at once? If not, the core phases generation and judging. */
	can_co_load: (models: string[]) => boolean;
}

export interface Engine {
	/** "webllm", "openai", "scripted": recorded in the run manifest. */
	readonly name: string;
	capabilities(): EngineCapabilities;
	/**
	 * Make exactly these models resident (a no-op for remote servers beyond checking they exist).
	 * @throws EngineError subclasses with a plain-language message and a recovery action.
	 */
	load(
		models: string[],
		opts?: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void }
	): Promise<void>;
	unload(): Promise<void>;
	/** Raw text completion over a rendered prompt. */
	complete(req: CompletionRequest): Promise<CompletionResult>;
	/** Chat completion constrained to JSON (the judge). Returns the raw text; the core parses it. */
	chatJson(req: JsonChatRequest): Promise<CompletionResult>;
}

export type EngineErrorCode =
	| 'webgpu_unavailable'
	| 'no_adapter'
	| 'shader_f16'
	| 'device_lost'
	| 'model_not_loaded'
	| 'quota_exceeded'
	| 'context_window'
	| 'network'
	| 'http'
	| 'timeout'
	| 'bad_model'
	| 'unknown';

/** Typed engine failure: `message` is for people, `recovery` says what to do next. */
export class EngineError extends AppError {
	declare readonly code: EngineErrorCode;
	constructor(code: EngineErrorCode, message: string, recovery = '', retryable = false) {
		super(message, { code, recovery, retryable });
		this.name = 'EngineError';
	}
}
