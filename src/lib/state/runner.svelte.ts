/**
 * The tab's run controller: it drives runProbe and turns its events into rune state for the live
 * run view. One controller per tab (`runner`), and one run at a time: the device has one GPU and a
 * second run would only fight the first for it.
 *
 * Stopping, by design:
 * - pause(): abort; the pipeline marks the run paused; models stay loaded so Resume starts at once.
 * - cancel(): the same abort and the same "paused" status (nothing stored is thrown away, the run
 *   can still be resumed or deleted from Runs), but the models are unloaded to free the GPU.
 * - a fatal error: the pipeline marks the run paused when resuming can help (device lost,
 *   network, retryable), failed otherwise; the error's recovery text is shown either way.
 *
 * Rare events (plan, phase, loads, errors) change state at once. The streaming ones (tokens,
 * stages, labels, records, progress) are folded into plain data as they come and committed to
 * rune state at most once per animation frame, and no more often than COMMIT_INTERVAL_MS (or
 * PARALLEL_COMMIT_INTERVAL_MS with several requests in flight): a server with no token delay
 * sends hundreds of events a frame, and re-rendering per event made main-thread tasks of 100 ms
 * and more on a busy machine.
 */
import type { Engine } from '../probe/engine.ts';
import type { ProbeEvent, ProbeEventOf } from '../probe/events.ts';
import type { ProbeContext, runProbe as RunProbe } from '../probe/pipeline.ts';
import type { RunStore } from '../probe/store.ts';
import type { ChatTemplate } from '../probe/template.ts';
import type { ProbeConfig, ProbeRecord } from '../probe/types.ts';
import type { Tally } from '../stats/aggregate.ts';
import { storageFullAdvice, type StorageEstimateLike } from '../display/storageFull.ts';
import type { DownloadSample } from '../setup/downloadSpeed.ts';
import { FrameBatch, nextFrame, type Schedule } from '../live/frameBatch.ts';
import type { LabelTally } from '../live/labelTally.ts';
import { ModelLoads, type ModelLoad } from '../live/modelLoads.ts';
import type { ConversationFold, LiveConversation } from '../live/liveConversation.ts';
import { nlpWarning, RunActiveError, startError, type RunErrorView } from '../live/runErrors.ts';
import { StallWatch, type ServerWait } from './stallWatch.svelte.ts';

export { errorHeading, RunActiveError, type RunErrorView } from '../live/runErrors.ts';
export type { ServerWait } from './stallWatch.svelte.ts';
export type { ModelLoad } from '../live/modelLoads.ts';

export type RunPhase = 'idle' | 'starting' | 'running' | 'stopping' | 'paused' | 'done' | 'failed';

/** Why the run stopped, passed to RunSetup.release. */
export type StopReason = 'done' | 'pause' | 'cancel' | 'fatal';

export interface RunSetup {
	engine: Engine;
	judge: Engine;
	template: ChatTemplate;
	manifestExtras?: ProbeContext['manifestExtras'];
	/** NLTK's English data for IFBench's sentence- and tag-based instructions, or why it is missing. */
	nlp?: ProbeContext['nlp'];
	/** Called once when the run stops, e.g. to unload models on cancel or drop a lost device. */
	release?: (why: StopReason, error?: unknown) => void | Promise<void>;
}

export interface RunStart {
	config: ProbeConfig;
	store: RunStore;
	/** Builds engines and template; errors here fail the start without touching stored work. */
	prepare: (signal: AbortSignal) => Promise<RunSetup>;
	appVersion?: string;
	now?: () => number;
	timestamp?: () => string;
	/**
	 * A new run's only: when it stops on a fatal error without being asked to (its models never
	 * loaded: Hugging Face blocked, offline), remove it if it made nothing, so no empty paused run
	 * is left in Runs. Resolves whether it was removed.
	 */
	discardIfEmpty?: () => Promise<boolean>;
}

/** What the `plan` event says the run will make. */
export type RunPlan = Omit<ProbeEventOf<'plan'>, 'type'>;

/** The latest `progress` event's counts. */
export type RunProgress = Omit<ProbeEventOf<'progress'>, 'type'>;

/** Recent user turns kept for the live list; the full set is in the store. */
const RECENT_MAX = 8;
/** Streamed state shows at most this often: 20 frames a second is smooth for text. */
const COMMIT_INTERVAL_MS = 50;
/**
 * With several requests in flight (a server) turns go by faster than anyone reads them: five
 * commits a second keep the view moving for a quarter of the frames. On the bench's server run
 * (620 turns, 6 in flight, four interleaved pairs) Chromium spent 11.6–12.4 s of CPU instead of
 * 13.2–13.6 s, and the run took 8.6–9.1 s instead of 9.0–9.3 s (docs/testing.md).
 */
const PARALLEL_COMMIT_INTERVAL_MS = 200;

export interface RunControllerOptions {
	/** When to commit streamed state; defaults to the next animation frame. Tests inject one. */
	schedule?: Schedule;
	/** Silence after which the run view says it is waiting for the server (default 10 s). */
	stallMs?: number;
	/** navigator.storage, to say what fills it when a run stops on a full disk. Tests inject one. */
	storage?: { estimate(): Promise<StorageEstimateLike> };
	/** A model download long enough to measure its speed, for the next estimate. */
	onDownload?: (sample: DownloadSample) => void;
}

export class RunController {
	#runId = $state<string | null>(null);
	#phase = $state<RunPhase>('idle');
	#stage = $state<'generate' | 'judge' | null>(null);
	#plan = $state.raw<RunPlan | null>(null);
	#progress = $state.raw<RunProgress | null>(null);
	#loads = $state.raw<ModelLoad[]>([]);
	#current = $state.raw<LiveConversation | null>(null);
	#recent = $state.raw<ProbeRecord[]>([]);
	/** Null until a run's first count (the counting code loads with the run, as the core does). */
	#tally = $state.raw<Tally | null>(null);
	#errors = $state.raw<RunErrorView[]>([]);
	readonly #loadBars: ModelLoads;

	#labels: LabelTally | null = null;
	/** Plain working state behind the streamed fields; #commit publishes it. */
	/** Null until a run starts: the folding code loads with the run (see #run). */
	#fold: ConversationFold | null = null;
	#nextProgress: RunProgress | null = null;
	#nextRecent: ProbeRecord[] = [];
	#tallyChanged = false;
	readonly #batch: FrameBatch;
	readonly #storage?: { estimate(): Promise<StorageEstimateLike> };
	readonly #stalls: StallWatch;
	#abort: AbortController | null = null;
	#stopRequest: 'pause' | 'cancel' | null = null;
	#finished: Promise<void> = Promise.resolve();
	#discarded = $state(false);

	/** The least time between commits of streamed state, for the run under way. */
	get commitIntervalMs(): number {
		return this.#batch.minIntervalMs;
	}

	constructor(options: RunControllerOptions = {}) {
		this.#batch = new FrameBatch(() => this.#commit(), {
			schedule: options.schedule ?? nextFrame,
			minIntervalMs: COMMIT_INTERVAL_MS
		});
		this.#stalls = new StallWatch(options.stallMs);
		this.#loadBars = new ModelLoads(options.onDownload);
		this.#storage =
			options.storage ??
			(globalThis as { navigator?: { storage?: RunControllerOptions['storage'] } }).navigator
				?.storage;
	}

	get runId(): string | null {
		return this.#runId;
	}
	get phase(): RunPhase {
		return this.#phase;
	}
	/** starting, running or stopping: the engine is busy and no other run may start. */
	get active(): boolean {
		return this.#phase === 'starting' || this.#phase === 'running' || this.#phase === 'stopping';
	}
	get stage(): 'generate' | 'judge' | null {
		return this.#stage;
	}
	get plan(): RunPlan | null {
		return this.#plan;
	}
	get progress(): RunProgress | null {
		return this.#progress;
	}
	get loads(): ModelLoad[] {
		return this.#loads;
	}
	get current(): LiveConversation | null {
		return this.#current;
	}
	get recent(): ProbeRecord[] {
		return this.#recent;
	}
	/** The records stored so far, counted as the results count them (live/labelTally.ts). */
	get tally(): Tally | null {
		return this.#tally;
	}
	get errors(): RunErrorView[] {
		return this.#errors;
	}
	/**
	 * Set while a running run hears nothing from the engine for a while, or the engine is retrying
	 * a failed request: the view says "waiting for the server…" instead of a frozen ETA.
	 */
	get waiting(): ServerWait | null {
		return this.#stalls.waiting;
	}
	/** The fatal error that stopped the run, if any. */
	get fatal(): RunErrorView | undefined {
		return this.#errors.find((e) => e.fatal);
	}
	/** Resolves when the current run has stopped (any way). Never rejects. */
	/** The run failed to start and, having made nothing, was removed: it is not stored. */
	get discarded(): boolean {
		return this.#discarded;
	}

	get finished(): Promise<void> {
		return this.#finished;
	}

	/**
	 * Start (or resume: the same config skips every stored key) a run. Returns when it stops.
	 * @throws RunActiveError at once when a run is already active in this tab.
	 */
	start(req: RunStart): Promise<void> {
		if (this.active) throw new RunActiveError(this.#runId ?? '?');
		this.#reset(req.config);
		this.#finished = this.#run(req);
		return this.#finished;
	}

	/** Stop after the request in flight; stored work stays, Resume continues it. */
	pause(): void {
		this.#stop('pause');
	}

	/** Stop like pause, and unload the models (see the file comment). */
	cancel(): void {
		this.#stop('cancel');
	}

	#stop(why: 'pause' | 'cancel'): void {
		if (!this.active || !this.#abort) return;
		this.#stopRequest ??= why;
		this.#phase = 'stopping';
		this.#abort.abort();
	}

	#reset(config: ProbeConfig): void {
		this.#runId = config.run_id;
		this.#phase = 'starting';
		this.#stage = null;
		this.#plan = null;
		this.#progress = null;
		this.#loads = [];
		this.#current = null;
		this.#recent = [];
		this.#tally = null;
		this.#errors = [];
		this.#labels = null;
		this.#fold = null;
		this.#nextProgress = null;
		this.#nextRecent = [];
		this.#tallyChanged = false;
		this.#stopRequest = null;
		this.#discarded = false;
		this.#abort = new AbortController();
	}

	async #run(req: RunStart): Promise<void> {
		const signal = (this.#abort ?? new AbortController()).signal;
		let setup: RunSetup;
		let runProbe: typeof RunProbe;
		try {
			// The probe core and the results' counting load with the first run, not with the views
			// that only hold the runner (set-up's first paint).
			const [pipeline, live, fold] = await Promise.all([
				import('../probe/pipeline.ts'),
				import('../live/labelTally.ts'),
				import('../live/liveConversation.ts')
			]);
			runProbe = pipeline.runProbe;
			this.#labels = new live.LabelTally();
			this.#fold = new fold.ConversationFold(fold.indexItems(req.config.items));
			for (const r of await req.store.getRecords(req.config.run_id)) this.#count(r);
			this.#publishTally();
			setup = await req.prepare(signal);
		} catch (err) {
			if (!signal.aborted) {
				this.#pushError(startError(err));
				await this.#discardIfEmpty(req);
			}
			this.#phase = signal.aborted ? 'paused' : 'failed';
			return;
		}
		if (signal.aborted) {
			this.#phase = 'paused';
			await this.#release(setup, this.#stopRequest ?? 'pause');
			return;
		}
		if (setup.nlp && 'unavailable' in setup.nlp) this.#pushError(nlpWarning(setup.nlp.unavailable));
		this.#phase = 'running';
		this.#stalls.start();
		let fatal: unknown = null;
		try {
			for await (const e of runProbe(req.config, {
				engine: setup.engine,
				judge: setup.judge,
				store: req.store,
				template: setup.template,
				signal,
				now: req.now,
				timestamp: req.timestamp,
				appVersion: req.appVersion,
				manifestExtras: setup.manifestExtras,
				nlp: setup.nlp
			})) {
				this.#apply(e);
			}
		} catch (err) {
			// runProbe reports failures as events; this is a bug or a store failure.
			fatal = err;
			this.#pushError(startError(err));
		}
		// The last frame's worth of events shows before the run reports that it stopped.
		this.#batch.flush();
		this.#stalls.stop();
		await this.#explainStorageFull();
		const fatalEvent = this.fatal;
		if (!this.#stopRequest && (fatal || fatalEvent)) await this.#discardIfEmpty(req);
		const stored = this.#discarded
			? undefined
			: await req.store.getManifest(req.config.run_id).catch(() => undefined);
		if (this.#stopRequest) this.#phase = 'paused';
		else if (fatal || fatalEvent) this.#phase = stored?.status === 'paused' ? 'paused' : 'failed';
		else this.#phase = 'done';
		const why: StopReason = this.#stopRequest ?? (fatal || fatalEvent ? 'fatal' : 'done');
		await this.#release(setup, why, fatal ?? fatalEvent);
	}

	async #discardIfEmpty(req: RunStart): Promise<void> {
		// Best effort: a run that could not be removed stays listed, as before.
		this.#discarded = (await req.discardIfEmpty?.().catch(() => false)) ?? false;
	}

	async #release(setup: RunSetup, why: StopReason, error?: unknown): Promise<void> {
		try {
			await setup.release?.(why, error);
		} catch {
			// Releasing is best effort: the run's state is already stored.
		}
	}

	#apply(e: ProbeEvent): void {
		this.#stalls.heard(e);
		switch (e.type) {
			case 'plan': {
				const { type: _type, ...plan } = e;
				this.#plan = plan;
				this.#batch.minIntervalMs =
					e.concurrency > 1 ? PARALLEL_COMMIT_INTERVAL_MS : COMMIT_INTERVAL_MS;
				this.#nextProgress = {
					done: e.already_done,
					generated: this.#labels?.stored ?? 0,
					total: e.total,
					elapsed_ms: 0,
					eta_ms: null,
					decode_tps: null
				};
				this.#batch.request();
				return;
			}
			case 'phase':
				this.#stage = e.phase;
				return;
			case 'loading':
			case 'loaded':
				this.#loads = this.#loadBars.apply(this.#loads, e);
				return;
			case 'answer':
				// Its cut leaves its probes out of the rate, as in the results (resultsTable.ts).
				this.#labels?.answer(e.answer);
				this.#tallyChanged = true;
				this.#fold?.apply(e);
				this.#batch.request();
				return;
			case 'token':
			case 'stage':
			case 'user_turn':
			case 'judged':
			case 'retry':
				this.#fold?.apply(e);
				this.#batch.request();
				return;
			case 'record': {
				const r = e.record;
				this.#fold?.apply(e);
				this.#count(r);
				this.#tallyChanged = true;
				const others = this.#nextRecent.filter((x) => x.key !== r.key);
				this.#nextRecent = [r, ...others].slice(0, RECENT_MAX);
				this.#batch.request();
				return;
			}
			case 'progress': {
				const { type: _type, ...progress } = e;
				this.#nextProgress = progress;
				this.#batch.request();
				return;
			}
			case 'error':
				this.#pushError({
					stage: e.stage,
					name: e.name,
					message: e.message,
					recovery: e.recovery,
					fatal: e.fatal,
					key: e.key
				});
				return;
			default:
				return;
		}
	}

	/** Publish the streamed state: one assignment per field, so one re-render per frame. */
	#commit(): void {
		this.#current = this.#fold?.current ?? null;
		this.#progress = this.#nextProgress;
		this.#recent = this.#nextRecent;
		if (this.#tallyChanged) {
			this.#tallyChanged = false;
			this.#publishTally();
		}
	}

	#count(r: ProbeRecord): void {
		this.#labels?.add(r);
	}

	#publishTally(): void {
		if (this.#labels) this.#tally = this.#labels.snapshot();
	}

	/** A run stopped by a full disk: say what takes the space, what is free, what to delete. */
	async #explainStorageFull(): Promise<void> {
		const i = this.#errors.findIndex((e) => e.fatal && e.name === 'QuotaExceededError');
		if (i < 0) return;
		const estimate = await this.#storage?.estimate().catch(() => undefined);
		const errors = [...this.#errors];
		errors[i] = { ...errors[i], ...storageFullAdvice(estimate) };
		this.#errors = errors;
	}

	#pushError(e: RunErrorView): void {
		this.#errors = [...this.#errors, e];
	}
}
