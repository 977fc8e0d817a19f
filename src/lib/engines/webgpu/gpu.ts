/**
 * What this browser's GPU can do, checked on the page before anything heavy loads. Pure WebGPU
 * calls (no web-llm), with `navigator` injected so tests can pass fakes.
 */

export interface AdapterInfoLike {
	vendor?: string;
	architecture?: string;
	device?: string;
	description?: string;
}

/** The slice of GPUAdapter we read; real adapters fit it. */
export interface AdapterLike {
	features: { has(feature: string): boolean };
	limits: Partial<Record<GpuLimitName, number>>;
	/** Chrome ≥ 127 and the spec. */
	info?: AdapterInfoLike & { isFallbackAdapter?: boolean };
	/** Older Chrome (removed in 131): the async predecessor of `info`. */
	requestAdapterInfo?: () => Promise<AdapterInfoLike>;
}

export interface GpuLike {
	requestAdapter(options?: GPURequestAdapterOptions): Promise<AdapterLike | null>;
}

export const GPU_LIMITS = [
	'maxBufferSize',
	'maxStorageBufferBindingSize',
	'maxComputeWorkgroupStorageSize',
	'maxComputeInvocationsPerWorkgroup',
	'maxStorageBuffersPerShaderStage'
] as const;
export type GpuLimitName = (typeof GPU_LIMITS)[number];

export interface GpuReport {
	webgpu: boolean;
	adapter?: Required<AdapterInfoLike> & { fallback: boolean };
	shader_f16: boolean;
	limits: Partial<Record<GpuLimitName, number>>;
	/**
	 * Why models cannot run here (or may struggle). Absent when all is well. Without WebGPU or an
	 * adapter it names the cause only: the set-up view's panel lists what to try, once.
	 */
	reason?: string;
}

/** web-llm falls back to these minimums and refuses to start below them (detectGPUDevice). */
const MIN_BUFFER_BYTES = 256 * 1024 * 1024;
const MIN_STORAGE_BINDING_BYTES = 128 * 1024 * 1024;

const SHARED_RUNS = 'Shared runs can still be opened and explored without a GPU.';

/**
 * Probe WebGPU without throwing: every failure becomes a report with a `reason`.
 * @param nav defaults to the global navigator (absent in Node, which reports no WebGPU).
 */
export async function probeGpu(
	nav: { gpu?: GpuLike } | undefined = globalNavigator()
): Promise<GpuReport> {
	if (!nav?.gpu) {
		return {
			webgpu: false,
			shader_f16: false,
			limits: {},
			reason: 'This browser does not offer WebGPU.'
		};
	}
	let adapter: AdapterLike | null;
	try {
		adapter = await nav.gpu.requestAdapter({ powerPreference: 'high-performance' });
	} catch {
		// Some browsers throw instead of resolving null when the GPU is blocklisted.
		adapter = null;
	}
	if (!adapter) {
		return {
			webgpu: true,
			shader_f16: false,
			limits: {},
			reason:
				'WebGPU is present but no GPU adapter was found: hardware acceleration may be off, or the GPU or its driver is blocklisted.'
		};
	}
	const info = await adapterInfo(adapter);
	const limits: Partial<Record<GpuLimitName, number>> = {};
	for (const name of GPU_LIMITS) {
		const value = adapter.limits[name];
		if (typeof value === 'number') limits[name] = value;
	}
	const report: GpuReport = {
		webgpu: true,
		adapter: info,
		shader_f16: adapter.features.has('shader-f16'),
		limits
	};
	const tooSmall =
		(limits.maxBufferSize ?? Infinity) < MIN_BUFFER_BYTES ||
		(limits.maxStorageBufferBindingSize ?? Infinity) < MIN_STORAGE_BINDING_BYTES;
	if (tooSmall) {
		report.reason = `This GPU's buffer limits are below what the in-browser engine needs (256 MB buffers, 128 MB storage bindings). ${SHARED_RUNS}`;
	} else if (info.fallback) {
		report.reason =
			'This is a software (fallback) adapter: models will run, but very slowly. Enable hardware acceleration for real speed.';
	}
	return report;
}

async function adapterInfo(adapter: AdapterLike): Promise<NonNullable<GpuReport['adapter']>> {
	let raw: (AdapterInfoLike & { isFallbackAdapter?: boolean }) | undefined = adapter.info;
	if (!raw && adapter.requestAdapterInfo) {
		try {
			raw = await adapter.requestAdapterInfo();
		} catch {
			// Info is only for display; a browser that refuses it still runs models.
			raw = undefined;
		}
	}
	return {
		vendor: raw?.vendor ?? '',
		architecture: raw?.architecture ?? '',
		device: raw?.device ?? '',
		description: raw?.description ?? '',
		fallback: raw?.isFallbackAdapter === true
	};
}

function globalNavigator(): { gpu?: GpuLike } | undefined {
	return typeof navigator === 'undefined' ? undefined : (navigator as { gpu?: GpuLike });
}
