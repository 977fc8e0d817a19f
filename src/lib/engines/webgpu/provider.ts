/** The WebGPU engine: web-llm in a worker, models from the MLC catalog or the user's own. */
import { EngineError } from '../../probe/engine.ts';
import { hostedOnDevice } from '../device.ts';
import type { EngineProvider } from '../provider.ts';
import { WebgpuModels } from './settings.ts';

export const webgpu: EngineProvider<'webgpu', WebgpuModels> = {
	kind: 'webgpu',
	label: 'This device (WebGPU)',
	description: 'Runs the models on this device’s GPU with web-llm: the fastest way in the browser.',
	runtime: 'webllm',
	onDevice: true,
	usesGpu: true,
	// A small quantized model on a laptop GPU.
	guessTps: 15,
	unavailable: (device) =>
		device.checked !== false && !device.canRunModels
			? new EngineError(
					'webgpu_unavailable',
					'This device cannot run models on its GPU (no WebGPU adapter).',
					'Use “This device (CPU)” (slower, small models) or an OpenAI-compatible server.'
				)
			: null,
	models: (persist) => new WebgpuModels(persist),
	...hostedOnDevice('webgpu')
};
