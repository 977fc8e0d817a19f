/**
 * "Benchmark this device" as UI state: runs src/lib/bench/device.ts, keeps its progress and result,
 * stores each result in the `benchmarks` table and lists earlier ones. Mount DeviceBench.svelte
 * with an instance of this class.
 */
import { benchmarkDevice } from '../bench/device.ts';
import type { DeviceBenchProgress, DeviceBenchResult } from '../bench/device.ts';
import type { FigureSource } from '../bench/timing.ts';
import type { BenchmarkStore } from '../db/benchmarks.ts';
import type { BenchmarkRow } from '../db/schema.ts';
import { probeGpu } from '../engines/webgpu/gpu.ts';
import type { GpuReport } from '../engines/webgpu/gpu.ts';
import { describeError, type ErrorDescription } from '../errors/describe.ts';
import type { Engine } from '../probe/engine.ts';
import type { ChatTemplate } from '../probe/template.ts';

/** What to benchmark: the set-up view has all three once a model is chosen. */
export interface DeviceBenchRequest {
	engine: Engine;
	model: string;
	/** The model's own chat template (the probe records are rendered with it). */
	template: ChatTemplate;
	/** The engine's own report once loaded (DeviceEngine.facts), stored with the device. */
	facts?: () => Promise<Record<string, string>>;
}

/**
 * The request, or a function that prepares it when the button is pressed: so mounting the
 * component neither starts the engine's worker nor fetches a template.
 */
export type DeviceBenchSource = DeviceBenchRequest | (() => Promise<DeviceBenchRequest>);

export type DeviceBenchStatus = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

export type DeviceBenchFailure = ErrorDescription;

/** A stored benchmark, or the one just measured (which also knows where each figure came from). */
export type BenchmarkEntry = Omit<BenchmarkRow, 'id'> & {
	id?: number;
	sources?: Record<string, FigureSource>;
};

export interface DeviceBenchDeps {
	/** Where results are kept. */
	store: BenchmarkStore;
	/** Describes the GPU; defaults to WebGPU's adapter info (tests pass a fake). */
	gpu?: () => Promise<GpuReport>;
	/** How many earlier results the history shows. */
	historyLimit?: number;
}

const HISTORY_LIMIT = 20;

/** The adapter as flat strings, the shape BenchmarkRow.device stores. */
export function describeDevice(report: GpuReport): Record<string, string> {
	const out: Record<string, string> = {
		webgpu: String(report.webgpu),
		shader_f16: String(report.shader_f16)
	};
	if (report.adapter) {
		const { fallback, ...info } = report.adapter;
		for (const [k, v] of Object.entries(info)) if (v) out[k] = v;
		out.fallback = String(fallback);
	}
	return out;
}

/** What the "copy as JSON" button copies: everything but the raw per-request samples. */
export function shareJson(entry: BenchmarkEntry): string {
	const { id: _id, ...rest } = entry;
	return JSON.stringify({ kind: 'user-turn-probe/device-benchmark', ...rest }, null, 2);
}

export class DeviceBench {
	#status = $state<DeviceBenchStatus>('idle');
	#progress = $state.raw<DeviceBenchProgress | null>(null);
	#result = $state.raw<BenchmarkEntry | null>(null);
	#history = $state.raw<BenchmarkEntry[]>([]);
	#error = $state.raw<DeviceBenchFailure | null>(null);
	#abort: AbortController | null = null;
	readonly #deps: DeviceBenchDeps;

	constructor(deps: DeviceBenchDeps) {
		this.#deps = deps;
	}

	get status(): DeviceBenchStatus {
		return this.#status;
	}
	get progress(): DeviceBenchProgress | null {
		return this.#progress;
	}
	/** The latest result of this session (stored as soon as it exists). */
	get result(): BenchmarkEntry | null {
		return this.#result;
	}
	/** Stored results, newest first. */
	get history(): BenchmarkEntry[] {
		return this.#history;
	}
	get error(): DeviceBenchFailure | null {
		return this.#error;
	}

	/** Reads stored results; call once when the view mounts. */
	async loadHistory(): Promise<void> {
		this.#history = await this.#deps.store.latest(this.#deps.historyLimit ?? HISTORY_LIMIT);
	}

	/**
	 * Prepares the request if given a function, runs the benchmark and stores its result.
	 * Never rejects: failures (a template that will not load, an engine error) land in `error`.
	 * A second call while one runs is ignored.
	 */
	async run(source: DeviceBenchSource): Promise<void> {
		if (this.#status === 'running') return;
		const abort = new AbortController();
		this.#abort = abort;
		this.#status = 'running';
		this.#error = null;
		this.#progress = null;
		try {
			const req = typeof source === 'function' ? await source() : source;
			const gpu = await (this.#deps.gpu ?? probeGpu)();
			const result = await benchmarkDevice({
				engine: req.engine,
				model: req.model,
				template: req.template,
				device: describeDevice(gpu),
				signal: abort.signal,
				onProgress: (p) => (this.#progress = p)
			});
			const row = toRow(result);
			const facts = await req.facts?.().catch(() => ({}));
			if (facts && Object.keys(facts).length > 0) row.device = { ...row.device, ...facts };
			const id = await this.#deps.store.add(row);
			this.#result = { ...row, id, sources: result.sources };
			this.#status = 'done';
			await this.loadHistory();
		} catch (err) {
			if (abort.signal.aborted) {
				this.#status = 'cancelled';
			} else {
				this.#error = describeError(err);
				this.#status = 'failed';
			}
		} finally {
			if (this.#abort === abort) this.#abort = null;
		}
	}

	cancel(): void {
		this.#abort?.abort();
	}
}

function toRow(r: DeviceBenchResult): Omit<BenchmarkRow, 'id'> {
	const row: Omit<BenchmarkRow, 'id'> = {
		created_at: r.created_at,
		model_id: r.model_id,
		engine: r.engine,
		results: r.results
	};
	if (r.device) row.device = r.device;
	return row;
}
