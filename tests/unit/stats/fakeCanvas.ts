/**
 * Just enough of a canvas for Chart.js to build a chart in Node: parsing, scales, legend, filler
 * and tooltip all run, drawing calls go nowhere. Lets the tests ask Chart.js itself what it made
 * of a config instead of only inspecting the config object.
 */
import { Chart, registerables } from 'chart.js';
import type { ChartConfiguration, ChartType } from 'chart.js';

let registered = false;

function fakeCanvas(width: number, height: number): HTMLCanvasElement {
	const state: Record<string | symbol, unknown> = {};
	const canvas: Record<string, unknown> = { width, height, style: {} };
	const noop = () => undefined;
	const ctx = new Proxy(state, {
		get(target, prop) {
			if (prop === 'canvas') return canvas;
			if (prop === 'measureText') return (text: string) => ({ width: text.length * 6 });
			if (prop === 'getLineDash') return () => [];
			if (prop in target) return target[prop];
			return noop;
		},
		set(target, prop, value) {
			target[prop] = value;
			return true;
		}
	});
	canvas.getContext = () => ctx;
	return canvas as unknown as HTMLCanvasElement;
}

/**
 * Build a Chart.js chart from a config without animation, on a canvas of `size` (800 × 400 unless
 * told, a phone's chart is about 350 wide); call `destroy()` when done.
 */
export function renderChart<T extends ChartType>(
	config: ChartConfiguration<T>,
	size: { width: number; height: number } = { width: 800, height: 400 }
): Chart<T> {
	if (!registered) {
		Chart.register(...registerables);
		registered = true;
	}
	const options = {
		...config.options,
		animation: false,
		responsive: false
	} as typeof config.options;
	return new Chart(fakeCanvas(size.width, size.height), { ...config, options });
}
