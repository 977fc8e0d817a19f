import { describe, expect, it } from 'vitest';
import { deviceBenchBlocker } from '../../../src/lib/app/deviceBench.ts';
import { EngineSettings } from '../../../src/lib/state/settings.svelte.ts';

/** Fresh settings with nothing saved (no storage): the device engine and its default generator. */
function settings(change: (s: EngineSettings) => void = () => {}): EngineSettings {
	const s = new EngineSettings(undefined);
	change(s);
	return s;
}

const GPU = { canRunModels: true, shaderF16: false };
const IDLE = { active: false };

describe('deviceBenchBlocker', () => {
	it('lets the benchmark run with the device engine, WebGPU and a generator', () => {
		expect(deviceBenchBlocker(settings(), GPU, IDLE)).toBeNull();
	});

	it.each([
		['a server engine', settings((s) => (s.engine.current = 'server')), GPU, /This device/],
		['no WebGPU', settings(), { ...GPU, canRunModels: false }, /cannot run models/],
		['the GPU still being checked', settings(), { ...GPU, checked: false }, /Checking/],
		[
			'no generator chosen',
			settings((s) => (s.models.webgpu.generatorKey.current = 'no-such-model')),
			GPU,
			/generator/
		]
	])('says why not with %s', (_name, s, env, reason) => {
		expect(deviceBenchBlocker(s, env, IDLE)).toMatch(reason);
	});

	it('waits while a run in this tab is using the device, as the playground does', () => {
		expect(deviceBenchBlocker(settings(), GPU, { active: true })).toBe(
			'A run is using this device.'
		);
		// A server engine is refused for what it is, run or not.
		const server = settings((s) => (s.engine.current = 'server'));
		expect(deviceBenchBlocker(server, GPU, { active: true })).toMatch(/This device/);
	});
});
