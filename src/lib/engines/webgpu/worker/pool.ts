/**
 * The models resident in the engine worker, one web-llm MLCEngine per model, so a load changes
 * only what it must: a judge that stays between sweep runs (or beside each generator) is never
 * reloaded when the generator changes.
 *
 * Why one engine per model (web-llm 0.2.86, lib/index.js):
 * - `MLCEngine.reload(ids)` starts with `this.unload()`, which disposes every pipeline the engine
 *   holds; it cannot add or swap one model. Two models in one engine are freed together.
 * - Each model is already self-contained: `reloadInternal` instantiates its own TVM wasm and calls
 *   `detectGPUDevice()`, which requests a fresh adapter and GPUDevice for that model alone. So a
 *   second MLCEngine costs no extra device or memory beyond the model it holds (its constructor
 *   allocates only small JS objects), and co-loading [gen, judge] in one engine already meant two
 *   devices.
 * - Downloads go through the Cache API / IndexedDB by name ("webllm/model", …), shared by every
 *   engine in the origin, so a model cached by one engine is a cache hit for another.
 * - `interruptGenerate()` and the device-lost flag are per engine: stopping the generator's
 *   stream does not touch the judge's engine.
 */
import type { AppConfig, InitProgressReport } from '@mlc-ai/web-llm';
import type { WebLLMSurface } from './handler.ts';

export type EngineFactory = () => WebLLMSurface;

interface Slot {
	engine: WebLLMSurface;
	/** The model's record as loaded: a model whose record changed (a fixed custom model) reloads. */
	record: string;
}

export interface PoolLoadOptions {
	/** Each report of the model being loaded, tagged with its model (web-llm's never names it). */
	onReport: (model: string, report: InitProgressReport) => void;
	/** Read between models and after each: an aborted load starts nothing more. */
	aborted: () => boolean;
	/**
	 * Checks a model web-llm has just loaded (its files from a model mirror, mirrorCheck.ts); a
	 * throw frees it again and fails the load, as web-llm's own failure would.
	 */
	verify?: (model: string) => Promise<void>;
}

/** web-llm errors after which a model is gone from its engine (device lost, or already freed). */
const GONE_ERRORS: ReadonlySet<string> = new Set(['DeviceLostError', 'ModelNotLoadedError']);

export class EnginePool {
	readonly #newEngine: EngineFactory;
	/** In the order the last load asked for them; a Map keeps insertion order. */
	readonly #slots = new Map<string, Slot>();
	/** The engines reloading now: an abort unloads them, which makes web-llm's reload return. */
	readonly #loading = new Set<WebLLMSurface>();
	#appConfig?: AppConfig;
	/** Answers requests for a model nobody holds, so web-llm raises its own error text. */
	#idle?: WebLLMSurface;

	constructor(newEngine: EngineFactory) {
		this.#newEngine = newEngine;
	}

	/** Models resident now, in the order the last load asked for them. */
	get resident(): string[] {
		return [...this.#slots.keys()];
	}

	/** The list every engine (present and future) looks models up in. */
	setAppConfig(appConfig: AppConfig): void {
		this.#appConfig = appConfig;
		for (const { engine } of this.#slots.values()) engine.setAppConfig?.(appConfig);
	}

	/**
	 * Make exactly `models` resident. Models already resident with the same record stay untouched;
	 * the others are freed first (their memory goes before new weights arrive), then each missing
	 * model loads into an engine of its own, in order.
	 *
	 * All or nothing for what this load adds: on an error or an abort, the models it loaded are
	 * freed again, and only the kept ones stay, so `resident` is always what is on the GPU.
	 * @throws what web-llm threw for the model that failed.
	 */
	async load(models: string[], opts: PoolLoadOptions): Promise<void> {
		const wanted = [...new Set(models)];
		const kept = this.keeps(wanted);
		for (const model of [...this.#slots.keys()]) {
			if (!kept.includes(model)) await this.#free(model);
		}
		const added: string[] = [];
		try {
			for (const model of wanted) {
				if (kept.includes(model) || opts.aborted()) continue;
				await this.#loadOne(model, opts);
				added.push(model);
			}
		} catch (err) {
			await this.#freeQuietly(added);
			throw err;
		}
		if (opts.aborted()) await this.#freeQuietly(added);
		// Resident in the order asked for (generator first), as a single reload would list them.
		for (const model of wanted) {
			const slot = this.#slots.get(model);
			if (!slot) continue;
			this.#slots.delete(model);
			this.#slots.set(model, slot);
		}
	}

	/** Which of `models` a load would keep: resident now, with the record they were loaded with. */
	keeps(models: string[]): string[] {
		return models.filter((m) => this.#slots.get(m)?.record === this.#recordOf(m));
	}

	/** Free every model. Tries all; the first failure is rethrown and its model counts as resident. */
	async unload(): Promise<void> {
		let first: unknown;
		for (const model of [...this.#slots.keys()]) {
			await this.#free(model).catch((err: unknown) => {
				first ??= err;
			});
		}
		if (first !== undefined) throw first;
	}

	/** Cancel the load in flight: web-llm's unload() aborts its reload, which then returns. */
	abortLoad(): Promise<void> {
		return Promise.all([...this.#loading].map((e) => e.unload())).then(() => undefined);
	}

	/**
	 * The engine holding `model`. For a model nobody holds: the first resident engine, or an empty
	 * one, whose web-llm then says "not loaded" in its own words.
	 */
	engineFor(model: string | undefined): WebLLMSurface {
		const slot = (model && this.#slots.get(model)) || this.#slots.values().next().value;
		return slot?.engine ?? (this.#idle ??= this.#newEngine());
	}

	/**
	 * After a failed request: a model whose device was lost (web-llm unloads it itself) is no longer
	 * resident, so the next load reloads it instead of keeping a dead engine.
	 */
	noteFailure(model: string, err: unknown): void {
		if (err instanceof Error && GONE_ERRORS.has(err.name)) this.#slots.delete(model);
	}

	async #loadOne(model: string, opts: PoolLoadOptions): Promise<void> {
		const engine = this.#newEngine();
		if (this.#appConfig) engine.setAppConfig?.(this.#appConfig);
		engine.setInitProgressCallback((report) => opts.onReport(model, report));
		this.#loading.add(engine);
		try {
			await engine.reload([model]);
			if (!opts.aborted()) await opts.verify?.(model);
		} catch (err) {
			// A failed reload may leave part of the model (or a lost device) behind.
			await engine.unload().catch(() => {});
			throw err;
		} finally {
			this.#loading.delete(engine);
		}
		if (opts.aborted()) {
			// An aborted reload may resolve quietly with the model resident: leave nothing behind.
			await engine.unload().catch(() => {});
			return;
		}
		this.#slots.set(model, { engine, record: this.#recordOf(model) });
	}

	async #free(model: string): Promise<void> {
		const slot = this.#slots.get(model);
		if (!slot) return;
		await slot.engine.unload();
		this.#slots.delete(model);
	}

	async #freeQuietly(models: string[]): Promise<void> {
		for (const model of models) await this.#free(model).catch(() => {});
	}

	#recordOf(model: string): string {
		return JSON.stringify(this.#appConfig?.model_list.find((r) => r.model_id === model) ?? null);
	}
}
