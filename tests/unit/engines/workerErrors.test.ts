import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { AbortError, AppError } from '../../../src/lib/errors/appError.ts';
import { HttpError } from '../../../src/lib/engines/server/http.ts';
import {
	BROWSER_TABLE,
	caughtError,
	fromWireError,
	toWireError
} from '../../../src/lib/engines/worker/errors.ts';
import { WEBLLM_ADVICE } from '../../../src/lib/engines/webgpu/errors.ts';
import { fakeCpuEngine } from '../../helpers/fakeWllama.ts';

const roundTrip = (err: unknown) => fromWireError(structuredClone(toWireError(err)));

describe('errors across the worker boundary', () => {
	it('round-trips an EngineError with its code, recovery and retryable flag', () => {
		const back = roundTrip(new EngineError('network', 'Down.', 'Retry later.', true));
		expect(back).toMatchObject({ code: 'network', message: 'Down.', recovery: 'Retry later.' });
		expect(back.retryable).toBe(true);
	});

	it('keeps the class, name, code, recovery and retryable of a named EngineError subclass', () => {
		const back = roundTrip(new HttpError(503, 'The server at x answered 503.', 'Check its logs.'));
		expect(back).toBeInstanceOf(EngineError);
		expect(back).toBeInstanceOf(AppError);
		expect(back).toMatchObject({
			name: 'HttpError',
			code: 'http',
			message: 'The server at x answered 503.',
			recovery: 'Check its logs.',
			retryable: true
		});
	});

	it('rebuilds a stop as the standalone AbortError with its message, not as an EngineError', () => {
		const back = roundTrip(new AbortError('Stopped by you.'));
		expect(back).toBeInstanceOf(AbortError);
		expect(back).not.toBeInstanceOf(EngineError);
		expect(back).toMatchObject({ name: 'AbortError', code: 'aborted', message: 'Stopped by you.' });
	});

	it('flattens thrown strings and DOMExceptions', () => {
		expect(toWireError('boom')).toEqual({ name: 'Error', message: 'boom' });
		const dom = new DOMException('Quota exceeded', 'QuotaExceededError');
		expect(caughtError(dom).code).toBe('quota_exceeded');
	});
});

describe('each engine words its own uncoded errors', () => {
	const link = {
		name: 'LinkError',
		message:
			'WebAssembly.instantiate(): Import #0 "env" "memory": memory import must be a WebAssembly.Memory'
	};

	it('gives only the web-llm engine the web-llm library wording', () => {
		expect(fromWireError(link, WEBLLM_ADVICE)).toMatchObject({
			code: 'bad_model',
			message: expect.stringContaining('web-llm 0.2.86')
		});
		const plain = fromWireError(link, BROWSER_TABLE);
		expect(plain.code).toBe('unknown');
		expect(plain.message).not.toMatch(/web-llm|GPU/);
		expect(plain.message).toContain('memory import must be a WebAssembly.Memory');
	});

	it('still words the browser quota and a failed download for every engine', () => {
		const quota = fromWireError({ name: 'QuotaExceededError', message: 'full' }, BROWSER_TABLE);
		expect(quota.code).toBe('quota_exceeded');
		const net = fromWireError({ name: 'TypeError', message: 'Failed to fetch' }, BROWSER_TABLE);
		expect(net).toMatchObject({ code: 'network', retryable: true });
	});

	it('the CPU engine does not blame web-llm or the GPU for its own wasm failing', async () => {
		const { engine, fake, close } = fakeCpuEngine();
		await engine.load(['http://127.0.0.1:9/a/model-a.gguf']);
		const err = new Error(link.message);
		err.name = link.name;
		fake.failNext.complete = err;
		const failed = engine.complete({
			model: 'http://127.0.0.1:9/a/model-a.gguf',
			prompt: 'Hi',
			temperature: 0,
			top_p: 1,
			seed: 1,
			max_tokens: 8,
			stop: []
		});
		await expect(failed).rejects.toMatchObject({ code: 'unknown', name: 'EngineError' });
		await expect(failed).rejects.not.toMatchObject({ message: expect.stringMatching(/web-llm/) });
		close();
	});
});
