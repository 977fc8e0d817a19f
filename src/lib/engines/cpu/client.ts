/**
 * The page side of the CPU engine ("This device (CPU)"): an Engine that forwards every call to the
 * wllama worker over the same protocol as the web-llm worker. It never imports wllama, so the page
 * stays small; the worker (wllama's JS and its 8 MB wasm) loads only when createCpuEngine() runs.
 */
import type { Engine, EngineCapabilities, LoadProgress } from '../../probe/engine.ts';
import { AbortError } from '../../errors/appError.ts';
import type { RequestHooks, WorkerPort } from '../worker/client.ts';
import { WorkerEngine } from '../worker/engine.ts';
import { cpuCanCoLoad } from './catalog.ts';
import type { MirrorManifest } from '../mirror.ts';
import { cpuThreads, threadFactsHere } from './threads.ts';
import type { CpuRequestKind, CpuWorkerRequest, CpuWorkerStats } from './protocol.ts';
import { CpuWorkerSilentError, SILENCE_LIMIT_MS, SilenceError, watched } from './watchdog.ts';

export interface CpuEngineOptions {
	/** llama.cpp context per model; the probe's prompts and replies must fit. */
	n_ctx?: number;
	/** Threads to compute with; absent: the worker's plan (threads.ts). The bench sets 1 to compare. */
	n_threads?: number;
	/** The model mirror, read at each load ('' base or undefined: the Hub). */
	mirror?: () => { base: string; manifest?: MirrorManifest } | undefined;
}

export const DEFAULT_N_CTX = 4096;

type Body<K extends CpuRequestKind> = Omit<Extract<CpuWorkerRequest, { kind: K }>, 'id' | 'kind'>;

/** The worker port as the client uses it: messages it sends are CPU-worker requests. */
export type CpuWorkerLike = WorkerPort<CpuWorkerRequest>;

export class CpuEngine extends WorkerEngine<CpuWorkerRequest> implements Engine {
	readonly name = 'wllama';
	readonly #nCtx: number;
	readonly #nThreads: number | undefined;
	readonly #mirror: CpuEngineOptions['mirror'];
	/** Starts a fresh worker after a hang; absent when the caller passed one port. */
	readonly #spawn: (() => CpuWorkerLike) | undefined;

	/** @param worker a port, or a way to start one (then a hung load is retried on a fresh one). */
	constructor(worker: CpuWorkerLike | (() => CpuWorkerLike), opts: CpuEngineOptions = {}) {
		const spawn = typeof worker === 'function' ? worker : undefined;
		super(spawn ? spawn() : (worker as CpuWorkerLike), 'CPU engine worker');
		this.#spawn = spawn;
		this.#nCtx = opts.n_ctx ?? DEFAULT_N_CTX;
		this.#nThreads = opts.n_threads;
		this.#mirror = opts.mirror;
	}

	capabilities(): EngineCapabilities {
		return {
			json_schema: true,
			streaming: true,
			// One CPU: a second request in flight only competes for the same cores.
			max_concurrency: 1,
			can_co_load: cpuCanCoLoad
		};
	}

	async load(
		models: string[],
		opts: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void } = {}
	): Promise<void> {
		const mirror = this.#mirror?.();
		const body = {
			models,
			n_ctx: this.#nCtx,
			n_threads: this.#nThreads,
			...(mirror?.base ? { mirror } : {})
		};
		// A load that goes silent is hung (watchdog.ts): a fresh worker gets one more try.
		for (let attempt = 1; ; attempt++) {
			try {
				await watched(
					(alive) =>
						this.#request('load', body, {
							signal: opts.signal,
							onProgress: (p) => {
								alive();
								opts.onProgress?.(p);
							}
						}),
					SILENCE_LIMIT_MS
				);
				return;
			} catch (err) {
				if (!(err instanceof SilenceError)) throw err;
				const spawn = this.#spawn;
				// A hung worker holds its memory and maybe a core: it goes, retried or not.
				if (spawn) this.restartWorker(spawn);
				else this.terminate();
				if (opts.signal?.aborted) throw new AbortError();
				if (attempt >= 2 || !spawn) throw new CpuWorkerSilentError(SILENCE_LIMIT_MS / 1000);
			}
		}
	}

	stats(): Promise<CpuWorkerStats> {
		return this.#request('stats', {}) as Promise<CpuWorkerStats>;
	}

	#request<K extends CpuRequestKind>(
		kind: K,
		body: Body<K>,
		hooks: RequestHooks = {}
	): Promise<unknown> {
		return this.worker.request(kind, body, hooks);
	}
}

/**
 * Start the CPU worker and wrap it. Creating the Worker is what downloads wllama. The threads are
 * this page's plan (what set-up shows), unless `opts` names a count.
 */
export function createCpuEngine(opts: CpuEngineOptions = {}): CpuEngine {
	const spawn = () =>
		new Worker(new URL('../../../workers/cpu.worker.ts', import.meta.url), {
			type: 'module',
			name: 'cpu-engine'
		}) as unknown as CpuWorkerLike;
	const n_threads = opts.n_threads ?? cpuThreads(threadFactsHere()).threads;
	return new CpuEngine(spawn, { ...opts, n_threads });
}
