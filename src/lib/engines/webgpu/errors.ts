/**
 * web-llm failures → our typed EngineError. Errors cross the worker as `{ name, message }`
 * (worker/errors.ts); web-llm sets `this.name` on its classes (lib/error.d.ts), and DOM failures
 * carry DOMException names, so the name decides the code. Messages are the fallback for errors
 * web-llm throws as a plain Error (no adapter) or that arrive pre-stringified ("DeviceLostError: …").
 */
import type { EngineError } from '../../probe/engine.ts';
import type { AbortError } from '../../errors/appError.ts';
import type { WireError } from '../worker/protocol.ts';
import {
	BROWSER_ADVICE,
	caughtError,
	fromWireError,
	NETWORK_FAILURE,
	type Advice,
	type AdviceTable
} from '../worker/errors.ts';

const ADVICE = {
	webgpu_unavailable: {
		code: 'webgpu_unavailable',
		message: 'This browser does not offer WebGPU, which running models in the page needs.',
		recovery:
			'Use a recent Chrome or Edge on a desktop (or enable WebGPU in the browser settings). Shared runs can still be opened and explored without it.'
	},
	no_adapter: {
		code: 'no_adapter',
		message: 'WebGPU is available but no usable GPU was found.',
		recovery:
			'Check that hardware acceleration is on in the browser settings and the graphics driver is up to date. Shared runs can still be opened without a GPU.'
	},
	shader_f16: {
		code: 'shader_f16',
		message:
			'This GPU or browser lacks 16-bit shader support (shader-f16), which this model needs.',
		recovery: 'Use the q4f32 variant of the model instead.'
	},
	device_lost: {
		code: 'device_lost',
		message: 'The GPU device was lost, usually because it ran out of memory.',
		recovery:
			'Reload the page; the run pauses and resumes where it stopped. If it happens again, pick a smaller model or load the generator and judge one at a time.',
		retryable: true
	},
	model_not_loaded: {
		code: 'model_not_loaded',
		message: 'The model is not loaded on the GPU.',
		recovery: 'Load the model, then retry.'
	},
	quota_exceeded: BROWSER_ADVICE.quota_exceeded,
	context_window: {
		code: 'context_window',
		message: "The prompt is longer than the model's context window.",
		recovery: 'Lower max tokens, shorten the answer, or pick a model with a longer context window.'
	},
	network: BROWSER_ADVICE.network,
	bad_model: {
		code: 'bad_model',
		message: 'This model id is not known to the in-browser engine.',
		recovery: 'Pick a model from the catalog.'
	},
	not_a_chat_model: {
		code: 'bad_model',
		message:
			'This model cannot write text: it loaded as another kind of model (an embedding model, say), not as a chat model.',
		recovery: 'Pick a chat (text generation) model as the generator and as the judge.'
	},
	library_mismatch: {
		code: 'bad_model',
		message:
			"The model's library (its .wasm file) does not fit this in-browser engine (web-llm 0.2.86): it was built for another web-llm version or is not a model library at all.",
		recovery:
			'Use a model library built for web-llm 0.2.86 (the catalog models are), or check the model library URL.'
	}
} as const satisfies Record<string, Advice>;

/** web-llm class names (lib/error.d.ts, 0.2.86) and DOMException names. */
const BY_NAME: Record<string, Advice> = {
	WebGPUNotAvailableError: ADVICE.webgpu_unavailable,
	// Thrown when detectGPUDevice() finds no navigator.gpu at all, despite its name.
	WebGPUNotFoundError: ADVICE.webgpu_unavailable,
	ShaderF16SupportError: ADVICE.shader_f16,
	FeatureSupportError: ADVICE.shader_f16,
	DeviceLostError: ADVICE.device_lost,
	ModelNotLoadedError: ADVICE.model_not_loaded,
	WorkerEngineModelNotLoadedError: ADVICE.model_not_loaded,
	EngineNotLoadedError: ADVICE.model_not_loaded,
	SpecifiedModelNotFoundError: ADVICE.model_not_loaded,
	QuotaExceededError: ADVICE.quota_exceeded,
	ContextWindowSizeExceededError: ADVICE.context_window,
	NetworkError: ADVICE.network,
	ModelNotFoundError: ADVICE.bad_model,
	UnsupportedModelIdError: ADVICE.bad_model,
	// An embedding model chosen where chat completions are asked for.
	IncorrectPipelineLoadedError: ADVICE.not_a_chat_model,
	// WebAssembly.LinkError: the model library's imports do not match this web-llm runtime;
	// CompileError: the library URL served something that is not WebAssembly (an HTML 404 page).
	LinkError: ADVICE.library_mismatch,
	CompileError: ADVICE.library_mismatch
};

/** Message patterns, tried in order, for plain Errors and stringified errors. */
const BY_MESSAGE: [RegExp, Advice][] = [
	[/Unable to find a compatible GPU/i, ADVICE.no_adapter],
	[/WebGPU is not supported|Cannot find WebGPU/i, ADVICE.webgpu_unavailable],
	[/shader-f16/i, ADVICE.shader_f16],
	[/device (was |is )?lost/i, ADVICE.device_lost],
	[/quota/i, ADVICE.quota_exceeded],
	[/exceed context window/i, ADVICE.context_window],
	[/Model not loaded/i, ADVICE.model_not_loaded],
	[/is not loaded with this pipeline/i, ADVICE.not_a_chat_model],
	[
		/^WebAssembly\.(instantiate|instantiateStreaming|Instance|Module|compile)\(\)/,
		ADVICE.library_mismatch
	],
	[NETWORK_FAILURE, ADVICE.network]
];

/** How the web-llm engine words what its worker sends (WebLLMEngine hands it to its WorkerClient). */
export const WEBLLM_ADVICE: AdviceTable = { byName: BY_NAME, byMessage: BY_MESSAGE };

/** A web-llm wire error → a typed EngineError worded for the in-browser GPU engine. */
export function toEngineError(wire: WireError): EngineError | AbortError {
	return fromWireError(wire, WEBLLM_ADVICE);
}

/** Shortcut for errors caught on the page side (worker crash, postMessage failure). */
export function asEngineError(err: unknown): EngineError | AbortError {
	return caughtError(err, WEBLLM_ADVICE);
}
