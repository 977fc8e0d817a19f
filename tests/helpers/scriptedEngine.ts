/**
 * A deterministic Engine for tests and the bench: no model, same interface. It counts what the
 * pipeline asks of it, so tests can assert "5 assistant generations, 90 user turns, 2 loads".
 */
import type {
	CompletionRequest,
	CompletionResult,
	Engine,
	EngineCapabilities,
	JsonChatRequest,
	LoadProgress
} from '../../src/lib/probe/engine.ts';
import { EngineError } from '../../src/lib/probe/engine.ts';
import { AbortError } from '../../src/lib/errors/appError.ts';
import { applyScript, defaultScript, type ScriptFn, type ScriptRequest } from './script.ts';

export interface ScriptedEngineOptions {
	script?: ScriptFn;
	/** Models that fit together; default: any set does. */
	canCoLoad?: (models: string[]) => boolean;
	/** Per-token delay; 0 means no timer at all (the bench's zero-latency engine). */
	tokenDelayMs?: number;
	maxConcurrency?: number;
	/** Throw this from the nth call (1-based) of complete(), to test error paths. */
	failOn?: { call: number; error: Error };
}

export interface ScriptedCall {
	kind: 'complete' | 'chat';
	model: string;
	prompt: string;
	temperature: number;
	seed: number;
}

export class ScriptedEngine implements Engine {
	readonly name = 'scripted';
	readonly calls: ScriptedCall[] = [];
	readonly loads: string[][] = [];
	resident: string[] = [];
	/** Per-token delay, adjustable between requests (the contract's mid-stream abort). */
	tokenDelayMs: number;
	#opts: ScriptedEngineOptions;
	#completeCalls = 0;

	constructor(opts: ScriptedEngineOptions = {}) {
		this.#opts = opts;
		this.tokenDelayMs = opts.tokenDelayMs ?? 0;
	}

	capabilities(): EngineCapabilities {
		return {
			json_schema: true,
			streaming: true,
			max_concurrency: this.#opts.maxConcurrency ?? 1,
			can_co_load: this.#opts.canCoLoad ?? (() => true)
		};
	}

	async load(
		models: string[],
		opts: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {}
	): Promise<void> {
		if (opts.signal?.aborted) throw new AbortError();
		for (const model of models) opts.onProgress?.({ model, fraction: 1, phase: 'ready' });
		this.loads.push([...models]);
		this.resident = [...models];
	}

	async unload(): Promise<void> {
		this.resident = [];
	}

	async complete(req: CompletionRequest): Promise<CompletionResult> {
		this.#completeCalls++;
		const fail = this.#opts.failOn;
		if (fail && fail.call === this.#completeCalls) throw fail.error;
		return this.#run('complete', req.model, req.prompt, req, req.stop, req.onToken);
	}

	async chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		const prompt = req.messages.map((m) => `${m.role}: ${m.content}`).join('\n');
		return this.#run('chat', req.model, prompt, req, [], undefined, req);
	}

	async #run(
		kind: 'complete' | 'chat',
		model: string,
		prompt: string,
		p: { temperature: number; seed: number; max_tokens: number; signal?: AbortSignal },
		stop: string[],
		onToken?: (delta: string) => void,
		chat?: JsonChatRequest
	): Promise<CompletionResult> {
		if (!this.resident.includes(model)) {
			throw new EngineError('model_not_loaded', `Model ${model} is not loaded.`, 'Load it first.');
		}
		if (p.signal?.aborted) throw new AbortError();
		this.calls.push({ kind, model, prompt, temperature: p.temperature, seed: p.seed });
		const request: ScriptRequest = {
			kind,
			model,
			prompt,
			messages: chat?.messages,
			temperature: p.temperature,
			seed: p.seed,
			max_tokens: p.max_tokens,
			stop
		};
		const reply = applyScript(this.#opts.script ?? defaultScript, request);
		const delay = this.tokenDelayMs;
		let text = '';
		for (const token of reply.tokens) {
			if (delay > 0) await new Promise((r) => setTimeout(r, delay));
			if (p.signal?.aborted) throw new AbortError();
			text += token;
			onToken?.(token);
		}
		return {
			text,
			finish_reason: reply.finish_reason,
			usage: { prompt_tokens: reply.prompt_tokens, completion_tokens: reply.tokens.length }
		};
	}

	count(kind: 'complete' | 'chat', predicate: (c: ScriptedCall) => boolean = () => true): number {
		return this.calls.filter((c) => c.kind === kind && predicate(c)).length;
	}
}
