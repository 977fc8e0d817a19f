/** The request fields every engine builds from a probe request, in one place. */
import { describe, expect, it } from 'vitest';
import { completionFields } from '../../../src/lib/engines/requestFields.ts';

const REQ = {
	model: 'm',
	prompt: '<|im_start|>user\n',
	temperature: 1,
	top_p: 0.95,
	seed: 7,
	max_tokens: 256,
	stop: ['<|im_end|>']
};

describe('request fields', () => {
	it('streams a completion with its usage, sampling as asked, and the stop list', () => {
		expect(completionFields(REQ)).toEqual({
			...REQ,
			stream: true,
			stream_options: { include_usage: true }
		});
	});

	it('sends no stop list when there is none, since some servers reject an empty one', () => {
		expect(completionFields({ ...REQ, stop: [] })).not.toHaveProperty('stop');
	});
});
