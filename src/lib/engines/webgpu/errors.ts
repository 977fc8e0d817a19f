/**
 * web-llm failures → our typed EngineError. Errors cross the worker as `{ name, message }`; web-llm
 * sets `this.name` on its classes (lib/error.d.ts), and DOM failures carry DOMException names, so
 * the name decides the code. Messages are the fallback for errors web-llm throws as a plain Error
 * (no adapter) or that arrive pre-stringified ("DeviceLostError: …").
 */
import { EngineError, type EngineErrorCode } from '../../probe/engine.ts';
import { AbortError, AppError } from '../../errors/appError.ts';
import type { WireError } from './protocol.ts';
import { HUB_BLOCKED_RECOVERY } from '../../errors/hubBlocked.ts';

interface Advice {
	code: EngineErrorCode;
	message: string;
	recovery: string;
	retryable?: boolean;
}

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
	quota_exceeded: {
		code: 'quota_exceeded',
		message: 'The browser ran out of storage space for model files.',
		recovery: 'Free space: delete cached models you no longer use, then retry.'
	},
	context_window: {
		code: 'context_window',
		message: "The prompt is longer than the model's context window.",
		recovery: 'Lower max tokens, shorten the answer, or pick a model with a longer context window.'
	},
	network: {
		code: 'network',
		message: 'Downloading the model files from Hugging Face (huggingface.co) failed.',
		recovery: HUB_BLOCKED_RECOVERY,
		retryable: true
	},
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
	[
		/Failed to fetch|NetworkError|Load failed|Network response was not ok|Unable to fetch|Cannot fetch|Request failed|ERR_(INTERNET|NETWORK|CONNECTION)/i,
		ADVICE.network
	]
];

/** "DeviceLostError: The WebGPU device…" → "DeviceLostError", for errors that arrive as strings. */
const NAME_PREFIX = /^([A-Z][A-Za-z0-9]*Error):\s/;

/** Flatten anything thrown into a postMessage-safe shape, keeping the class as `name`. */
export function toWireError(err: unknown): WireError {
	if (err instanceof AppError) {
		return {
			name: err.name,
			message: err.message,
			code: err.code,
			recovery: err.recovery,
			retryable: err.retryable
		};
	}
	if (err instanceof Error || isErrorLike(err)) {
		return { name: err.name || 'Error', message: String(err.message) };
	}
	return { name: 'Error', message: String(err) };
}

function isErrorLike(err: unknown): err is { name: string; message: string } {
	return typeof err === 'object' && err !== null && 'message' in err && 'name' in err;
}

/**
 * Rebuild a typed EngineError from a wire error. The original text stays in the message after the
 * plain-language summary, because people report bugs by pasting it.
 */
export function toEngineError(wire: WireError): EngineError | AbortError {
	if (wire.name === 'AbortError' || wire.code === 'aborted') return new AbortError(wire.message);
	if (wire.code) {
		const err = new EngineError(
			wire.code as EngineErrorCode,
			wire.message,
			wire.recovery ?? '',
			wire.retryable ?? false
		);
		// The worker's own class name (an EngineError subclass) is what the view and the logs show.
		err.name = wire.name;
		return err;
	}
	const prefixed = NAME_PREFIX.exec(wire.message)?.[1];
	if (prefixed === 'AbortError') return new AbortError();
	const advice =
		BY_NAME[wire.name] ??
		(prefixed ? BY_NAME[prefixed] : undefined) ??
		BY_MESSAGE.find(([pattern]) => pattern.test(wire.message))?.[1];
	if (!advice) {
		return new EngineError(
			'unknown',
			`${wire.name}: ${wire.message}`,
			'Reload the page and retry.'
		);
	}
	const detail = wire.message ? ` (${wire.name}: ${wire.message})` : '';
	return new EngineError(
		advice.code,
		advice.message + detail,
		advice.recovery,
		advice.retryable ?? false
	);
}

/** Shortcut for errors caught on the page side (worker crash, postMessage failure). */
export function asEngineError(err: unknown): EngineError | AbortError {
	if (err instanceof EngineError || err instanceof AbortError) return err;
	return toEngineError(toWireError(err));
}
