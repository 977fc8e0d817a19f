/**
 * "Benchmark this device": load the chosen model, time a short prompt (prefill, decode, time to
 * first token), run a few probe-sized records through the real pipeline (records per minute), and
 * compare our wall-clock per request with the engine's own figures (our overhead). Pure: the engine,
 * the template, the clock and the GPU description are injected.
 */
import { AppError } from '../errors/appError.ts';
import { AbortError } from '../errors/appError.ts';
import type { Engine, LoadProgress } from '../probe/engine.ts';
import { runProbe } from '../probe/pipeline.ts';
import { MemoryStore } from '../probe/store.ts';
import { assistantPrompt, stopSequences, type ChatTemplate } from '../probe/template.ts';
import {
	benchConfig,
	benchRecordCount,
	SHORT_MAX_TOKENS,
	SHORT_PROMPT,
	SHORT_RUNS
} from './plan.ts';
import {
	figure,
	measuredDecodeTps,
	measuredPrefillTps,
	measuredTtftMs,
	median,
	overheadMs,
	TimingEngine,
	type FigureSource,
	type RequestSample
} from './timing.ts';

export interface DeviceBenchOptions {
	/** Any engine; in the app, web-llm on this device's GPU. */
	engine: Engine;
	model: string;
	/** The model's own chat template, as for a real run. */
	template: ChatTemplate;
	/** GPU adapter description (vendor, architecture, …) stored with the result. */
	device?: Record<string, string>;
	signal?: AbortSignal;
	/** Monotonic milliseconds (tests pin it). */
	now?: () => number;
	/** ISO time for created_at. */
	timestamp?: () => string;
	onProgress?: (p: DeviceBenchProgress) => void;
}

export type DeviceBenchStep = 'load' | 'short' | 'records';

export interface DeviceBenchProgress {
	step: DeviceBenchStep;
	/** Requests or records finished in this step, of `total`. */
	done: number;
	total: number;
	/** The engine's own report while loading. */
	load?: LoadProgress;
}

/** The shape the `benchmarks` table stores (without its id), plus how each number was obtained. */
export interface DeviceBenchResult {
	created_at: string;
	model_id: string;
	engine: string;
	device?: Record<string, string>;
	/**
	 * load_ms, ttft_ms, prefill_tps, decode_tps (short prompt, medians); records_per_minute,
	 * answer_ms, user_turn_ms (probe records); request_overhead_ms, record_overhead_ms (ours minus
	 * the engine's own time, only when the engine reports it).
	 */
	results: Record<string, number>;
	/** Per figure: read from the engine's usage, or measured with our clock. */
	sources: Record<string, FigureSource>;
	samples: RequestSample[];
}

/** The benchmark could not finish; `message` says why in plain words. */
export class DeviceBenchError extends AppError {
	constructor(message: string, options?: { cause?: unknown }) {
		super(message, { ...options, code: 'device_bench' });
		this.name = 'DeviceBenchError';
	}
}

/**
 * @throws AbortError when `signal` aborts; EngineError from loading or generating;
 * DeviceBenchError when the probe records fail.
 */
export async function benchmarkDevice(opts: DeviceBenchOptions): Promise<DeviceBenchResult> {
	const now = opts.now ?? (() => performance.now());
	const { signal, onProgress } = opts;
	const throwIfAborted = () => {
		if (signal?.aborted) throw new AbortError('The benchmark was cancelled.');
	};
	throwIfAborted();

	const t0 = now();
	onProgress?.({ step: 'load', done: 0, total: 1 });
	await opts.engine.load([opts.model], {
		signal,
		onProgress: (load) => onProgress?.({ step: 'load', done: 0, total: 1, load })
	});
	const loadMs = now() - t0;
	onProgress?.({ step: 'load', done: 1, total: 1 });

	const timed = new TimingEngine(opts.engine, [opts.model], now);
	const prompt = assistantPrompt(opts.template, [{ role: 'user', content: SHORT_PROMPT }]);
	const stop = stopSequences(opts.template);
	// One unmeasured warm-up: the first request compiles shaders and fills caches.
	for (let i = 0; i <= SHORT_RUNS; i++) {
		throwIfAborted();
		onProgress?.({ step: 'short', done: i, total: SHORT_RUNS + 1 });
		timed.kind = i === 0 ? 'warmup' : 'short';
		await timed.complete({
			model: opts.model,
			prompt,
			temperature: 0,
			top_p: 1,
			seed: 0,
			max_tokens: SHORT_MAX_TOKENS,
			stop,
			signal
		});
	}
	onProgress?.({ step: 'short', done: SHORT_RUNS + 1, total: SHORT_RUNS + 1 });

	const config = benchConfig(opts.model);
	const records = await runRecords(timed, config, opts, now);
	return summarize(timed.samples, records, loadMs, opts);
}

async function runRecords(
	timed: TimingEngine,
	config: ReturnType<typeof benchConfig>,
	opts: DeviceBenchOptions,
	now: () => number
): Promise<{ count: number; ms: number }> {
	const total = benchRecordCount(config);
	opts.onProgress?.({ step: 'records', done: 0, total });
	const t0 = now();
	let count = 0;
	for await (const e of runProbe(config, {
		engine: timed,
		judge: timed,
		store: new MemoryStore(),
		template: opts.template,
		signal: opts.signal,
		now
	})) {
		if (e.type === 'stage') timed.kind = e.stage === 'answer' ? 'answer' : 'user_turn';
		if (e.type === 'record' && e.record.label !== null) {
			count++;
			opts.onProgress?.({ step: 'records', done: count, total });
		}
		if (e.type === 'error') {
			throw new DeviceBenchError(`A probe record failed: ${e.message}`, { cause: e });
		}
		if (e.type === 'done' && e.aborted) throw new AbortError('The benchmark was cancelled.');
	}
	return { count, ms: now() - t0 };
}

function summarize(
	samples: RequestSample[],
	records: { count: number; ms: number },
	loadMs: number,
	opts: DeviceBenchOptions
): DeviceBenchResult {
	const results: Record<string, number> = { load_ms: loadMs };
	const sources: Record<string, FigureSource> = { load_ms: 'measured' };
	const put = (name: string, f: { value: number; source: FigureSource } | null) => {
		if (f === null) return;
		results[name] = f.value;
		sources[name] = f.source;
	};
	const short = samples.filter((s) => s.kind === 'short');
	put(
		'ttft_ms',
		figure(short, (u) => u.ttft_ms, measuredTtftMs)
	);
	put(
		'prefill_tps',
		figure(short, (u) => u.prefill_tps, measuredPrefillTps)
	);
	put(
		'decode_tps',
		figure(short, (u) => u.decode_tps, measuredDecodeTps)
	);
	const ofKind = (k: RequestSample['kind']) => samples.filter((s) => s.kind === k);
	for (const kind of ['answer', 'user_turn'] as const) {
		const xs = ofKind(kind).map((s) => s.wall_ms);
		if (xs.length > 0) put(`${kind}_ms`, { value: median(xs), source: 'measured' });
	}
	if (records.count > 0 && records.ms > 0) {
		put('records_per_minute', {
			value: (records.count * 60_000) / records.ms,
			source: 'measured'
		});
	}
	const overheads = samples.filter((s) => s.kind !== 'warmup').map(overheadMs);
	if (overheads.every((x): x is number => x !== null)) {
		put('request_overhead_ms', { value: median(overheads), source: 'measured' });
		const probe = samples.filter((s) => s.kind === 'answer' || s.kind === 'user_turn');
		const engineMs = probe.reduce((sum, s) => sum + (s.usage.total_ms ?? 0), 0);
		if (records.count > 0) {
			put('record_overhead_ms', {
				value: (records.ms - engineMs) / records.count,
				source: 'measured'
			});
		}
	}
	return {
		created_at: (opts.timestamp ?? (() => new Date().toISOString()))(),
		model_id: opts.model,
		engine: opts.engine.name,
		device: opts.device,
		results,
		sources,
		samples
	};
}
