/**
 * The device diagnostics in one line for the first screen ("WebGPU ✓ · software adapter · no
 * shader-f16 → q4f32 models"); the full panel is one click away.
 */
import type { GpuReport } from '../engines/webgpu/gpu.ts';

/** Without WebGPU models still run here, on the processor. */
const CPU_FALLBACK = 'small models run on the CPU engine (slower) · shared runs and servers work';

/**
 * @param mirror the model mirror's base when models come from one ('' or absent: Hugging Face),
 *   said at the end so a student sees where the class's models come from.
 */
export function deviceLine(gpu: GpuReport | null, mirror = ''): string {
	const line = gpuLine(gpu);
	return mirror && gpu !== null ? `${line} · models from ${hostOf(mirror)}` : line;
}

function hostOf(base: string): string {
	try {
		const url = new URL(base);
		return `${url.host}${url.pathname.replace(/\/+$/, '')}`;
	} catch {
		return base;
	}
}

function gpuLine(gpu: GpuReport | null): string {
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
