import { describe, expect, it } from 'vitest';
import { EngineError, type EngineErrorCode } from '../../../src/lib/probe/engine.ts';
import { AbortError } from '../../../src/lib/errors/appError.ts';
import { asEngineError, toEngineError } from '../../../src/lib/engines/webgpu/errors.ts';
import { toWireError } from '../../../src/lib/engines/worker/errors.ts';

/** Names and messages as web-llm 0.2.86 (lib/index.js) and browsers produce them. */
const BY_NAME: [name: string, message: string, code: EngineErrorCode | 'aborted'][] = [
	[
		'WebGPUNotAvailableError',
		'WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine.',
		'webgpu_unavailable'
	],
	['WebGPUNotFoundError', 'Cannot find WebGPU in the environment', 'webgpu_unavailable'],
	[
		'ShaderF16SupportError',
		'This model requires WebGPU extension shader-f16, which is not enabled in this browser.',
		'shader_f16'
	],
	[
		'FeatureSupportError',
		'This model requires feature shader-f16, which is not yet supported by this browser.',
		'shader_f16'
	],
	[
		'DeviceLostError',
		'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).',
		'device_lost'
	],
	[
		'ModelNotLoadedError',
		'Model not loaded before trying to complete CompletionCreateParams.',
		'model_not_loaded'
	],
	['QuotaExceededError', 'The quota has been exceeded.', 'quota_exceeded'],
	[
		'ContextWindowSizeExceededError',
		'Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096',
		'context_window'
	],
	['ModelNotFoundError', 'Cannot find model record in appConfig for Nope-MLC.', 'bad_model'],
	[
		'IncorrectPipelineLoadedError',
		'ChatCompletionRequest expects model to be loaded with LLMChatPipeline. However, snowflake-arctic-embed-m-q0f32-MLC-b4 is not loaded with this pipeline.',
		'bad_model'
	],
	[
		'LinkError',
		'WebAssembly.instantiate(): Import #12 "env" "TVMFFIEnvCheckSignals": function import requires a callable',
		'bad_model'
	],
	[
		'CompileError',
		'WebAssembly.instantiate(): expected magic word 00 61 73 6d, found 3c 21 44 4f @+0',
		'bad_model'
	],
	['AbortError', 'The operation was aborted.', 'aborted']
];

/** Plain Errors (name "Error" or "TypeError") recognised by their message. */
const BY_MESSAGE: [name: string, message: string, code: EngineErrorCode | 'aborted'][] = [
	[
		'Error',
		"Unable to find a compatible GPU. This issue might be because your computer doesn't have a GPU",
		'no_adapter'
	],
	['TypeError', 'Failed to fetch', 'network'],
	['TypeError', 'NetworkError when attempting to fetch resource.', 'network'],
	['TypeError', 'Load failed', 'network'],
	[
		'Error',
		'ArtifactOPFSCache: Unable to fetch https://huggingface.co/x, received status 503',
		'network'
	],
	['Error', 'Device was lost. This can happen due to insufficient memory', 'device_lost'],
	['Error', 'DeviceLostError: The WebGPU device was lost while loading the model.', 'device_lost'],
	['Error', 'QuotaExceededError: Quota exceeded.', 'quota_exceeded'],
	['Error', 'AbortError: signal is aborted without reason', 'aborted'],
	[
		'Error',
		'LinkError: WebAssembly.instantiate(): Import #0 "env" "__indirect_function_table": table import requires a WebAssembly.Table',
		'bad_model'
	],
	[
		'Error',
		'WebAssembly.Instance(): Import #3 module="wasi_snapshot_preview1" function="fd_write": function import requires a callable',
		'bad_model'
	]
];

describe('web-llm error mapping', () => {
	it('says what is wrong with the model choice, not "reload the page", for a wrong kind of model or library', () => {
		const embedding = toEngineError({
			name: 'IncorrectPipelineLoadedError',
			message:
				'ChatCompletionRequest expects model to be loaded with LLMChatPipeline. However, e5-MLC is not loaded with this pipeline.'
		});
		expect(embedding.message).toMatch(/cannot write text.*embedding/);
		expect(embedding.message).toContain('e5-MLC');
		expect(embedding.recovery).toMatch(/chat/);
		expect(embedding.recovery).not.toMatch(/Reload/);
		const link = toEngineError({
			name: 'LinkError',
			message: 'WebAssembly.instantiate(): Import #0'
		});
		expect(link.message).toMatch(/library .* does not fit .*0\.2\.86/);
		expect(link.recovery).toMatch(/library/);
		expect(link.recovery).not.toMatch(/Reload/);
	});

	it.each(BY_NAME)('maps %s by name', (name, message, code) => {
		const err = toEngineError({ name, message });
		expect(err).toBeInstanceOf(code === 'aborted' ? AbortError : EngineError);
		expect(err.code).toBe(code);
	});

	it.each(BY_MESSAGE)('maps a %s saying "%s"', (name, message, code) => {
		expect(toEngineError({ name, message }).code).toBe(code);
	});

	it('gives every mapped code a plain-language message and a recovery action', () => {
		for (const [name, message] of [...BY_NAME, ...BY_MESSAGE]) {
			const err = toEngineError({ name, message });
			expect(err.message.length).toBeGreaterThan(20);
			if (err.code !== 'aborted') expect(err.recovery.length).toBeGreaterThan(10);
		}
	});

	it('tells shader-f16 failures to use the q4f32 variant', () => {
		const err = toEngineError({ name: 'ShaderF16SupportError', message: 'needs shader-f16' });
		expect(err.recovery).toMatch(/q4f32/);
	});

	it('tells a lost device to reload the page, and that the run resumes', () => {
		const err = toEngineError({ name: 'DeviceLostError', message: 'lost' });
		expect(err.recovery).toMatch(/reload the page/i);
		expect(err.recovery).toMatch(/resume/i);
		expect(err.retryable).toBe(true);
	});

	it('tells a full quota to delete cached models', () => {
		expect(toEngineError({ name: 'QuotaExceededError', message: 'full' }).recovery).toMatch(
			/delete cached models/i
		);
	});

	it('marks network failures retryable and keeps the original text for bug reports', () => {
		const err = toEngineError({ name: 'TypeError', message: 'Failed to fetch' });
		expect(err.retryable).toBe(true);
		expect(err.message).toContain('TypeError: Failed to fetch');
	});

	it('names Hugging Face in a download failure and points to what works without it', () => {
		const err = toEngineError({ name: 'TypeError', message: 'Failed to fetch' });
		expect(err.message).toMatch(/Hugging Face \(huggingface\.co\)/);
		expect(err.recovery).toMatch(/blocked/);
		expect(err.recovery).toMatch(/shared or example run/);
		expect(err.recovery).toMatch(/OpenAI-compatible server/);
	});

	it('rebuilds AbortError as the core AbortError class', () => {
		expect(toEngineError({ name: 'AbortError', message: 'x' })).toBeInstanceOf(AbortError);
	});

	it('keeps unknown errors as code "unknown" with the original name and message', () => {
		const err = toEngineError({ name: 'GrammarMatcherInitError', message: 'bad schema' });
		expect(err.code).toBe('unknown');
		expect(err.message).toBe('GrammarMatcherInitError: bad schema');
	});
});

describe('web-llm errors across the worker boundary', () => {
	it('keeps a web-llm class name through structuredClone, where instanceof is lost', () => {
		class DeviceLostError extends Error {
			constructor() {
				super('The WebGPU device was lost while loading the model.');
				this.name = 'DeviceLostError';
			}
		}
		const wire = structuredClone(toWireError(new DeviceLostError()));
		expect(wire.name).toBe('DeviceLostError');
		expect(toEngineError(wire).code).toBe('device_lost');
	});

	it('words a DOMException caught on the page', () => {
		const dom = new DOMException('Quota exceeded', 'QuotaExceededError');
		expect(asEngineError(dom).code).toBe('quota_exceeded');
	});
});
