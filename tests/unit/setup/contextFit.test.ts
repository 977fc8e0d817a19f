/**
 * Whether a run's longest prompt (question and template around the longest answer) and its user
 * turn fit the model's context window, by the rule that sizes the automatic answer limit: the
 * automatic limit fits any window above its floor, a typed one may not; an unknown window warns of
 * nothing and says "not reported".
 */
import { describe, expect, it } from 'vitest';
import {
	MIN_AUTO_ANSWER_TOKENS,
	PROMPT_ALLOWANCE,
	answerTokenLimit
} from '../../../src/lib/probe/runConfig.ts';
import { contextFit, describeWindow, misfitText } from '../../../src/lib/setup/contextFit.ts';

const AUTO = { answer_max_tokens: 1024, answer_tokens_auto: true, max_tokens: 256 };
const TYPED = { ...AUTO, answer_tokens_auto: false };

describe('contextFit', () => {
	it('fits an automatic limit exactly into any window above its floor', () => {
		for (const window of [2048, 8192, 40960]) {
			const fit = contextFit(AUTO, window);
			expect(fit).toMatchObject({ window, fits: true, needed: window });
			expect(fit?.answer_max_tokens).toBe(answerTokenLimit(AUTO, window));
		}
	});

	it('does not fit a window smaller than the automatic floor needs', () => {
		const tiny = MIN_AUTO_ANSWER_TOKENS + AUTO.max_tokens + PROMPT_ALLOWANCE - 1;
		expect(contextFit(AUTO, tiny)?.fits).toBe(false);
	});

	it('does not fit a typed answer limit larger than the window leaves', () => {
		const fit = contextFit({ ...TYPED, answer_max_tokens: 4096 }, 4096);
		expect(fit).toEqual({
			window: 4096,
			answer_max_tokens: 4096,
			needed: 4096 + 256 + PROMPT_ALLOWANCE,
			fits: false
		});
		expect(misfitText(fit)).toBe(
			'The longest prompt (4,096 answer tokens plus about 512 for the question and template) and ' +
				'the user turn need 4,864 tokens, more than the 4,096-token context window: long answers ' +
				'will fail. Lower the answer limit or the user-turn tokens.'
		);
		expect(contextFit(TYPED, 8192)?.fits).toBe(true);
	});

	it('warns of nothing when the window is not known', () => {
		expect(contextFit(TYPED, undefined)).toBeNull();
		expect(contextFit(TYPED, 0)).toBeNull();
		expect(misfitText(null)).toBeNull();
	});
});

describe('describeWindow', () => {
	it('says the tokens and where they were read, or that the server is asked or does not say', () => {
		expect(
			describeWindow({ state: 'known', tokens: 40960, source: 'max_model_len in /v1/models' })
		).toBe('40,960 tokens (max_model_len in /v1/models)');
		expect(describeWindow({ state: 'known', tokens: 4096 })).toBe('4,096 tokens');
		expect(describeWindow({ state: 'asking' })).toBe('asking the server…');
		expect(describeWindow({ state: 'not reported' })).toBe('not reported by the server');
	});
});
