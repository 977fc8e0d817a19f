/**
 * A run's model load bars, folded from its `loading` and `loaded` events: one bar per model whose
 * fraction only grows, whatever order reports arrive in, and the download speed each report shows
 * (setup/downloadSpeed.ts), handed to whoever keeps it.
 */
import type { LoadProgress } from '../probe/engine.ts';
import type { ProbeEventOf } from '../probe/events.ts';
import { DownloadMeter, type DownloadSample } from '../setup/downloadSpeed.ts';

/** One model's load bar: the engine's latest report, and the load time once it is loaded. */
export type ModelLoad = Omit<LoadProgress, 'text'> & { ms?: ProbeEventOf<'loaded'>['ms'] };

export class ModelLoads {
	/** Times the downloads the load reports show; not state, nothing renders it. */
	readonly #meter = new DownloadMeter();
	readonly #onDownload?: (sample: DownloadSample) => void;

	constructor(onDownload?: (sample: DownloadSample) => void) {
		this.#onDownload = onDownload;
	}

	/** The bars after `e`: a new array (`loads` is left as it was). */
	apply(loads: ModelLoad[], e: ProbeEventOf<'loading'> | ProbeEventOf<'loaded'>): ModelLoad[] {
		if (e.type === 'loading') {
			if (e.progress) this.#measured(this.#meter.note(e.progress, e.at ?? performance.now()));
			for (const model of e.models) {
				const p = e.progress?.model === model ? e.progress : undefined;
				loads = withLoad(loads, model, p ? { ...p, ms: undefined } : {});
			}
			return loads;
		}
		for (const model of e.models) {
			this.#measured(this.#meter.end(model));
			loads = withLoad(loads, model, { fraction: 1, phase: 'ready', eta_ms: undefined, ms: e.ms });
		}
		return loads;
	}

	#measured(sample: DownloadSample | null): void {
		if (sample) this.#onDownload?.(sample);
	}
}

function withLoad(loads: ModelLoad[], model: string, p: Partial<ModelLoad>): ModelLoad[] {
	const next = [...loads];
	const at = next.findIndex((l) => l.model === model);
	const prev: ModelLoad = at >= 0 ? next[at] : { model, fraction: 0, phase: 'waiting' };
	const load: ModelLoad = {
		...prev,
		...p,
		model,
		fraction: Math.max(prev.fraction, Math.min(1, p.fraction ?? prev.fraction))
	};
	if (at >= 0) next[at] = load;
	else next.push(load);
	return next;
}
