import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AbortError, AppError } from '../../../src/lib/errors/appError.ts';
import { describeError, errorText } from '../../../src/lib/errors/describe.ts';
import { EngineError } from '../../../src/lib/probe/engine.ts';
import { TemplateError } from '../../../src/lib/probe/template.ts';
import { DatasetError } from '../../../src/lib/datasets/errors.ts';
import { GpqaAccessError } from '../../../src/lib/datasets/tasks/gpqa.ts';
import { HttpNoAnswerError, HttpStatusError } from '../../../src/lib/net/httpGet.ts';
import { CorruptFileError } from '../../../src/cli/jsonlStore.ts';
import { UsageError } from '../../../src/cli/args.ts';
import { readSources } from '../build/importGraph.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

describe('the error base', () => {
	it('gives every named error a name, a code, a recovery and a retryable flag', () => {
		const cases: [AppError, string, string][] = [
			[new EngineError('http', 'm', 'r', true), 'EngineError', 'http'],
			[new TemplateError('m'), 'TemplateError', 'template'],
			[new DatasetError('m', { unreachable: true }), 'DatasetError', 'dataset'],
			[new GpqaAccessError('no_token', 'm', {}), 'GpqaAccessError', 'gpqa_access'],
			[new HttpStatusError('https://x/a', 503, 'busy', true), 'HttpStatusError', 'http'],
			[new HttpNoAnswerError('https://x/a', 2, new Error('down')), 'HttpNoAnswerError', 'network'],
			[new CorruptFileError('out.jsonl', 3, 'not JSON'), 'CorruptFileError', 'corrupt_file'],
			[new UsageError('m'), 'UsageError', 'usage'],
			[new AbortError(), 'AbortError', 'aborted']
		];
		for (const [err, name, code] of cases) {
			expect(err).toBeInstanceOf(AppError);
			expect(err).toBeInstanceOf(Error);
			expect({ name: err.name, code: err.code }).toEqual({ name, code });
			expect(typeof err.recovery).toBe('string');
			expect(typeof err.retryable).toBe('boolean');
		}
	});

	it('marks what may work later as retryable: an unreachable host, a server busy on every try', () => {
		expect(new DatasetError('m', { unreachable: true }).retryable).toBe(true);
		expect(new DatasetError('m', { status: 404 }).retryable).toBe(false);
		expect(new HttpStatusError('https://x/a', 503, 'busy', true).retryable).toBe(true);
		expect(new HttpStatusError('https://x/a', 404, 'gone', false).retryable).toBe(false);
	});

	it('keeps AbortError out of the engine errors, so nothing offers to retry a stop', () => {
		const err = new AbortError('Stopped.');
		expect(err).not.toBeInstanceOf(EngineError);
		expect(err).toMatchObject({ message: 'Stopped.', retryable: false, recovery: '' });
	});

	it('leaves no exported error class in src outside the base', () => {
		const outside: string[] = [];
		for (const [path, text] of readSources(REPO)) {
			for (const m of text.matchAll(/export class (\w+) extends (Error|DOMException)\b/g)) {
				outside.push(`${path}: ${m[1]}`);
			}
		}
		expect(outside).toEqual(['src/lib/errors/appError.ts: AppError']);
	});
});

describe('describeError', () => {
	it('reads the recovery through the base', () => {
		const err = new CorruptFileError('out.jsonl', 3, 'not JSON');
		expect(describeError(err)).toEqual({
			name: 'CorruptFileError',
			message: 'out.jsonl line 3: not JSON',
			recovery: 'Fix or delete that line, or start a new run with another --out.'
		});
		expect(errorText(err)).toBe(
			'out.jsonl line 3: not JSON Fix or delete that line, or start a new run with another --out.'
		);
	});

	it('does not trust a stray recovery field on something that is not one of ours', () => {
		const foreign = Object.assign(new Error('boom'), { recovery: 'do X' });
		expect(describeError(foreign)).toEqual({ name: 'Error', message: 'boom' });
	});

	it('describes what is not an Error at all', () => {
		expect(describeError('plain text')).toEqual({ name: 'Error', message: 'plain text' });
		expect(errorText(undefined)).toBe('undefined');
		expect(describeError(new EngineError('http', 'm'))).toEqual({
			name: 'EngineError',
			message: 'm'
		});
	});
});
