import { describe, expect, it } from 'vitest';
import type { GpuReport } from '../../../src/lib/engines/webgpu/gpu.ts';
import { Environment } from '../../../src/lib/state/environment.svelte.ts';

const NO_GPU: GpuReport = { webgpu: false, shader_f16: false, limits: {}, reason: 'no adapter' };

describe('Environment', () => {
	it('probes once however often it is asked, then reports the device', async () => {
		let probes = 0;
		const env = new Environment({
			probeGpu: async () => {
				probes++;
				return NO_GPU;
			}
		});
		await Promise.all([env.check(), env.check(), env.checkWithin(1000)]);
		expect(probes).toBe(1);
		expect(env.gpu).toEqual(NO_GPU);
		expect(env.canRunModels).toBe(false);
		expect(env.storage).toEqual({ persisted: null });
	});

	it('turns a probe that throws into a reason, never a rejection', async () => {
		const env = new Environment({ probeGpu: () => Promise.reject(new Error('GPU process lost')) });
		await env.check();
		expect(env.gpu?.webgpu).toBe(false);
		expect(env.gpu?.reason).toMatch(/Checking WebGPU failed: .*GPU process lost/);
	});

	it('waits no longer than asked for a probe that never answers', async () => {
		const env = new Environment({ probeGpu: () => new Promise<GpuReport>(() => {}) });
		const t0 = performance.now();
		await env.checkWithin(60);
		const waited = performance.now() - t0;
		expect(waited).toBeGreaterThanOrEqual(55);
		expect(waited).toBeLessThan(1000);
		// Still checking: the panel goes on saying so, and nothing pretends the GPU is absent.
		expect(env.gpu).toBeNull();
		expect(env.checking).toBe(true);
	});

	it('does not wait out the timer when the probe answers first', async () => {
		const env = new Environment({ probeGpu: async () => NO_GPU });
		const t0 = performance.now();
		await env.checkWithin(5000);
		expect(performance.now() - t0).toBeLessThan(1000);
		expect(env.gpu).toEqual(NO_GPU);
	});
});
