/** How the device benchmark's figures are named and printed; shared by the view and its tests. */
import type { DeviceBenchProgress } from './device.ts';

export interface FigureInfo {
	key: string;
	label: string;
	unit: string;
	/** Decimals shown. */
	digits: number;
	/** One line on what the figure means, for a tooltip. */
	hint: string;
}

/** In display order. Figures a run did not produce are skipped. */
export const FIGURES: readonly FigureInfo[] = [
	{
		key: 'decode_tps',
		label: 'Decode',
		unit: 'tokens/s',
		digits: 1,
		hint: 'Generation speed after the first token, short prompt (median of 3).'
	},
	{
		key: 'prefill_tps',
		label: 'Prefill',
		unit: 'tokens/s',
		digits: 0,
		hint: 'Prompt reading speed, short prompt (median of 3).'
	},
	{
		key: 'ttft_ms',
		label: 'Time to first token',
		unit: 'ms',
		digits: 0,
		hint: 'From request to the first generated token, short prompt.'
	},
	{
		key: 'records_per_minute',
		label: 'Probe records',
		unit: 'per minute',
		digits: 1,
		hint: 'Four real probe records (one answer, four user turns) through the pipeline.'
	},
	{
		key: 'answer_ms',
		label: 'Assistant answer',
		unit: 'ms',
		digits: 0,
		hint: 'One probe-sized answer (up to 256 tokens).'
	},
	{
		key: 'user_turn_ms',
		label: 'User turn',
		unit: 'ms',
		digits: 0,
		hint: 'One generated user turn (up to 64 tokens), median.'
	},
	{
		key: 'load_ms',
		label: 'Model load',
		unit: 'ms',
		digits: 0,
		hint: 'Making the model resident, from cache if it was downloaded before.'
	},
	{
		key: 'request_overhead_ms',
		label: 'Our overhead per request',
		unit: 'ms',
		digits: 1,
		hint: "Our wall-clock minus the engine's own end-to-end time (worker hop, streaming)."
	},
	{
		key: 'record_overhead_ms',
		label: 'Our overhead per record',
		unit: 'ms',
		digits: 1,
		hint: "Pipeline time per record that the engine's own timings do not account for."
	}
];

export function formatFigure(info: FigureInfo, value: number): string {
	return value.toLocaleString('en', {
		minimumFractionDigits: info.digits,
		maximumFractionDigits: info.digits
	});
}

/** The figures a result has, in display order. */
export function figuresOf(results: Record<string, number>): { info: FigureInfo; value: number }[] {
	return FIGURES.filter((f) => typeof results[f.key] === 'number').map((info) => ({
		info,
		value: results[info.key]
	}));
}

/** "Loading the model… 42%", "Short prompt 2 of 4", "Probe records 3 of 4". */
export function progressText(p: DeviceBenchProgress): string {
	if (p.step === 'load') {
		const pct = p.load ? ` ${Math.round(p.load.fraction * 100)}%` : '';
		return `Loading the model…${pct}`;
	}
	const what = p.step === 'short' ? 'Short prompt' : 'Probe records';
	return `${what} ${Math.min(p.done + 1, p.total)} of ${p.total}`;
}
