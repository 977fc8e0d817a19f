/**
 * The device diagnostics in one line for the first screen ("WebGPU ✓ · software adapter · no
 * shader-f16 → q4f32 models"); the full panel is one click away.
 */
import type { GpuReport } from '../engines/webgpu/gpu.ts';

/** Without WebGPU models still run here, on the processor. */
const CPU_FALLBACK = 'small models run on the CPU engine (slower) · shared runs and servers work';

export function deviceLine(gpu: GpuReport | null): string {
	if (gpu === null) return 'Checking this device…';
	if (!gpu.webgpu) return `No WebGPU in this browser · ${CPU_FALLBACK}`;
	if (!gpu.adapter) return `WebGPU ✗ (no GPU adapter) · ${CPU_FALLBACK}`;
	const a = gpu.adapter;
	const adapter = a.fallback
		? 'software adapter (slow)'
		: [a.vendor, a.architecture].filter(Boolean).join(' ') || 'GPU adapter';
	const f16 = gpu.shader_f16 ? 'shader-f16 → q4f16 models' : 'no shader-f16 → q4f32 models';
	return `WebGPU ✓ · ${adapter} · ${f16}`;
}
