/**
 * A fake of the narrow wllama surface the CPU worker handler drives (CpuRuntime/CpuModel), plus a
 * real MessageChannel between the page-side CpuEngine and the handler, so messages are
 * structured-cloned and delivered asynchronously as with a Worker. Like llama.cpp's streamed
 * /v1/completions: stop strings are cut and never streamed, the last chunk carries no text but
 * finish_reason, usage and timings, and an aborted request rejects with wllama's AbortError.
 */
import { CpuEngine, type CpuEngineOptions } from '../../src/lib/engines/cpu/client.ts';
import type { CpuWorkerRequest } from '../../src/lib/engines/cpu/protocol.ts';
import { createCpuHandler } from '../../src/lib/engines/cpu/worker/handler.ts';
import type {
	CpuCompletionParams,
	CpuModel,
	CpuRuntime,
	OpenOptions
} from '../../src/lib/engines/cpu/worker/surface.ts';
import { applyScript, defaultScript, type ScriptFn } from './script.ts';

/** Qwen2.5's chat template, shortened to what the judge path renders (system + user + generation). */
export const CHATML_TEMPLATE =
	"{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** An Error shaped like wllama's WllamaRuntimeError after the wasm aborted. */
export function runtimeDeath(message = 'invalid UTF-8 byte at index 3: 0xE4'): Error {
	const err = new Error(message);
	err.name = 'RuntimeError';
	return err;
}

export class FakeWllama implements CpuRuntime {
	script: ScriptFn = defaultScript;
	tokenDelayMs = 0;
	/** Bytes per progress step and total size of each fake GGUF download. */
	fileBytes = 4_000_000;
	progressSteps = 4;
	progressDelayMs = 0;
	chatTemplate: string | null = CHATML_TEMPLATE;
	cached = new Set<string>();
	/** Thrown by the next open() or createCompletion(). */
	failNext: Partial<Record<'open' | 'complete', Error>> = {};
	readonly opened: string[] = [];
	/** n_threads of each open(), in order. */
	readonly threads: number[] = [];
	readonly exited: string[] = [];
	readonly calls: Omit<CpuCompletionParams, 'onData' | 'abortSignal'>[] = [];
	active = 0;
	maxActive = 0;
	#nextDelayMs?: number;

	slowNextRequest(ms: number): void {
		this.#nextDelayMs = ms;
	}

	async open(url: string, opts: OpenOptions): Promise<CpuModel> {
		const err = this.failNext.open;
		if (err) {
			delete this.failNext.open;
			throw err;
		}
		if (!this.cached.has(url)) {
			for (let i = 1; i <= this.progressSteps; i++) {
				await sleep(this.progressDelayMs);
				if (opts.signal.aborted) throw abortError();
				opts.onProgress({
					loaded: (i * this.fileBytes) / this.progressSteps,
					total: this.fileBytes
				});
			}
			this.cached.add(url);
		} else {
			opts.onProgress({ loaded: this.fileBytes, total: this.fileBytes });
		}
		this.opened.push(url);
		this.threads.push(opts.n_threads);
		let alive = true;
		return {
			createCompletion: (params) => {
				if (!alive) return Promise.reject(new Error('model exited'));
				return this.#complete(url, params);
			},
			getChatTemplate: () => this.chatTemplate,
			getNumThreads: () => opts.n_threads,
			exit: async () => {
				alive = false;
				this.exited.push(url);
			}
		};
	}

	async isCached(url: string): Promise<boolean> {
		return this.cached.has(url);
	}

	async deleteCached(url: string): Promise<void> {
		this.cached.delete(url);
	}

	async cachedBytes(url: string): Promise<number | undefined> {
		return this.cached.has(url) ? this.fileBytes : undefined;
	}

	async #complete(model: string, params: CpuCompletionParams): Promise<void> {
		const err = this.failNext.complete;
		if (err) {
			delete this.failNext.complete;
			throw err;
		}
		const { onData, abortSignal, ...rest } = params;
		this.calls.push(structuredClone(rest));
		const reply = applyScript(this.script, {
			kind: params.json_schema ? 'chat' : 'complete',
			model,
			prompt: params.prompt,
			temperature: params.temperature,
			seed: params.seed,
			max_tokens: params.max_tokens,
			stop: params.stop
		});
		const delay = this.#nextDelayMs ?? this.tokenDelayMs;
		this.#nextDelayMs = undefined;
		this.active++;
		this.maxActive = Math.max(this.maxActive, this.active);
		try {
			let emitted = 0;
			for (const token of reply.tokens) {
				await sleep(delay);
				if (abortSignal.aborted) throw abortError();
				emitted++;
				onData({ choices: [{ text: token, finish_reason: null }] });
			}
			onData({
				choices: [
					{ text: '', finish_reason: reply.finish_reason === 'length' ? 'length' : 'stop' }
				],
				usage: { prompt_tokens: reply.prompt_tokens, completion_tokens: emitted },
				timings: {
					prompt_ms: 80,
					prompt_per_second: 400,
					predicted_ms: 420,
					predicted_per_second: 25
				}
			});
		} finally {
			this.active--;
		}
	}
}

function abortError(): Error {
	const err = new Error('Operation aborted');
	err.name = 'AbortError';
	return err;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The CPU engine wired to a fake runtime over a MessageChannel, as with a real Worker. */
/** `plannedThreads`: what the worker would choose itself (its isolation and cores). */
export function fakeCpuEngine(opts: CpuEngineOptions = {}, plannedThreads?: () => number) {
	const fake = new FakeWllama();
	const channel = new MessageChannel();
	const received: CpuWorkerRequest[] = [];
	const handle = createCpuHandler(fake, (msg) => channel.port2.postMessage(msg), plannedThreads);
	channel.port2.onmessage = (event) => {
		received.push(event.data as CpuWorkerRequest);
		handle(event.data);
	};
	const errorListeners: ((event: { message?: string }) => void)[] = [];
	const close = () => {
		channel.port1.close();
		channel.port2.close();
	};
	const engine = new CpuEngine(
		{
			postMessage: (msg) => channel.port1.postMessage(msg),
			addEventListener(type: 'message' | 'error', listener: (event: never) => void) {
				if (type === 'error') {
					errorListeners.push(listener as (event: { message?: string }) => void);
					return;
				}
				channel.port1.addEventListener('message', (event) =>
					(listener as (event: { data: unknown }) => void)({ data: (event as MessageEvent).data })
				);
				channel.port1.start();
			},
			terminate: close
		},
		opts
	);
	const crash = (message: string) => errorListeners.forEach((l) => l({ message }));
	return { engine, fake, received, close, crash };
}
