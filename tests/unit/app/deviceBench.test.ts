import { describe, expect, it } from 'vitest';
import { deviceBenchBlocker } from '../../../src/lib/app/deviceBench.ts';

type Settings = Parameters<typeof deviceBenchBlocker>[0];

function settings(engine: 'webllm' | 'openai', hasGenerator: boolean): Settings {
	return {
		engine: { current: engine },
		generator: () => (hasGenerator ? { id: 'Qwen3-0.6B-q4f32_1-MLC' } : undefined)
	} as unknown as Settings;
}

const GPU = { canRunModels: true, shaderF16: false };

describe('deviceBenchBlocker', () => {
	it('lets the benchmark run with the device engine, WebGPU and a generator', () => {
		expect(deviceBenchBlocker(settings('webllm', true), GPU)).toBeNull();
	});

	it.each([
		['a server engine', settings('openai', true), GPU, /This device/],
		['no WebGPU', settings('webllm', true), { ...GPU, canRunModels: false }, /WebGPU/],
		['no generator chosen', settings('webllm', false), GPU, /generator/]
	])('says why not with %s', (_name, s, env, reason) => {
		expect(deviceBenchBlocker(s, env)).toMatch(reason);
	});
});
