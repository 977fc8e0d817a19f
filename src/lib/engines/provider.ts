/**
 * What an engine provider is: one record per kind of engine (WebGPU, CPU, server) that says
 * everything the app needs to offer, configure, estimate and start it. The registry
 * (registry.ts) lists them; views, state and the launch path ask a provider instead of comparing
 * kinds, so adding an engine is adding a provider (see the registry's note).
 */
import type { Engine } from '../probe/engine.ts';
import type { EngineError } from '../probe/engine.ts';
import type { ModelFingerprint } from '../probe/identity.ts';
import type { TemplateSpec } from '../probe/templateSource.ts';
import type { OpenAIEngine } from './server/client.ts';
import type { ServerContextWindow } from './server/contextWindow.ts';

/** What set-up knows of this device. `checked: false`: the GPU is still being probed. */
export interface DeviceFacts {
	canRunModels: boolean;
	shaderF16: boolean;
	checked?: boolean;
}

/** What choosing a model variant needs to know of the GPU. */
export type GpuFacts = Pick<DeviceFacts, 'shaderF16'>;

/** A value that survives reloads (the state layer backs it with rune state and localStorage). */
export interface Box<T> {
	current: T;
}

/** Makes a persisted Box under a key; providers keep their own settings through it. */
export type Persist = <T>(key: string, fallback: T) => Box<T>;

/** A model that must be downloaded to this device before it runs. */
export interface ModelDownload {
	id: string;
	/** null: the catalog does not list its size. */
	download_MB: number | null;
}

/** A generator a sweep on this device may add: the catalog's, or the user's own. */
export interface SweepOption extends ModelDownload {
	/** e.g. "Qwen2.5 0.5B Instruct · Q4_K_M". */
	label: string;
}

/** What one generator of a sweep on this device needs: its download and its own chat template. */
export interface SweepGenerator extends ModelDownload {
	/** Where its template comes from, as a single run of it would read it; null: nothing says. */
	template: TemplateSpec | null;
	/** Its context window when the catalog says. */
	context_window?: number;
}

/** The classroom preset's one small model on an engine, answering and judging. */
export interface ClassroomModel {
	/** The engine-specific id (what downloads and what a benchmark names). */
	id: string;
	/** e.g. "Qwen2.5 0.5B Instruct · q4f32_1". */
	label: string;
	/** null: the catalog does not list its size. */
	download_MB: number | null;
	/** An upper bound when the size is not listed: its GPU memory figure, which the weights fit in. */
	at_most_MB?: number;
	/** Choose it as generator and judge. */
	apply(): void;
}

/**
 * One engine's own settings: its model choices, in its own persisted fields. Every method reads
 * those fields, so a `$derived` over one follows the user's edits.
 */
export interface EngineModels {
	/** The generator's engine-specific id ('' when none is chosen). */
	generatorId(device: GpuFacts): string;
	judgeId(device: GpuFacts): string;
	/** The generator as the user picked it (catalog key, GGUF URL, served id). */
	pickedGenerator(): string;
	/** Where the template comes from when the user names no repo; null when nothing says. */
	defaultTemplate(device: GpuFacts): TemplateSpec | null;
	/** The repo shown as the template field's default ('' when none). */
	defaultTemplateRepo(device: GpuFacts): string;
	/** What blocks a start on this engine, worded for the person filling the form. */
	problems(device: DeviceFacts): string[];
	/** The generator's context window in tokens, when known without asking anything. */
	knownContextWindow(device: GpuFacts): number | undefined;
	/** The catalog's word on whether the generator thinks by default; null: it does not say. */
	thinking(device: GpuFacts): boolean | null;
	/** Models this device downloads for a run, generator first (none for a server). */
	downloads(device: GpuFacts, judgeNeeded: boolean): ModelDownload[];
	/** The ids the "cached" badges ask about (every option offered, or the chosen files). */
	cacheIds(device: GpuFacts, judgeNeeded: boolean): string[];
	/**
	 * Whether generator and judge stay in memory together; false: the run loads them in turn. The
	 * same rule the engine's `can_co_load` applies, so set-up and the run agree.
	 */
	shareMemory(device: GpuFacts, judgeNeeded: boolean): boolean;
	/** Whether these models stay in memory together: the rule the engine's `can_co_load` applies. */
	canCoLoad(models: string[]): boolean;
	/** The generators a sweep may add on this device; absent: a server (its own list). */
	sweepOptions?(device: GpuFacts): SweepOption[];
	/** Any generator id this engine loads (an option, or a typed GGUF URL); null: not one. */
	sweepGenerator?(id: string, device: GpuFacts): SweepGenerator | null;
	/** The classroom preset's model on this engine; absent or null: none to suggest (a server). */
	classroom?(device: GpuFacts): ClassroomModel | null;
}

/** An engine on this device behind its worker: the cache, and a way to let go of the memory. */
export interface DeviceEngine {
	readonly engine: Engine;
	/** The runtime's version (web-llm's the catalog is pinned to, or wllama's), for the manifest. */
	readonly version: string;
	/** Are the model's files already in the browser cache (no download needed)? */
	isCached(model: string): Promise<boolean>;
	/** Delete the model's files from the browser cache, where the engine can. */
	deleteCached?(model: string): Promise<void>;
	/** Bytes the model's files take in the cache, when the browser can tell. */
	cachedBytes?(model: string): Promise<number | undefined>;
	/**
	 * What the runtime reports about itself once a model is loaded, as flat strings (the CPU
	 * engine: the threads llama.cpp computes with); stored beside a device benchmark's figures.
	 */
	facts?(): Promise<Record<string, string>>;
	/** Free the memory but keep the worker (Cancel). */
	unload(): Promise<void>;
	/** Stop the worker; the engine is unusable afterwards. */
	dispose(): void;
}

/**
 * The long-lived engines the app's services make once, on first use. Creating one starts its
 * worker, which is the only place web-llm or wllama is imported (never the page's first bundle).
 */
export interface EngineHosts {
	/**
	 * The engine of this kind on this device, made on first use: creating it starts its worker.
	 * @throws Error for a kind that does not run on this device.
	 */
	device(kind: string): DeviceEngine;
	/** Drop a broken one (GPU device lost, worker crashed); the next use makes a new worker. */
	resetDevice(kind: string): void;
	/** @throws (rejects) EngineError('network') when the URL is not http(s). */
	serverEngine(baseUrl: string, apiKey?: string): Promise<OpenAIEngine>;
}

/** How to reach a server engine; ignored by the engines on this device. */
export interface Connection {
	base_url?: string;
	/** Used for requests only; never stored with a run. */
	api_key?: string;
}

/** What a run (or the playground, or the benchmark) gets from a provider. */
export interface OpenedEngine {
	engine: Engine;
	judge: Engine;
	/** The runtime's version for the manifest; undefined for a server (fingerprints say more). */
	version?: string;
	/** What identifies the models, for a run's identity (identity.ts). */
	fingerprints(ids: {
		generator: string;
		judge: string;
	}): Promise<{ generator?: ModelFingerprint; judge?: ModelFingerprint }>;
	/** The model ids a server serves (its /v1/models), which a start checks the chosen ones against. */
	listModels?(signal?: AbortSignal): Promise<string[]>;
	/** Called once when the run stops: unload on cancel, drop a broken engine. */
	release?(why: 'done' | 'pause' | 'cancel' | 'fatal', error?: unknown): Promise<void>;
}

export interface EngineProvider<K extends string = string, M extends EngineModels = EngineModels> {
	readonly kind: K;
	/** The choice as set-up offers it. */
	readonly label: string;
	/** One line under the choice. */
	readonly description: string;
	/**
	 * The runtime's name (Engine.name): written to run manifests and benchmarks. These were the
	 * kinds' names before the webgpu/cpu/server vocabulary, so stored values of either still read.
	 */
	readonly runtime: string;
	/**
	 * Runs on this device: downloads models, holds memory a run needs, has a cache. Otherwise it is
	 * reached over the network (a URL and maybe a key; resume asks for them again).
	 */
	readonly onDevice: boolean;
	/** Its models live in GPU memory (catalog VRAM figures, generator and judge taking turns). */
	readonly usesGpu: boolean;
	/** Typical decode speed in tokens/s, for the estimate before this device is benchmarked. */
	readonly guessTps: number;
	/**
	 * Its threads need a cross-origin isolated page: a first visit that is not yet reloads once, into
	 * the stored run, just before this engine starts (app/isolation.ts reloadToIsolate).
	 */
	threadsNeedIsolation?: boolean;
	/** Why this device cannot run it, or null when it can (or cannot know yet). */
	unavailable(device: DeviceFacts): EngineError | null;
	/** This engine's settings, kept under its own persisted keys. */
	models(persist: Persist): M;
	/** @throws (rejects) EngineError when it cannot be reached as configured (no server URL). */
	open(hosts: EngineHosts, conn: Connection): Promise<OpenedEngine>;
	/** The engine on this device behind its worker (cache badges, sizes, delete); none for a server. */
	device?(hosts: EngineHosts): DeviceEngine;
	/** Ask the engine for a model's context window (a server may tell it); absent: never asked. */
	askContextWindow?(
		hosts: EngineHosts,
		conn: Connection,
		model: string,
		signal: AbortSignal
	): Promise<ServerContextWindow | undefined>;
}
