/**
 * What this device can do, for the set-up view: WebGPU and shader-f16 (from probeGpu), and how
 * much storage the browser grants, with the persist() request that keeps models from eviction.
 * Checked on demand, never at import time; the probes are injected so tests pass fakes.
 */
import { errorText } from '../errors/describe.ts';
import type { GpuReport } from '../engines/webgpu/gpu.ts';

export interface StorageLike {
	estimate(): Promise<{ usage?: number; quota?: number }>;
	persisted?(): Promise<boolean>;
	persist?(): Promise<boolean>;
}

export interface EnvironmentDeps {
	probeGpu: () => Promise<GpuReport>;
	storage?: StorageLike;
}

export interface StorageInfo {
	usage_bytes?: number;
	quota_bytes?: number;
	/** null: the browser cannot tell or has no persist API. */
	persisted: boolean | null;
}

export class Environment {
	#deps: EnvironmentDeps;
	#gpu = $state.raw<GpuReport | null>(null);
	#storage = $state.raw<StorageInfo | null>(null);
	#checking = $state(false);
	#checked: Promise<void> | null = null;

	constructor(deps: EnvironmentDeps) {
		this.#deps = deps;
	}

	get gpu(): GpuReport | null {
		return this.#gpu;
	}
	get storage(): StorageInfo | null {
		return this.#storage;
	}
	get checking(): boolean {
		return this.#checking;
	}
	/** Until the check finishes we assume f16 is absent, so nothing picks a variant that can't run. */
	get shaderF16(): boolean {
		return this.#gpu?.shader_f16 === true;
	}
	/** WebGPU with an adapter: in-browser models can at least try to run. */
	get canRunModels(): boolean {
		return this.#gpu?.webgpu === true && this.#gpu.adapter !== undefined;
	}

	/** Probe once; later calls share the first probe. Never rejects. */
	check(): Promise<void> {
		this.#checked ??= this.#probe();
		return this.#checked;
	}

	/**
	 * The check, or `ms` of waiting, whichever ends first: a view may wait for the device before it
	 * shows, but a probe that hangs (a driver that never answers requestAdapter) must not hold it.
	 */
	checkWithin(ms: number): Promise<void> {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
		return Promise.race([this.check(), waited]).finally(() => clearTimeout(timer));
	}

	async #probe(): Promise<void> {
		this.#checking = true;
		try {
			this.#gpu = await this.#deps.probeGpu().catch((err: unknown): GpuReport => ({
				webgpu: false,
				shader_f16: false,
				limits: {},
				reason: `Checking WebGPU failed: ${errorText(err)}`
			}));
			await this.#readStorage();
		} finally {
			this.#checking = false;
		}
	}

	async #readStorage(): Promise<void> {
		const s = this.#deps.storage;
		if (!s) {
			this.#storage = { persisted: null };
			return;
		}
		try {
			const [est, persisted] = await Promise.all([
				s.estimate(),
				s.persisted ? s.persisted() : Promise.resolve(null)
			]);
			this.#storage = { usage_bytes: est.usage, quota_bytes: est.quota, persisted };
		} catch {
			this.#storage = { persisted: null };
		}
	}

	/** Ask the browser not to evict our storage (models, runs). Returns whether it agreed. */
	async requestPersist(): Promise<boolean> {
		const granted = (await this.#deps.storage?.persist?.().catch(() => false)) ?? false;
		this.#storage = { ...(this.#storage ?? {}), persisted: granted };
		return granted;
	}
}
