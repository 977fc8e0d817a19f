/**
 * What set-up will run and what it costs, worked out from the chosen engine's provider: its
 * context window (a server is asked, once its URL and model stop changing), whether generator and
 * judge share memory, what this device downloads, and the estimate. The set-up view renders it and
 * wires the three side effects (ask the server, refresh the cache badges, measure sizes) to
 * `$effect`s; every answer here is the provider's, never worked out again.
 */
import type {
	ClassroomModel,
	DeviceFacts,
	EngineHosts,
	EngineModels
} from '../engines/provider.ts';
import type { EngineKind } from '../engines/registry.ts';
import type { EngineProvider } from '../engines/provider.ts';
import type { ServerContextWindow } from '../engines/server/contextWindow.ts';
import type { ContextWindowState } from '../setup/contextFit.ts';
import {
	estimateRun,
	measuredSpeed,
	type Estimate,
	type EstimateInput,
	type ModelCost
} from '../setup/estimate.ts';
import { answerTokenLimit } from '../probe/runConfig.ts';
import type { RunFormValues } from '../setup/runForm.ts';
import {
	CLASSROOM_CONDITIONS,
	classroomValues,
	type ClassroomLabelling
} from '../setup/classroom.ts';
import type { DownloadSizes } from './downloadSizes.svelte.ts';
import type { ModelCacheState } from './modelCache.svelte.ts';
import type { EngineSettings } from './settings.svelte.ts';

/** How long the server URL and model must stay unchanged before the server is asked. */
export const SERVER_ASK_DELAY_MS = 400;

export interface SetupPlanDeps {
	settings: EngineSettings;
	/** What is known of this device now. */
	device: () => DeviceFacts;
	/** The run form's values now. */
	values: () => RunFormValues;
	/** Items the run will have (the form's n, capped by the dataset's size). */
	items: () => number;
	/** temperatures × perturbations × samples. */
	conditions: () => number;
	hosts: EngineHosts;
	cache: ModelCacheState;
	sizes: DownloadSizes;
	/** Stored benchmarks of this device, for a measured speed. */
	history: () => readonly {
		engine: string;
		model_id: string;
		created_at: string;
		results: Record<string, number>;
	}[];
	/** Tests shorten it. */
	askDelayMs?: number;
}

export class SetupPlan {
	readonly #deps: SetupPlanDeps;
	/** What the server says of its model's context (vLLM, llama-server); undefined: not told. */
	#told = $state.raw<ServerContextWindow | undefined>(undefined);
	/** The engine was asked and answered (or could not be asked): the note may say "not told". */
	#asked = $state(false);
	/** A server sweep's further models: what each was told; null: asked, not told. */
	#sweepTold = $state.raw<Record<string, ServerContextWindow | null>>({});

	constructor(deps: SetupPlanDeps) {
		this.#deps = deps;
	}

	get provider(): EngineProvider<EngineKind> {
		return this.#deps.settings.provider;
	}
	get #models(): EngineModels {
		return this.#deps.settings.chosen;
	}
	get judgeNeeded(): boolean {
		return this.#deps.values().judge_mode !== 'rules';
	}

	/** Known from the catalog, or told by the engine (a server) where it says. */
	get contextWindow(): number | undefined {
		return this.#models.knownContextWindow(this.#deps.device()) ?? this.#told?.tokens;
	}
	/** Where a told context window was read ("n_ctx in llama-server /props"). */
	get contextSource(): string | undefined {
		return this.#told?.source;
	}
	/** Whether the engine is asked for its context (a server, which may not tell). */
	get asksContext(): boolean {
		return this.provider.askContextWindow !== undefined;
	}
	/** Still waiting for the engine's answer. */
	get contextPending(): boolean {
		return this.asksContext && !this.#asked;
	}

	/** The catalog's word on thinking, before the template is read: true or unknown. */
	get thinkingHint(): true | null {
		return this.#models.thinking(this.#deps.device()) ? true : null;
	}

	/** Generator and judge take turns in memory (the provider's answer, as the engine's). */
	get phased(): boolean {
		return !this.#models.shareMemory(this.#deps.device(), this.judgeNeeded);
	}

	/** A model's size as the model mirror's index.json lists it, in MB; null: it does not. */
	listedMb(model: string): number | null {
		return this.#deps.settings.mirror.listedMb(model);
	}

	/** This device's downloads, with sizes measured here where the catalog lists none. */
	get downloads(): ModelCost[] {
		const { cache, sizes } = this.#deps;
		return this.#models.downloads(this.#deps.device(), this.judgeNeeded).map((m) => ({
			id: m.id,
			download_MB: m.download_MB ?? this.listedMb(m.id) ?? sizes.mb(m.id),
			cached: cache.cached[m.id]
		}));
	}

	get estimate(): Estimate {
		return estimateRun(this.estimateInput);
	}

	/** What the estimate is worked out from; a sweep's (sweepPlan.ts) swaps the models per run. */
	get estimateInput(): EstimateInput {
		const values = this.#deps.values();
		const device = this.#deps.device();
		return {
			items: this.#deps.items(),
			conditions: this.#deps.conditions(),
			judge_mode: values.judge_mode,
			guess_tps: this.provider.guessTps,
			models: this.downloads,
			measured: this.speedOf(this.#models.generatorId(device)),
			answer_max_tokens: answerTokenLimit(values, this.contextWindow),
			max_tokens: values.max_tokens,
			download_speed: this.#deps.sizes.speed
		};
	}

	/** This device's benchmarked speed of a model on this engine, when there is one. */
	speedOf(model: string): EstimateInput['measured'] {
		return measuredSpeed(this.#deps.history(), this.provider.runtime, model);
	}

	/** The classroom preset's model on this engine; null where the engine suggests none. */
	get classroom(): ClassroomModel | null {
		return this.#models.classroom?.(this.#deps.device()) ?? null;
	}

	/**
	 * What the classroom preset would cost here, before anything downloads: its one model (size
	 * measured here where the catalog lists none), and this device's benchmarked speed when there is
	 * one, else the engine's typical speed. null where the engine suggests no classroom model.
	 */
	classroomEstimate(labelling: ClassroomLabelling): Estimate | null {
		const model = this.classroom;
		if (!model) return null;
		const { cache, sizes } = this.#deps;
		const values = { ...this.#deps.values(), ...classroomValues(labelling) };
		return estimateRun({
			items: values.n,
			conditions: CLASSROOM_CONDITIONS,
			judge_mode: values.judge_mode,
			guess_tps: this.provider.guessTps,
			models: [
				{
					id: model.id,
					download_MB: model.download_MB ?? this.listedMb(model.id) ?? sizes.mb(model.id),
					cached: cache.cached[model.id]
				}
			],
			measured: this.speedOf(model.id),
			answer_max_tokens: answerTokenLimit(values, this.contextWindow),
			max_tokens: values.max_tokens,
			download_speed: this.#deps.sizes.speed
		});
	}

	/** A server sweeps over the models it serves; this device over its catalog and own models. */
	get canSweep(): boolean {
		return !this.provider.onDevice || this.#models.sweepGenerator !== undefined;
	}

	/**
	 * A model's context window as set-up knows it: the chosen generator's (catalog or told), or a
	 * server sweep's further model's as the server told it. The start asks the same provider
	 * function (launch.ts ownTemplate), so what set-up shows is what the run will use.
	 */
	windowOf(model: string): ContextWindowState {
		const device = this.#deps.device();
		const chosen = model === this.#models.generatorId(device);
		const known = chosen ? this.contextWindow : this.#sweepTold[model]?.tokens;
		if (known !== undefined) {
			return {
				state: 'known',
				tokens: known,
				source: chosen ? this.contextSource : this.#sweepTold[model]?.source
			};
		}
		if (!this.asksContext) return { state: 'not reported' };
		const pending = chosen ? this.contextPending : !(model in this.#sweepTold);
		return pending ? { state: 'asking' } : { state: 'not reported' };
	}

	/**
	 * Ask the engine for the generator's context window once the connection and model have stayed
	 * unchanged for a moment; a server that does not say stays unknown.
	 * @returns the cleanup that cancels a pending or running ask (call it on any change).
	 */
	askContextWindow(): () => void {
		const model = this.#models.generatorId(this.#deps.device());
		this.#told = undefined;
		this.#asked = false;
		return this.#ask([model], (_, found) => {
			this.#told = found ?? undefined;
			this.#asked = true;
		});
	}

	/**
	 * Ask a server for each further model of a sweep (the chosen one is asked above), once the list
	 * has stayed unchanged for a moment; one at a time, as the start does.
	 * @returns the cleanup that cancels the asks (call it on any change).
	 */
	askSweepWindows(models: readonly string[]): () => void {
		const chosen = this.#models.generatorId(this.#deps.device());
		// Built here, never read back from state: the view calls this in an $effect, which would
		// otherwise depend on what it writes and run again.
		let told: Record<string, ServerContextWindow | null> = {};
		this.#sweepTold = told;
		return this.#ask(
			models.filter((m) => m !== chosen),
			(model, found) => (this.#sweepTold = told = { ...told, [model]: found })
		);
	}

	/**
	 * Ask the provider for each model's window after the settle delay; `told` gets null for a model
	 * the engine does not tell (or cannot be asked about). Answers after the cleanup are dropped.
	 */
	#ask(
		models: readonly string[],
		told: (model: string, found: ServerContextWindow | null) => void
	) {
		const { settings, hosts } = this.#deps;
		const conn = settings.connection();
		const ask = this.provider.askContextWindow;
		const wanted = models.filter(Boolean);
		if (!ask || !conn.base_url || wanted.length === 0) {
			for (const m of models) told(m, null);
			return () => {};
		}
		const ctrl = new AbortController();
		const timer = setTimeout(async () => {
			for (const model of wanted) {
				let found: ServerContextWindow | undefined;
				try {
					found = await ask(hosts, conn, model, ctrl.signal);
				} catch {
					// Not a URL yet (set-up lists that problem), or the ask was cancelled.
				}
				if (ctrl.signal.aborted) return;
				told(model, found ?? null);
			}
		}, this.#deps.askDelayMs ?? SERVER_ASK_DELAY_MS);
		return () => {
			clearTimeout(timer);
			ctrl.abort();
		};
	}

	/**
	 * Ask this device's engine which offered models (and a sweep's `extra` ones) are cached, for
	 * the badges and the estimate. Only where the engine can run here: asking starts its worker.
	 */
	refreshCached(extra: readonly string[] = []): void {
		const device = this.#deps.device();
		const local = this.provider.device;
		if (!local || device.checked === false || this.provider.unavailable(device)) return;
		const ids = [...this.#models.cacheIds(device, this.judgeNeeded), ...extra];
		if (ids.length === 0) return;
		const { hosts, cache } = this.#deps;
		void cache.refresh(ids, (id) => local(hosts).isCached(id));
	}

	/** A cached model's files are listed once: their total is its download size from then on. */
	measureSizes(): void {
		const { sizes, cache, hosts } = this.#deps;
		const todo = sizes.missing(cache.cached);
		const engine = todo.length > 0 ? this.provider.device?.(hosts) : undefined;
		const bytes = engine?.cachedBytes?.bind(engine);
		if (!bytes) return;
		void (async () => {
			for (const id of todo) {
				try {
					sizes.record(id, await bytes(id));
				} catch {
					// Unknown stays unknown: the picker says so.
				}
			}
		})();
	}
}
