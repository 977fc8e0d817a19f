/**
 * Times every request an engine serves, from the caller's side: wall-clock, first and last token,
 * next to what the engine itself reports in `usage`. The gap between the two is our overhead (the
 * worker hop, streaming, the pipeline) that the engine's own figures cannot see.
 */
import type {
	CompletionRequest,
	CompletionResult,
	Engine,
	EngineCapabilities,
	JsonChatRequest,
	LoadProgress
} from '../probe/engine.ts';
import type { Usage } from '../probe/types.ts';

/** What a request was for: warm-up, the short prompt, a probe answer or user turn, the judge. */
export type SampleKind = 'warmup' | 'short' | 'answer' | 'user_turn' | 'judge';

export interface RequestSample {
	kind: SampleKind;
	/** Our clock, from the call to the resolved result. */
	wall_ms: number;
	/** Our clock, from the call to the first streamed token; null when nothing streamed. */
	first_token_ms: number | null;
	/** Our clock, from the call to the last streamed token. */
	last_token_ms: number | null;
	usage: Usage;
}

/**
 * Wraps an engine: records a sample per request and treats loading the already-loaded models as
 * done, so the probe pipeline can run on a model the benchmark has just timed loading.
 */
export class TimingEngine implements Engine {
	readonly name: string;
	readonly samples: RequestSample[] = [];
	/** The kind the next complete() calls are counted as; the benchmark sets it per step. */
	kind: SampleKind = 'short';
	readonly #inner: Engine;
	readonly #now: () => number;
	readonly #loaded: string[];

	constructor(inner: Engine, loaded: string[], now: () => number) {
		this.#inner = inner;
		this.name = inner.name;
		this.#loaded = loaded;
		this.#now = now;
	}

	capabilities(): EngineCapabilities {
		return this.#inner.capabilities();
	}

	async load(
		models: string[],
		opts?: { signal?: AbortSignal; onProgress?: (p: LoadProgress) => void }
	): Promise<void> {
		if (models.every((m) => this.#loaded.includes(m))) return;
		await this.#inner.load(models, opts);
	}

	unload(): Promise<void> {
		return this.#inner.unload();
	}

	async complete(req: CompletionRequest): Promise<CompletionResult> {
		const t0 = this.#now();
		let first: number | null = null;
		let last: number | null = null;
		const res = await this.#inner.complete({
			...req,
			onToken: (delta) => {
				const t = this.#now() - t0;
				first ??= t;
				last = t;
				req.onToken?.(delta);
			}
		});
		this.samples.push({
			kind: this.kind,
			wall_ms: this.#now() - t0,
			first_token_ms: first,
			last_token_ms: last,
			usage: res.usage
		});
		return res;
	}

	async chatJson(req: JsonChatRequest): Promise<CompletionResult> {
		const t0 = this.#now();
		const res = await this.#inner.chatJson(req);
		const wall = this.#now() - t0;
		this.samples.push({
			kind: 'judge',
			wall_ms: wall,
			first_token_ms: null,
			last_token_ms: null,
			usage: res.usage
		});
		return res;
	}
}

export type FigureSource = 'engine' | 'measured';

/** A figure and where it came from: the engine's usage when every sample had it, else our clock. */
export interface Figure {
	value: number;
	source: FigureSource;
}

export function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * The median of a figure over samples, from the engine's usage when it reports it for every sample,
 * otherwise from our own clock. Null when neither is available (e.g. nothing streamed).
 */
export function figure(
	samples: RequestSample[],
	fromEngine: (u: Usage) => number | undefined,
	measured: (s: RequestSample) => number | null
): Figure | null {
	if (samples.length === 0) return null;
	const reported = samples.map((s) => fromEngine(s.usage));
	if (reported.every((x): x is number => typeof x === 'number' && Number.isFinite(x))) {
		return { value: median(reported), source: 'engine' };
	}
	const ours = samples.map(measured).filter((x): x is number => x !== null && Number.isFinite(x));
	return ours.length === samples.length ? { value: median(ours), source: 'measured' } : null;
}

/** Time to first token, our clock. */
export const measuredTtftMs = (s: RequestSample): number | null => s.first_token_ms;

/** Prompt tokens over the time to the first token: prefill plus the round trip, so a lower bound. */
export function measuredPrefillTps(s: RequestSample): number | null {
	if (s.first_token_ms === null || s.first_token_ms <= 0) return null;
	return s.usage.prompt_tokens / (s.first_token_ms / 1000);
}

/** Tokens after the first over the time between the first and last token. */
export function measuredDecodeTps(s: RequestSample): number | null {
	if (s.first_token_ms === null || s.last_token_ms === null) return null;
	const span = s.last_token_ms - s.first_token_ms;
	if (s.usage.completion_tokens < 2 || span <= 0) return null;
	return (s.usage.completion_tokens - 1) / (span / 1000);
}

/** Our wall-clock minus the engine's own end-to-end time; null when the engine reports none. */
export function overheadMs(s: RequestSample): number | null {
	return typeof s.usage.total_ms === 'number' ? s.wall_ms - s.usage.total_ms : null;
}
