import { describe, expect, it } from 'vitest';
import { probeGpu, type AdapterLike } from '../../../src/lib/engines/webgpu/gpu.ts';

const GB = 1024 ** 3;

function adapter(overrides: Partial<AdapterLike> = {}): AdapterLike {
	return {
		features: new Set(['shader-f16', 'timestamp-query']),
		limits: {
			maxBufferSize: 4 * GB,
			maxStorageBufferBindingSize: 2 * GB,
			maxComputeWorkgroupStorageSize: 32768,
			maxComputeInvocationsPerWorkgroup: 1024,
			maxStorageBuffersPerShaderStage: 10
		},
		info: { vendor: 'nvidia', architecture: 'ampere', device: '', description: 'RTX 3060' },
		...overrides
	};
}

const nav = (a: AdapterLike | null | (() => Promise<never>)) => ({
	gpu: {
		requestAdapter: typeof a === 'function' ? a : async () => a
	}
});

describe('probeGpu', () => {
	it('reports no WebGPU with the cause only (the set-up panel says what to try, once)', async () => {
		const report = await probeGpu({});
		expect(report).toMatchObject({ webgpu: false, shader_f16: false, limits: {} });
		expect(report.reason).toBe('This browser does not offer WebGPU.');
	});

	it('reports no WebGPU when there is no navigator at all (Node)', async () => {
		expect((await probeGpu(undefined)).webgpu).toBe(false);
	});

	it('reports a missing adapter when requestAdapter resolves null', async () => {
		const report = await probeGpu(nav(null));
		expect(report.webgpu).toBe(true);
		expect(report.adapter).toBeUndefined();
		expect(report.reason).toMatch(/no GPU adapter/);
	});

	it('treats a throwing requestAdapter like a missing adapter', async () => {
		const report = await probeGpu(nav(() => Promise.reject(new Error('blocklisted'))));
		expect(report.reason).toMatch(/no GPU adapter/);
	});

	it('reads adapter.info, shader-f16 and the limits web-llm cares about', async () => {
		const report = await probeGpu(nav(adapter()));
		expect(report).toEqual({
			webgpu: true,
			adapter: {
				vendor: 'nvidia',
				architecture: 'ampere',
				device: '',
				description: 'RTX 3060',
				fallback: false
			},
			shader_f16: true,
			limits: adapter().limits
		});
	});

	it('falls back to requestAdapterInfo() on browsers without adapter.info', async () => {
		const old = adapter({
			info: undefined,
			requestAdapterInfo: async () => ({ vendor: 'intel', architecture: 'gen-12lp' })
		});
		const report = await probeGpu(nav(old));
		expect(report.adapter).toMatchObject({ vendor: 'intel', architecture: 'gen-12lp', device: '' });
	});

	it('reports shader_f16 false when the feature is missing (the q4f32 case)', async () => {
		const report = await probeGpu(nav(adapter({ features: new Set() })));
		expect(report.shader_f16).toBe(false);
		expect(report.reason).toBeUndefined();
	});

	it('explains buffer limits below web-llm minimums', async () => {
		const small = adapter({
			limits: { maxBufferSize: 128 * 1024 ** 2, maxStorageBufferBindingSize: GB }
		});
		expect((await probeGpu(nav(small))).reason).toMatch(/buffer limits/);
	});

	it('warns that a software (fallback) adapter like SwiftShader is slow', async () => {
		const soft = adapter({
			info: { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true }
		});
		const report = await probeGpu(nav(soft));
		expect(report.adapter?.fallback).toBe(true);
		expect(report.reason).toMatch(/slowly/);
	});
});
