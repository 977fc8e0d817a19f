/**
 * Folds web-llm's initProgressCallback reports into one monotone 0..1 bar per model.
 *
 * web-llm's `progress` restarts at 0 in every phase, and reports never name the model. Per model
 * (reload([A, B]) loads A then B) it reports, in this order (0.2.86 lib/index.js):
 *   "Start to fetch params"
 *   "Fetching param cache[3/22]: 120MB fetched. 13% completed, 4 secs elapsed. It can take…"
 *   "Loading model from cache[3/22]: 120MB loaded. 13% completed, 5 secs elapsed."
 *   "Loading GPU shader modules[40/81]: 49% completed, 7 secs elapsed."
 *   "Finish loading on WebGPU - <adapter description>"
 * The fetch phase is skipped when every shard is already cached. "Finish loading" is what moves
 * the fold on to the next model.
 */
import type { InitProgressReport } from '@mlc-ai/web-llm';
import type { LoadProgress } from '../../probe/engine.ts';

export type LoadPhase = 'preparing' | 'downloading' | 'loading' | 'compiling' | 'ready';

const PHASE_ORDER: Record<LoadPhase, number> = {
	preparing: 0,
	downloading: 1,
	loading: 2,
	compiling: 3,
	ready: 4
};

/** Share of the bar each phase fills, [start, end]. Downloads dominate a first visit. */
const SPANS_WITH_DOWNLOAD: Partial<Record<LoadPhase, [number, number]>> = {
	downloading: [0, 0.8],
	loading: [0.8, 0.95],
	compiling: [0.95, 0.99]
};
/** Cached models skip the download, so loading from cache gets most of the bar. */
const SPANS_CACHED: Partial<Record<LoadPhase, [number, number]>> = {
	loading: [0, 0.9],
	compiling: [0.9, 0.99]
};

const MB = 1024 * 1024;
const PATTERNS: [RegExp, LoadPhase][] = [
	[/^Start to fetch params/, 'preparing'],
	[/^Fetching param cache\[\d+\/\d+\]: (\d+)MB fetched/, 'downloading'],
	[/^Loading model from cache\[\d+\/\d+\]: (\d+)MB loaded/, 'loading'],
	[/^Loading GPU shader modules\[/, 'compiling'],
	[/^Finish loading on /, 'ready']
];

interface ModelState {
	fraction: number;
	phase: LoadPhase;
	downloaded: boolean;
	/**
	 * web-llm's timeElapsed counts from the start of the tensor fetch, across the download and
	 * load phases, so a phase's own time is measured from the last report before it began.
	 */
	phaseStartS: number;
	lastElapsedS: number;
}

export function parseReport(text: string): { phase: LoadPhase | null; mb?: number } {
	for (const [pattern, phase] of PATTERNS) {
		const m = pattern.exec(text);
		if (m) return m[1] === undefined ? { phase } : { phase, mb: Number(m[1]) };
	}
	return { phase: null };
}

/**
 * @returns a function to pass each report to; it returns the folded progress of the model the
 * report belongs to.
 */
export function createProgressFolder(models: string[]): (r: InitProgressReport) => LoadProgress {
	let index = 0;
	const states: ModelState[] = models.map(() => ({
		fraction: 0,
		phase: 'preparing',
		downloaded: false,
		phaseStartS: 0,
		lastElapsedS: 0
	}));

	return (report) => {
		const i = Math.min(index, models.length - 1);
		const state = states[i];
		const { phase: parsed, mb } = parseReport(report.text);
		// Unknown text (a future web-llm phase) keeps the current phase and fraction.
		const phase = parsed && PHASE_ORDER[parsed] >= PHASE_ORDER[state.phase] ? parsed : state.phase;
		if (phase !== state.phase) {
			state.phase = phase;
			state.phaseStartS = state.lastElapsedS;
		}
		state.lastElapsedS = report.timeElapsed;
		if (phase === 'downloading') state.downloaded = true;

		const p = clamp01(report.progress);
		const span = (state.downloaded ? SPANS_WITH_DOWNLOAD : SPANS_CACHED)[phase];
		let target = state.fraction;
		if (phase === 'ready') target = 1;
		else if (span && parsed === phase) target = span[0] + (span[1] - span[0]) * p;
		state.fraction = Math.max(state.fraction, target);

		const out: LoadProgress = {
			model: models[i],
			fraction: state.fraction,
			phase,
			text: report.text
		};
		if (mb !== undefined) {
			out.loaded_bytes = mb * MB;
			if (p > 0) out.total_bytes = Math.round((mb * MB) / p);
			const phaseS = report.timeElapsed - state.phaseStartS;
			if (p > 0 && p < 1 && phaseS > 0) out.eta_ms = Math.round((phaseS * 1000 * (1 - p)) / p);
		}
		if (phase === 'ready') index++;
		return out;
	};
}

function clamp01(x: number): number {
	return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
