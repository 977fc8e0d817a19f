/** A browser measurement: a number with how it was obtained, or why there is none. */

export type BrowserMetric =
	| { status: 'measured'; value: number; detail: string }
	/** The app cannot be measured yet (a view still a placeholder, no Chromium): not a failure. */
	| { status: 'unavailable'; value: null; reason: string }
	/** The harness ran against a built view and the measurement failed: a failure. */
	| { status: 'error'; value: null; reason: string };

export function measured(value: number, detail: string): BrowserMetric {
	return { status: 'measured', value, detail };
}

export function unavailable(reason: string): BrowserMetric {
	return { status: 'unavailable', value: null, reason };
}

export function failed(reason: string): BrowserMetric {
	return { status: 'error', value: null, reason };
}
