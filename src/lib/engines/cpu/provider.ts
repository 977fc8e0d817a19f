/** The CPU engine: llama.cpp compiled to WebAssembly (wllama) in a worker, for any browser. */
import { hostedOnDevice } from '../device.ts';
import type { EngineProvider } from '../provider.ts';
import { CpuModels } from './settings.ts';

export const cpu: EngineProvider<'cpu', CpuModels> = {
	kind: 'cpu',
	label: 'This device (CPU)',
	description:
		'Runs llama.cpp (compiled to WebAssembly) on the processor: no GPU needed, slower than WebGPU.',
	runtime: 'wllama',
	onDevice: true,
	usesGpu: false,
	// llama.cpp's threads need SharedArrayBuffer.
	threadsNeedIsolation: true,
	// A 0.5B model in WebAssembly on one or two laptop cores.
	guessTps: 5,
	// Any browser with WebAssembly runs it.
	unavailable: () => null,
	models: (persist) => new CpuModels(persist),
	...hostedOnDevice('cpu')
};
