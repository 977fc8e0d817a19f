/**
 * Set-up forms as data: which control (by data-testid) gets which value, in order. Written once and
 * filled by both drivers: Playwright in the Chromium e2e (app.ts fillControls) and the WebDriver
 * drivers of tests/browsers (steps.ts), each setting a control its own way.
 */

export interface Control {
	id: string;
	/** Text to type, an option to choose, or whether a checkbox/radio is on (true clicks a button). */
	value: string | boolean;
	/** Only some set-ups show it: skipped where it is absent. */
	optional?: true;
}

/** The CPU engine with the GGUF at `modelUrl` as generator and judge, every turn judged by it. */
export function cpuModelControls(modelUrl: string): Control[] {
	return [
		{ id: 'judge-mode', value: 'llm' },
		...['generator', 'judge'].flatMap((role) => [
			{ id: `cpu-${role}-model`, value: 'custom' },
			{ id: `cpu-${role}-url`, value: modelUrl }
		]),
		// The chat template comes from the GGUF's own metadata: the repo field stays empty.
		{ id: 'template-kind-repo', value: true },
		{ id: 'template-repo', value: '' }
	];
}

export interface DemoPlan {
	items: number;
	/** As typed into the field, e.g. "0, 1". */
	temperatures: string;
	seed?: number;
	truncate?: boolean;
	samples?: number;
}

/** A run of the demo set: `items` items at these temperatures, no perturbation unless truncated. */
export function demoPlanControls(plan: DemoPlan): Control[] {
	return [
		{ id: 'dataset-select', value: 'demo' },
		{ id: 'n-items', value: String(plan.items) },
		{ id: 'seed', value: String(plan.seed ?? 1) },
		{ id: 'temperatures', value: plan.temperatures },
		{ id: 'perturbation-truncate', value: plan.truncate ?? false },
		{ id: 'perturbation-append', value: false, optional: true },
		{ id: 'samples', value: String(plan.samples ?? 1) }
	];
}
