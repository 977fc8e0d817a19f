import { describe, expect, it } from 'vitest';
import { cpuEngineModels, cpuModelNames } from '../../../src/lib/display/cpuEngine.ts';
import { deviceLine } from '../../../src/lib/display/deviceLine.ts';
import { GGUF_CATALOG } from '../../../src/lib/engines/cpu/catalog.ts';

describe('the CPU engine, in words for a device without WebGPU', () => {
	it('names every catalog model once, by role, and nothing else', () => {
		const generators = cpuModelNames('generator');
		for (const e of GGUF_CATALOG.filter((x) => x.roles.includes('generator'))) {
			expect(generators).toContain(e.label);
		}
		// Two quantisations of one model are one name.
		expect(generators.match(/Qwen2\.5 0\.5B Instruct/g)).toHaveLength(1);
		expect(generators).toMatch(/, .* and [^,]+$/);
		expect(cpuModelNames('judge')).toBe('Qwen2.5 1.5B Instruct');
		expect(cpuEngineModels()).toBe(`${generators} answer; Qwen2.5 1.5B Instruct judges`);
	});

	it("the first screen's device line offers the CPU engine, not a dead end", () => {
		for (const gpu of [
			{ webgpu: false, shader_f16: false, limits: {} },
			{ webgpu: true, shader_f16: false, limits: {} }
		]) {
			const line = deviceLine(gpu);
			expect(line).toMatch(/small models run on the CPU engine \(slower\)/);
			expect(line).toMatch(/shared runs and servers work/);
		}
	});
});
